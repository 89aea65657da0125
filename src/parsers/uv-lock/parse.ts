/**
 * uv.lock (`version = 1`): every `[[package]]` uv resolved, its `source` and the graph drawn by
 * `dependencies`, `[package.optional-dependencies]` (extras) and `[package.dev-dependencies]`
 * (dependency groups). The project and its workspace members are the packages whose source is
 * `editable` or `virtual`: what they depend on is the direct set, their extras optional and their
 * groups dev. A package from PyPI is a pypi component; from a git repository on GitHub, that
 * repository; from a path, a directory, a URL or another index, not PyPI (said in unresolved).
 *
 * An extra is followed where some dependency asks for it (`{ name = "x", extra = ["y"] }`): the
 * extra's packages then sit under x on the asker's path (its `via` names x).
 */
import { normaliseComponent, pep503, type ComponentRef } from '../../domain/component.js';
import { ValidationError } from '../../domain/errors.js';
import { DependencyGraph } from '../dependency-graph.js';
import { githubRepositoryPath } from '../github-url.js';
import {
  addUnresolved,
  InputError,
  type ComponentReference,
  type ParseResult,
  type UnlistedEntries,
  type UnresolvedEntry,
} from '../reference.js';
import {
  packageHeaderLines,
  packagesOf,
  readTomlLockfile,
  shownVersion,
  table,
  text,
  type Table,
} from '../toml-lockfile.js';

const PYPI = /^https:\/\/(?:pypi\.org|pypi\.python\.org)\/simple\/?$/;

interface Entry {
  key: string;
  name: string;
  version: string | undefined;
  ref: ComponentRef | null;
  root: boolean;
  p: Table;
  index: number;
}

