/**
 * uv.lock: distinct PEP 503-normalised names of the `[[package]]` entries whose source is the
 * PyPI registry (`source = { registry = "https://pypi.org/simple" }`), plus distinct GitHub
 * repositories of git sources. The project and workspace members (editable, virtual), paths,
 * directories, URLs and other indexes are left out.
 */
import { parse } from 'smol-toml';

type Source = { registry?: string; git?: string };

export default function recount(text: string): number {
  const doc = parse(text) as { package?: { name: string; source?: Source }[] };
  const counted = new Set<string>();
  for (const p of doc.package ?? []) {
    const registry = p.source?.registry?.replace(/\/$/, '');
    if (registry === 'https://pypi.org/simple') counted.add(`pypi:${p.name.toLowerCase().replace(/[-_.]+/g, '-')}`);
    const github = /^https:\/\/github\.com\/([^/]+)\/([^/?#]+?)(?:\.git)?(?:[?#]|$)/.exec(p.source?.git ?? '');
    if (github) counted.add(`github:${github[1]!.toLowerCase()}/${github[2]!.toLowerCase()}`);
  }
  return counted.size;
}
