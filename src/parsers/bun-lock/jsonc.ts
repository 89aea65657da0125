/**
 * Bun's text lockfile is JSON with trailing commas (JSONC). One linear pass removes each comma
 * that closes an object or array, and `//` and block comments, outside strings; JSON.parse reads
 * the rest. (jsonc-parser would do it too, at the cost of a dependency for one rule.)
 */
export function stripJsonc(text: string): string {
  const out: string[] = [];
  let from = 0; // start of the text not yet copied to out
  let comma = -1; // a comma outside strings, held until the next significant character says whether it stays
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === SPACE || c === TAB || c === LF || c === CR) continue;
    if (c === SLASH && (text.charCodeAt(i + 1) === SLASH || text.charCodeAt(i + 1) === STAR)) {
      const block = text.charCodeAt(i + 1) === STAR;
      const end = block ? text.indexOf('*/', i + 2) : text.indexOf('\n', i + 2);
      const stop = end < 0 ? text.length : block ? end + 2 : end;
      out.push(text.slice(from, i));
      from = stop;
      i = stop - 1;
      continue;
    }
    if (comma >= 0) {
      if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        out.push(text.slice(from, comma));
        from = comma + 1;
      }
      comma = -1;
    }
    if (c === COMMA) comma = i;
    else if (c === QUOTE) {
      for (i += 1; i < text.length; i += 1) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) i += 1;
        else if (d === QUOTE) break;
      }
    }
  }
  out.push(text.slice(from));
  return out.join('');
}

const [SPACE, TAB, LF, CR, SLASH, STAR, COMMA, QUOTE, BACKSLASH, CLOSE_OBJECT, CLOSE_ARRAY] = [
  ' ',
  '\t',
  '\n',
  '\r',
  '/',
  '*',
  ',',
  '"',
  '\\',
  '}',
  ']',
].map((c) => c.charCodeAt(0)) as [
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
];
