/**
 * Cargo.lock: distinct crate names (lower-cased) of the `[[package]]` entries whose `source` is
 * crates.io (its git index or its sparse index), plus distinct GitHub repositories of `git+`
 * sources. Entries without a source (workspace members, path dependencies) and other registries
 * and git hosts are left out.
 */
import { parse } from 'smol-toml';

export default function recount(text: string): number {
  const doc = parse(text) as { package?: { name: string; source?: string }[] };
  const names = new Set<string>();
  for (const p of doc.package ?? []) {
    const source = p.source ?? '';
    if (
      source === 'registry+https://github.com/rust-lang/crates.io-index' ||
      source === 'sparse+https://index.crates.io/'
    )
      names.add(`cargo:${p.name.toLowerCase()}`);
    const github = /^git\+https:\/\/github\.com\/([^/?#]+)\/([^/?#]+?)(?:\.git)?(?:[?#]|$)/.exec(source);
    if (github) names.add(`github:${github[1]!.toLowerCase()}/${github[2]!.toLowerCase()}`);
  }
  return names.size;
}
