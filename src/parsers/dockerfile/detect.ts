/**
 * Cheap sniffing for a pasted Dockerfile when no format is named: its first instruction,
 * after comments, blank lines and global ARGs, is FROM (Docker refuses anything else first).
 */
export function looksDockerfile(text: string): boolean {
  for (const raw of text
    .replace(/^\uFEFF/, '')
    .slice(0, 200_000)
    .split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (/^ARG\s/i.test(line)) continue;
    return /^FROM\s+\S/i.test(line);
  }
  return false;
}
