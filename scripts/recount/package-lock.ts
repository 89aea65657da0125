/**
 * package-lock.json (npm's docs, "package-lock.json"): the distinct npm package names installed
 * from a registry. v2/v3: each `packages` key with `node_modules/` that is not a link, named by its
 * `name` field or the key's last `node_modules/` part, whose `resolved` is absent or a registry
 * tarball (`/-/`). v1: each nested `dependencies` entry whose version is a semver version (or an
 * `npm:` alias, counted under the real name). Workspace folders, links, git and file sources are left out.
 */
interface Entry {
  name?: string;
  version?: string;
  resolved?: string;
  link?: boolean;
  dependencies?: Record<string, Entry>;
}

export default function recount(text: string): number {
  const doc = JSON.parse(text) as {
    lockfileVersion: number;
    packages?: Record<string, Entry>;
    dependencies?: Record<string, Entry>;
  };
  const names = new Set<string>();
  if (doc.lockfileVersion >= 2) {
    for (const [key, entry] of Object.entries(doc.packages ?? {})) {
      if (!key.includes('node_modules/') || entry.link) continue;
      if (entry.resolved !== undefined && !String(entry.resolved).includes('/-/')) continue;
      names.add(entry.name ?? key.split('node_modules/').pop()!);
    }
    return names.size;
  }
  const walk = (deps: Record<string, Entry>) => {
    for (const [name, entry] of Object.entries(deps)) {
      const v = String(entry.version ?? '');
      if (v.startsWith('npm:')) names.add(v.slice(4, v.lastIndexOf('@')));
      else if (/^\d/.test(v)) names.add(name);
      if (entry.dependencies) walk(entry.dependencies);
    }
  };
  walk(doc.dependencies ?? {});
  return names.size;
}