export function parseUvLock(source: string): ParseResult {
  const doc = readTomlLockfile(source, 'uv.lock');
  if (doc['version'] !== 1)
    throw new InputError(
      `uv.lock version ${shownVersion(doc['version'])} is not one Tended reads (it reads version 1). Regenerate it with a current uv (uv lock).`,
    );
  const packages = packagesOf(doc, 'uv.lock');
  const headerLines = packageHeaderLines(source);
  const out: { references: ComponentReference[]; unresolved: UnresolvedEntry[]; unlisted?: UnlistedEntries } = {
    references: [],
    unresolved: [],
  };
  const graph = new DependencyGraph();
  const entries: Entry[] = [];
  // `{ name }` names the first package of that name; `{ name, version }` the one of that version.
  const byName = new Map<string, Entry>();
  const byKey = new Map<string, Entry>();
  packages.forEach((raw, index) => {
    const p = table(raw);
    const name = text(p?.['name']);
    const version = text(p?.['version']);
    const location = `[[package]] ${name ?? '(no name)'} ${version ?? ''}`.trim().slice(0, 200);
    if (!p || name === undefined) {
      addUnresolved(out, { input: location, location, reason: 'a [[package]] without a name' });
      return;
    }
    const normalised = pep503(name);
    const key = `${normalised} ${version ?? ''}`;
    if (byKey.has(key)) return; // The same package from two sources: the first answers for both.
    const from = table(p['source']);
    const root = from !== null && ('editable' in from || 'virtual' in from);
    let ref: ComponentRef | null = null;
    let why: string | null = null;
    try {
      const registry = text(from?.['registry']);
      const git = text(from?.['git']);
      if (root) why = 'the project itself or a workspace member: local code, not a package from PyPI';
      else if (registry !== undefined) {
        if (PYPI.test(registry)) ref = normaliseComponent('pypi', name);
        else why = `from the package index "${registry.slice(0, 80)}", not PyPI`;
      } else if (git !== undefined) {
        const repository = githubRepositoryPath(git.split(/[?#]/, 1)[0]!);
        if (repository) ref = normaliseComponent('github', repository);
        else why = 'a package from a git repository on a host other than GitHub';
      } else if (from && ('path' in from || 'directory' in from)) why = 'local code (a path), not a package from PyPI';
      else if (from && 'url' in from) why = 'a package downloaded from a URL, not from PyPI';
      else why = 'a package with no source uv names';
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
      why = e.issues[0]?.msg ?? 'not a PyPI project name';
    }
    const input = (version === undefined ? name : `${name}@${version}`).slice(0, 200);
    if (!ref) addUnresolved(out, { input, location, reason: why ?? 'not a PyPI project' });
    graph.addNode({ key, name: normalised, ...(version !== undefined ? { version } : {}), resolvable: ref !== null });
    const entry: Entry = { key, name, version, ref, root, p, index };
    entries.push(entry);
    byKey.set(key, entry);
    if (!byName.has(normalised)) byName.set(normalised, entry);
  });

  const target = (dependency: unknown): { entry: Entry; extras: unknown } | null => {
    const d = table(dependency);
    const name = text(d?.['name']);
    if (!d || name === undefined) return null;
    const version = text(d['version']);
    const entry = version === undefined ? byName.get(pep503(name)) : byKey.get(`${pep503(name)} ${version}`);
    return entry ? { entry, extras: d['extra'] } : null;
  };
  // An extra some dependency asks for is a node of its own, named as its package, so its packages
  // are reached only through those who ask for it: a dev group's extra does not make them runtime.
  const extras: { entry: Entry; extra: string; key: string }[] = [];
  const extraKeys = new Set<string>();
  const depend = (from: string, list: unknown, direct?: { dev?: boolean; optional?: boolean }) => {
    if (!Array.isArray(list)) return;
    // A package or an extra listed twice in one list (for two markers, or hostile repetition) is one edge.
    const named = new Set<string>();
    for (const dependency of list) {
      const to = target(dependency);
      if (!to) continue;
      const keys = [to.entry.key];
      if (Array.isArray(to.extras))
        for (const extra of to.extras) {
          if (typeof extra !== 'string') continue;
          const key = `${to.entry.key}\0${extra}`;
          keys.push(key);
          if (extraKeys.has(key)) continue;
          extraKeys.add(key);
          extras.push({ entry: to.entry, extra, key });
          graph.addNode({ key, name: pep503(to.entry.name), resolvable: to.entry.ref !== null });
        }
      for (const key of keys) {
        if (named.has(key)) continue;
        named.add(key);
        // A member's groups and extras are not what it pulls in when another member depends on it.
        if (!direct?.dev && !direct?.optional) graph.addEdge(from, key);
        if (direct) graph.addDirect({ key, dev: direct.dev ?? false, optional: direct.optional ?? false });
      }
    }
  };
  for (const entry of entries) {
    depend(entry.key, entry.p['dependencies'], entry.root ? {} : undefined);
    if (!entry.root) continue;
    for (const list of Object.values(table(entry.p['optional-dependencies']) ?? {}))
      depend(entry.key, list, { optional: true });
    for (const list of Object.values(table(entry.p['dev-dependencies']) ?? {})) depend(entry.key, list, { dev: true });
  }
  // `extras` grows while it is walked: an extra's packages may ask for extras of their own.
  for (let i = 0; i < extras.length; i += 1) {
    const { entry, extra, key } = extras[i]!;
    depend(key, table(entry.p['optional-dependencies'])?.[extra]);
  }

  const places = graph.places();
  for (const entry of entries) {
    if (!entry.ref) continue;
    const line = headerLines.length === packages.length ? headerLines[entry.index] : undefined;
    out.references.push({
      ref: entry.ref,
      input: (entry.version === undefined ? entry.name : `${entry.name}@${entry.version}`).slice(0, 200),
      location: `[[package]] ${entry.name} ${entry.version ?? ''}`.trim().slice(0, 200),
      ...(line !== undefined ? { line } : {}),
      tree: places.get(entry.key)!,
    });
  }
  return { format: 'uv-lock', ...out };
}
