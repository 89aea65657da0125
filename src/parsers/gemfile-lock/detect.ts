/** A pasted Gemfile.lock: a `GEM` (or `GIT`/`PATH`) section header with its `specs:`, or a `DEPENDENCIES` header and `BUNDLED WITH`. */
export function looksGemfileLock(text: string): boolean {
  const head = text.replace(/^\uFEFF/, '').slice(0, 200_000);
  return (
    (/^(?:GEM|GIT|PATH)\r?$/m.test(head) && /^ {2}specs:\r?$/m.test(head)) ||
    (/^DEPENDENCIES\r?$/m.test(head) && /^BUNDLED WITH\r?$/m.test(head))
  );
}
