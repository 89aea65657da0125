/** A pasted Pipfile.lock: a JSON object whose `_meta` names a `pipfile-spec`. */
export function looksPipfileLock(text: string): boolean {
  const head = text.replace(/^\uFEFF/, '').slice(0, 5_000);
  return /^\s*\{/.test(head) && /"_meta"\s*:/.test(head) && /"pipfile-spec"\s*:/.test(head);
}
