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
    return cycloneDxNamespace(rootStartTag(head) ?? '') !== null;
  }
  return false;
}

/**
 * The start tag of the root element (`<bom …>`), found by skipping the prolog's declaration,
 * processing instructions, comments and doctype with indexOf: each is skipped once, so a body
 * full of `<!--` or `<bom ` in a comment costs one pass, not one scan per `<`.
 */
export function rootStartTag(text: string): string | null {
  let at = 0;
  for (;;) {
    const open = text.indexOf('<', at);
    if (open < 0) return null;
    const closer = text.startsWith('<?', open)
      ? '?>'
      : text.startsWith('<!--', open)
        ? '-->'
        : text.startsWith('<!', open)
          ? '>'
          : null;
    if (closer === null) {
      const end = text.indexOf('>', open + 1);
      return end < 0 ? null : text.slice(open, end + 1);
    }
    const end = text.indexOf(closer, open + 2);
    if (end < 0) return null;
    at = end + closer.length;
  }
}

const ROOT_BOM = /^<(?:[\w.-]+:)?bom[\s/>]/;
const CYCLONEDX_XMLNS = /\sxmlns(?::[\w.-]+)?\s*=\s*["']http:\/\/cyclonedx\.org\/schema\/bom\/(\d+\.\d+)?/;

/**
 * The CycloneDX version the root `<bom>` tag's namespace names ('' when the namespace is
 * CycloneDX's without a version), or null when the root is not a CycloneDX `<bom>`.
 */
export function cycloneDxNamespace(rootTag: string): string | null {
  if (!ROOT_BOM.test(rootTag)) return null;
  const ns = CYCLONEDX_XMLNS.exec(rootTag);
  return ns ? (ns[1] ?? '') : null;
}
