/**
 * Cheap sniffing to pick a parser: a look at the head of the text, never a full parse.
 * A false positive only means parseCycloneDx explains what is missing.
 */

// Real BOMs put bomFormat or the root element near the top; a bounded head keeps this O(1).
const HEAD = 64 * 1024;

export function looksCycloneDx(text: string): boolean {
  const head = text
    .slice(0, HEAD)
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (head.startsWith('{')) return /"bomFormat"\s*:\s*"CycloneDX"/.test(head);
  if (head.startsWith('<')) {
    return /<(?:[\w.-]+:)?bom\b[^>]*?\sxmlns(?::[\w.-]+)?\s*=\s*["']http:\/\/cyclonedx\.org\/schema\/bom\//.test(head);
  }
  return false;
}
