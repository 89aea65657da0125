/** A go.sum line: module path, version (maybe with /go.mod), and an `h1:` hash. */
const SUM_LINE = /^\S+ v\S+ h1:[A-Za-z0-9+/=]+$/;

/** A pasted go.sum: its first lines (up to five) are all `module version h1:hash` lines. */
export function looksGoSum(text: string): boolean {
  const lines = text
    .replace(/^\uFEFF/, '')
    .slice(0, 4_096)
    .split(/\r?\n/, 6)
    .slice(0, 5)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  return lines.length > 0 && lines.every((l) => l.length < 1_000 && SUM_LINE.test(l));
}
