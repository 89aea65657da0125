/**
 * bun.lock (Bun's docs, "Lockfile"): the distinct names among `packages` entries whose first
 * item `name@spec` has a registry version for spec (starts with a digit) or an `npm:` alias
 * (counted under the real name). Workspaces, git, file, link and tarball sources are left out.
 * Trailing commas are dropped with a replace before JSON.parse.
 */
const split = (s: string) => {
  const at = s.indexOf('@', s.startsWith('@') ? 1 : 0);
  return [s.slice(0, at), s.slice(at + 1)] as const;
};

export default function recount(text: string): number {
  const doc = JSON.parse(text.replace(/,(\s*[}\]])/g, '$1')) as { packages: Record<string, unknown[]> };
  const names = new Set<string>();
  for (const value of Object.values(doc.packages)) {
    const [name, spec] = split(String(value[0]));
    if (/^\d/.test(spec)) names.add(name);
    else if (spec.startsWith('npm:')) names.add(split(spec.slice(4))[0]);
  }
  return names.size;
}
