/** A pasted NuGet packages.lock.json: a JSON object with a numeric "version" and per-framework "dependencies" whose entries have a "type". */
export function looksNugetLock(text: string): boolean {
  const head = text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 4_096);
  return (
    head.startsWith('{') &&
    /"version"\s*:\s*\d/.test(head) &&
    /"dependencies"\s*:\s*\{/.test(head) &&
    /"type"\s*:\s*"(?:Direct|Transitive|CentralTransitive|Project)"/.test(head)
  );
}
