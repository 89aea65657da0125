/**
 * Cheap sniffing to pick a parser: a look at the head of the text, never a full parse.
 * A false positive only means parseSpdx explains what is missing.
 */

// The version key sits near the top in every writer seen; a bounded head keeps this O(1).
const HEAD = 64 * 1024;

export function looksSpdx(text: string): boolean {
  const head = text
    .slice(0, HEAD)
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (head.startsWith('{')) {
    return (
      /"spdxVersion"\s*:\s*"SPDX-/.test(head) || /"SPDXID"\s*:\s*"SPDXRef-DOCUMENT"/.test(head) || spdx3Context(head)
    );
  }
  const first = head.split(/\r\n|\r|\n/).find((l) => l.trim() !== '' && !l.trimStart().startsWith('#')) ?? '';
  if (/^SPDXVersion\s*:/.test(first.trim())) return true;
  // YAML: the same keys as JSON, unquoted at the top level.
  return /^(?:spdxVersion\s*:\s*["']?SPDX-|SPDXID\s*:\s*["']?SPDXRef-DOCUMENT)/m.test(head);
}

/** An SPDX 3 `@context` (a string or a list) names spdx.org/rdf/3 within its first 2 KB: one look, not a scan per `[`. */
function spdx3Context(head: string): boolean {
  const at = head.indexOf('"@context"');
  return at >= 0 && /"https?:\/\/spdx\.org\/rdf\/3/.test(head.slice(at, at + 2048));
}
