/**
 * A manifest and its lockfile in one directory answer once (`tended check DIR`): the lockfile's
 * resolved tree, with the manifest's entries as the places of the direct dependencies, which is
 * where a person changes them. A lockfile that does not say which packages are direct (yarn
 * classic, poetry.lock, composer.lock, go.sum) learns it from its manifest.
 */
import type { CheckAnswer, ComponentCheck } from '../operations/check-components.js';
import type { ComponentReference, ParseResult, UnresolvedEntry } from '../parsers/reference.js';

/**
 * Each manifest's lockfiles, by file name (lower case), the first present winning: npm's before
 * the others, as npm itself prefers npm-shrinkwrap.json. Names the parsers do not read yet are
 * listed all the same; a name the walk does not find is never paired.
 */
export const LOCKFILES_OF: readonly { manifest: (name: string) => boolean; lockfiles: readonly string[] }[] = [
  {
    manifest: (n) => n === 'package.json',
    lockfiles: ['npm-shrinkwrap.json', 'package-lock.json', 'pnpm-lock.yaml', 'yarn.lock', 'bun.lock'],
  },
  { manifest: (n) => n === 'pyproject.toml', lockfiles: ['uv.lock', 'poetry.lock'] },
  { manifest: (n) => n === 'pipfile', lockfiles: ['pipfile.lock'] },
  { manifest: (n) => n === 'cargo.toml', lockfiles: ['cargo.lock'] },
  { manifest: (n) => n === 'gemfile', lockfiles: ['gemfile.lock'] },
  { manifest: (n) => n === 'composer.json', lockfiles: ['composer.lock'] },
  { manifest: (n) => n === 'go.mod', lockfiles: ['go.sum'] },
  { manifest: (n) => /\.(?:cs|fs|vb)proj$/.test(n), lockfiles: ['packages.lock.json'] },
];

/** The lockfile (a name among `names`, as found) that pairs with the manifest `name`, if any. */
export function lockfileOf(name: string, names: readonly string[]): string | null {
  const row = LOCKFILES_OF.find((r) => r.manifest(name.toLowerCase()));
  if (!row) return null;
  for (const lockfile of row.lockfiles) {
    const found = names.find((n) => n.toLowerCase() === lockfile);
    if (found !== undefined) return found;
  }
  return null;
}

/**
 * A directory's file names paired: each manifest with its lockfile, when the directory holds one.
 * A directory of several project files (two .csproj) pairs only the first with packages.lock.json.
 */
export function pairsIn(names: readonly string[]): Map<string, string> {
  const pairs = new Map<string, string>();
  const taken = new Set<string>();
  for (const name of [...names].sort()) {
    const lockfile = lockfileOf(name, names);
    if (lockfile === null || taken.has(lockfile)) continue;
    taken.add(lockfile);
    pairs.set(name, lockfile);
  }
  return pairs;
}

const keyOf = (r: ComponentReference) => `${r.ref.kind}:${r.ref.id}`;

/** The manifest's direct dependencies by `kind:id`, with whether every entry naming one is for development. */
function directOf(manifest: ParseResult): Map<string, { dev: boolean }> {
  const direct = new Map<string, { dev: boolean }>();
  for (const r of manifest.references) {
    const dev = r.tree?.dev === true;
    const seen = direct.get(keyOf(r));
    direct.set(keyOf(r), { dev: seen ? seen.dev && dev : dev });
  }
  return direct;
}

/**
 * The pair as one ParseResult: the lockfile's references, each marked direct (via []) when the
 * manifest names it and the lockfile did not say, and transitive when the manifest does not name
 * it and the lockfile did not say (the manifest is the list of what the project names; the path
 * stays unknown); then the manifest's own references, their locations prefixed with its name, so
 * each direct dependency's places include the manifest's line; and the unresolved entries of both.
 * A lockfile that gives a scope keeps it: it read the same manifest when it was written.
 */
export function mergeManifestLockfile(manifest: ParseResult, lockfile: ParseResult, manifestName: string): ParseResult {
  const direct = directOf(manifest);
  const references: ComponentReference[] = lockfile.references.map((r) => {
    if (r.tree?.scope !== undefined) return r;
    const named = direct.get(keyOf(r));
    const tree = named
      ? {
          ...r.tree,
          scope: 'direct' as const,
          via: [],
          ...(r.tree?.dev === undefined && named.dev ? { dev: true } : {}),
        }
      : { ...r.tree, scope: 'transitive' as const };
    return { ...r, tree };
  });
  for (const r of manifest.references) references.push({ ...r, location: `${manifestName}: ${r.location}` });
  const unresolved: UnresolvedEntry[] = [
    ...lockfile.unresolved,
    ...manifest.unresolved.map((u) => ({ ...u, location: `${manifestName}: ${u.location}` })),
  ];
  return { ...lockfile, references, unresolved };
}

/** The same rule on a service's answer to the lockfile alone (`--url`: the service read one file). */
export function markDirectInAnswer(answer: CheckAnswer, manifest: ParseResult): CheckAnswer {
  const direct = directOf(manifest);
  const results = answer.results.map((r): ComponentCheck => {
    if (r.scope !== undefined) return r;
    const named = direct.get(`${r.kind}:${r.input.name}`);
    if (!named) return { ...r, scope: 'transitive' };
    return { ...r, scope: 'direct', via: [], ...(r.dev === undefined && named.dev ? { dev: true as const } : {}) };
  });
  return { ...answer, results };
}

/** The lines naming each direct dependency in the manifest, by `kind:id`. */
export function manifestLines(manifest: ParseResult): Map<string, number[]> {
  const lines = new Map<string, number[]>();
  for (const r of manifest.references) {
    if (r.line === undefined) continue;
    const list = lines.get(keyOf(r)) ?? [];
    list.push(r.line);
    lines.set(keyOf(r), list);
  }
  for (const list of lines.values()) list.sort((a, b) => a - b);
  return lines;
}
