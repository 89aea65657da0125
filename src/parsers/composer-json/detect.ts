/** A pasted composer.json: a JSON object whose first keys include "require" with a vendor/name in it. */
export function looksComposerJson(text: string): boolean {
  const head = text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 20_000);
  return head.startsWith('{') && /"require(?:-dev)?"\s*:\s*\{/.test(head) && /"[\w.-]+\/[\w.-]+"\s*:/.test(head);
}
