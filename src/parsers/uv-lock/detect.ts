/** A pasted uv.lock: `version = 1` and `[[package]]` tables whose `source` is an inline table (Cargo.lock's is a string). */
export function looksUvLock(text: string): boolean {
  const head = text.replace(/^\uFEFF/, '').slice(0, 50_000);
  return (
    /^version = 1\r?$/m.test(head) &&
    /^\[\[package\]\]\s*$/m.test(head) &&
    /^source = \{ (?:registry|editable|virtual|git|path|directory|url) = /m.test(head)
  );
}
