/**
 * poetry.lock: distinct PEP 503-normalised names of the `[[package]]` entries that come from PyPI
 * (no `[package.source]`), plus distinct GitHub repositories of git sources. Directory, file, url,
 * legacy-index and other git sources are left out.
 */
import { parse } from 'smol-toml';

type Source = { type?: string; url?: string };

export default function recount(text: string): number {
  const doc = parse(text) as { package?: { name: string; source?: Source }[] };
  const counted = new Set<string>();
  for (const p of doc.package ?? []) {
    if (!p.source) counted.add(`pypi:${p.name.toLowerCase().replace(/[-_.]+/g, '-')}`);
    const github =
      p.source?.type === 'git' ? /github\.com[/:]([^/]+)\/(.+?)(?:\.git)?\/?$/.exec(p.source.url ?? '') : null;
    if (github) counted.add(`github:${github[1]!.toLowerCase()}/${github[2]!.toLowerCase()}`);
  }
  return counted.size;
}
