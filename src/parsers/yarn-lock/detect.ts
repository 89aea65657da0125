/**
 * A pasted yarn.lock when no file name says so: Yarn 1 writes "# yarn lockfile v1" in its
 * header comment; Yarn 2+ puts `__metadata:` before its entries. No other format Tended reads
 * begins so.
 */
export function looksYarnLock(text: string): boolean {
  const head = text.replace(/^\uFEFF/, '').slice(0, 2_000);
  return head.includes('# yarn lockfile v1') || /^__metadata:\s*$/m.test(head);
}
