/**
 * yarn.lock (Yarn's docs and the lockfile's own form): the distinct components its entries
 * resolve. Yarn 1: each unindented entry, named by its first descriptor (the real name after an
 * `npm:` alias), counted when its `resolved` line is a registry tarball (`/-/`), or as
 * `github:owner/repo` when it comes from GitHub (codeload or a github.com git URL). Yarn 2+ (read
 * with the `yaml` package): each entry whose `resolution` is `name@npm:…` (or a patch of one).
 * Workspaces, local paths and other sources are left out.
 */
import { parse } from 'yaml';

const nameOf = (d: string) => d.slice(0, d.indexOf('@', d.startsWith('@') ? 1 : 0));

export default function recount(text: string): number {
  const names = new Set<string>();
  if (text.includes('\n__metadata:') || text.startsWith('__metadata:')) {
    for (const [key, entry] of Object.entries(
      parse(text, { uniqueKeys: false }) as Record<string, { resolution?: string }>,
    )) {
      if (key === '__metadata') continue;
      const res = String(entry.resolution ?? '');
      const name = nameOf(res);
      const spec = res.slice(name.length + 1);
      if (spec.startsWith('npm:') || (spec.startsWith('patch:') && spec.includes('@npm%3A'))) names.add(`npm:${name}`);
    }
    return names.size;
  }
  let name = '';
  for (const line of text.split('\n')) {
    if (line !== '' && line[0] !== ' ' && line[0] !== '#') {
      const first = line.split(',')[0]!.replace(/:$/, '').replaceAll('"', '');
      const range = first.slice(nameOf(first).length + 1);
      name = range.startsWith('npm:') ? nameOf(range.slice(4)) : nameOf(first);
    } else if (line.startsWith('  resolved ')) {
      const url = line.slice('  resolved '.length).replaceAll('"', '');
      const gh = /github\.com[/:]([^/]+)\/([^/#]+)/.exec(url);
      if (gh) names.add(`github:${gh[1]}/${gh[2]!.replace(/\.git$/, '')}`.toLowerCase());
      else if (url.includes('/-/')) names.add(`npm:${name}`);
    }
  }
  return names.size;
}
