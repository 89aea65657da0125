/**
 * pnpm-lock.yaml (pnpm's docs and the lockfile's own keys): the distinct package names among the
 * keys of `packages` (`/name@1.0.0(peers)` in 6.x, `name@1.0.0` in 9.0), named by a `name` field
 * where there is one, whose `resolution` is an integrity (the registry) or a registry tarball
 * (`/-/`). Projects of the workspace (`importers`, `link:`), git, directory and other tarball
 * sources are left out. Read with the `yaml` package.
 */
import { parse } from 'yaml';

interface Entry {
  name?: string;
  resolution?: { type?: string; directory?: string; tarball?: string };
}

export default function recount(text: string): number {
  const doc = parse(text, { uniqueKeys: false }) as { packages?: Record<string, Entry | null> };
  const names = new Set<string>();
  for (const [key, entry] of Object.entries(doc.packages ?? {})) {
    const res = entry?.resolution ?? {};
    if (res.type === 'git' || res.directory !== undefined) continue;
    if (res.tarball !== undefined && !String(res.tarball).includes('/-/')) continue;
    const bare = key.replace(/^\//, '').split('(')[0]!;
    const at = bare.indexOf('@', 1);
    names.add(entry?.name ?? (at > 0 ? bare.slice(0, at) : bare));
  }
  return names.size;
}
