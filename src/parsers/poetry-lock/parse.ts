/**
 * poetry.lock: every `[[package]]` Poetry resolved, with its version, whether it is optional (only
 * installed for an extra) and whether it is for development: Poetry 1.x says so with `category`
 * ("main" or "dev"), Poetry 2 with `groups` (dev when "main" is not among them). Reads lock-version
 * 1.1, 2.0 and 2.1. `[package.dependencies]` draws the graph (names PEP 503-normalised), but a
 * poetry.lock does not say which packages the project itself asks for (pyproject.toml does), so
 * alone it gives no scope and no path: `direct`, when a caller knows the project's names, does.
 * A `[package.source]` of type git, directory, file, url or legacy (another index) is not PyPI.
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
import { packageHeaderLines, packagesOf, readTomlLockfile, table, text, type Table } from '../toml-lockfile.js';

const READ_LOCK_VERSIONS = ['1.1', '2.0', '2.1'];

interface Entry {
  key: string;
  name: string;
  version: string;
  ref: ComponentRef | null;
  dependencies: Table | null;
  index: number;
}

export interface PoetryLockOptions {
  /** The names the project asks for (from its pyproject.toml), when known: they make scope and paths. */
  direct?: { name: string; dev?: boolean }[];
}

export function parsePoetryLock(source: string, options: PoetryLockOptions = {}): ParseResult {
  const doc = readTomlLockfile(source, 'poetry.lock');
  const lockVersion = text(table(doc['metadata'])?.['lock-version']);
  if (lockVersion === undefined)
    throw new InputError(
      'Expected a poetry.lock, but it has no [metadata] lock-version. Send the poetry.lock Poetry 1.1 or later wrote.',
    );
  if (!READ_LOCK_VERSIONS.includes(lockVersion))
    throw new InputError(
      `poetry.lock lock-version ${lockVersion.slice(0, 20)} is not one Tended reads (it reads ${READ_LOCK_VERSIONS.join(', ')}). Regenerate it with a current Poetry (poetry lock).`,
    );
  const packages = packagesOf(doc, 'poetry.lock');
  const headerLines = packageHeaderLines(source);
  const out: { references: ComponentReference[]; unresolved: UnresolvedEntry[]; unlisted?: UnlistedEntries } = {
    references: [],
    unresolved: [],
  };
  const graph = new DependencyGraph();
  const entries: Entry[] = [];
  // A name may be locked twice (one version per Python marker): a dependency on it goes to the first.
  const byName = new Map<string, string>();
  const keys = new Set<string>();
  packages.forEach((raw, index) => {
    const p = table(raw);
    const name = text(p?.['name']);
    const version = text(p?.['version']);
    const location = `[[package]] ${name ?? '(no name)'} ${version ?? ''}`.trim().slice(0, 200);
    if (!p || name === undefined || version === undefined) {
      addUnresolved(out, { input: location, location, reason: 'a [[package]] without a name and a version' });
      return;
    }
    const normalised = pep503(name);
    const key = `${normalised} ${version}`;
    if (keys.has(key)) return; // The same package twice: once is enough.
    keys.add(key);
    if (!byName.has(normalised)) byName.set(normalised, key);
    const input = `${name}@${version}`.slice(0, 200);
    let ref: ComponentRef | null = null;
    let why = whyNotPypi(table(p['source']));
    try {
      const github = why === null ? null : githubSource(table(p['source']));
      if (github) {
        ref = normaliseComponent('github', github);
        why = null;
      } else if (why === null) ref = normaliseComponent('pypi', name);
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
      why = e.issues[0]?.msg ?? 'not a PyPI project name';
    }
    if (!ref) addUnresolved(out, { input, location, reason: why ?? 'not a PyPI project' });
    const dev = devOf(p);
    graph.addNode({
      key,
      name: normalised,
      version,
      resolvable: ref !== null,
      ...(dev !== undefined ? { dev } : {}),
      ...(p['optional'] === true ? { optional: true } : {}),
    });
    entries.push({ key, name, version, ref, dependencies: table(p['dependencies']), index });
  });
  for (const entry of entries)
    for (const name of Object.keys(entry.dependencies ?? {})) {
      const to = byName.get(pep503(name));
      if (to !== undefined) graph.addEdge(entry.key, to);
    }
  for (const d of options.direct ?? []) {
    const key = byName.get(pep503(d.name));
    if (key !== undefined) graph.addDirect({ key, dev: d.dev ?? false });
  }
  const places = graph.places();
  for (const entry of entries) {
    if (!entry.ref) continue;
    const line = headerLines.length === packages.length ? headerLines[entry.index] : undefined;
    out.references.push({
      ref: entry.ref,
      input: `${entry.name}@${entry.version}`.slice(0, 200),
      location: `[[package]] ${entry.name} ${entry.version}`.slice(0, 200),
      ...(line !== undefined ? { line } : {}),
      tree: places.get(entry.key)!,
    });
  }
  return { format: 'poetry-lock', ...out };
}

/** Poetry 1.x: `category = "dev"`; Poetry 2: `groups` without "main". Undefined when the entry says neither. */
function devOf(p: Table): boolean | undefined {
  const category = text(p['category']);
  if (category !== undefined) return category === 'dev';
  const groups = p['groups'];
  if (Array.isArray(groups)) return !groups.includes('main');
  return undefined;
}

/** Null for a package from PyPI (no source, or `type = "pypi"`); else why it is not one. */
function whyNotPypi(source: Table | null): string | null {
  const type = text(source?.['type']);
  const url = (text(source?.['url']) ?? '').slice(0, 80);
  if (!source || type === undefined || type === 'pypi') return null;
  if (type === 'git') return 'a package from a git repository on a host other than GitHub';
  if (type === 'directory' || type === 'file') return `local code (the ${type} "${url}"), not a package from PyPI`;
  if (type === 'url') return `a package downloaded from "${url}", not from PyPI`;
  if (type === 'legacy') return `from the package index "${url}", not PyPI`;
  return `from a source of type "${type.slice(0, 40)}", not PyPI`;
}

/** owner/repo for a git source on GitHub. */
function githubSource(source: Table | null): string | null {
  if (text(source?.['type']) !== 'git') return null;
  return githubRepositoryPath(text(source?.['url']) ?? '');
}
