/**
 * A pasted pnpm-lock.yaml when no file name says so: its first line that is not blank or a
 * comment is `lockfileVersion:` (pnpm writes it first), which no workflow or SBOM begins with.
 */
export function looksPnpmLock(text: string): boolean {
  const head = text.replace(/^\uFEFF/, '').slice(0, 2_000);
  for (const line of head.split('\n')) {
    const t = line.trim();
    if (t === '' || t.startsWith('#')) continue;
    return /^lockfileVersion:\s*['"]?\d/.test(t);
  }
  return false;
}
