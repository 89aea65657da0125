/**
 * A pasted composer.lock: a JSON object that starts with Composer's `_readme` or `content-hash`
 * and has a `packages` array. Checked before composer.json, whose requirements it also holds.
 */
export function looksComposerLock(text: string): boolean {
  const head = text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 4_096);
  return (
    head.startsWith('{') &&
    /"(?:_readme|content-hash)"\s*:/.test(head) &&
    /"packages"\s*:\s*\[/.test(text.slice(0, 20_000))
  );
}
