/**
 * Cargo.lock: every `[[package]]` Cargo resolved, with its version and where it came from, and the
 * graph its `dependencies` lists draw. A crate from crates.io (the git or the sparse index) is a
 * cargo component; one from a git repository on GitHub names that repository; a package with no
 * `source` is local code (a workspace member or a path dependency), and what those depend on is
 * the project's direct set. Reads version 3 and 4 files and the older unversioned ones (v1, v2),
 * whose `dependencies` entries spell out `name version (source)` where v2 and later may say `name`.
 */
import { normaliseComponent, type ComponentRef } from '../../domain/component.js';
import { ValidationError } from '../../domain/errors.js';
import { DependencyGraph } from '../dependency-graph.js';
import { githubRepositoryPath } from '../github-url.js';
import {
  addUnresolved,
  InputError,
  type ComponentReference,
  type ParseResult,
  type UnresolvedEntry,
  type UnlistedEntries,
} from '../reference.js';
import { packageHeaderLines, packagesOf, readTomlLockfile, shownVersion, table, text } from '../toml-lockfile.js';

const CRATES_IO = new Set(['registry+https://github.com/rust-lang/crates.io-index', 'sparse+https://index.crates.io/']);
const READ_VERSIONS = new Set([3, 4]);

interface Entry {
  key: string;
  name: string;
  version: string;
  ref: ComponentRef | null;
  /** No `source`: a workspace member or a path dependency, whose dependencies are the direct set. */
  local: boolean;
  dependencies: unknown;
  index: number;
}

export function parseCargoLock(source: string): ParseResult {
  const doc = readTomlLockfile(source, 'Cargo.lock');
  const version = doc['version'];
  if (version !== undefined && !READ_VERSIONS.has(version as number))
    throw new InputError(
      `Cargo.lock version ${shownVersion(version)} is not one Tended reads (it reads versions 3 and 4, and the older files without a version line). Regenerate it with a current Cargo, or send the Cargo.toml.`,
    );
  const packages = packagesOf(doc, 'Cargo.lock');
  const headerLines = packageHeaderLines(source);
  const lineOf = (i: number) => (headerLines.length === packages.length ? headerLines[i] : undefined);
  const out: { references: ComponentReference[]; unresolved: UnresolvedEntry[]; unlisted?: UnlistedEntries } = {
    references: [],
    unresolved: [],
  };
  const graph = new DependencyGraph();
  const entries: Entry[] = [];
  // `name` alone names the only package of that name; `name version` the one of that version.
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
    const key = `${name} ${version}`;
    if (keys.has(key)) return; // The same crate twice: once is enough for the answer and the graph.
    keys.add(key);
    if (!byName.has(name)) byName.set(name, key);
    const from = text(p['source']);
    let ref: ComponentRef | null = null;
    let why: string | null = null;
    try {
      if (from === undefined) why = 'local code (a workspace member or a path dependency), not a crate from crates.io';
      else if (CRATES_IO.has(from)) ref = normaliseComponent('cargo', name);
      else if (from.startsWith('git+')) {
        // git+https://github.com/o/r?rev=…#commit: the repository is the part before ? and #.
        const repository = githubRepositoryPath(from.slice(4).split(/[?#]/, 1)[0]!);
        if (repository) ref = normaliseComponent('github', repository);
        else why = 'a crate from a git repository on a host other than GitHub';
      } else why = `from the registry "${from.slice(0, 80)}", not crates.io`;
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
      why = e.issues[0]?.msg ?? 'not a crate name';
    }
    const input = `${name}@${version}`.slice(0, 200);
    if (!ref) addUnresolved(out, { input, location, reason: why ?? 'not a crate' });
    graph.addNode({ key, name, version, resolvable: ref !== null });
    entries.push({ key, name, version, ref, local: from === undefined, dependencies: p['dependencies'], index });
  });
  for (const entry of entries) {
    if (!Array.isArray(entry.dependencies)) continue;
    // A crate named twice in one list is one edge: a list of the same name 400,000 times stays one.
    const named = new Set<string>();
    for (const dependency of entry.dependencies) {
      if (typeof dependency !== 'string') continue;
      // "name", "name version" or "name version (source)": the first two words say which package.
      const [name = '', version] = dependency.split(' ', 2);
      const key = version === undefined ? byName.get(name) : `${name} ${version}`;
      if (key === undefined || named.has(key)) continue;
      named.add(key);
      graph.addEdge(entry.key, key);
      if (entry.local) graph.addDirect({ key });
    }
  }
  const places = graph.places();
  for (const entry of entries) {
    if (!entry.ref) continue;
    const line = lineOf(entry.index);
    out.references.push({
      ref: entry.ref,
      input: `${entry.name}@${entry.version}`.slice(0, 200),
      location: `[[package]] ${entry.name} ${entry.version}`.slice(0, 200),
      ...(line !== undefined ? { line } : {}),
      tree: places.get(entry.key)!,
    });
  }
  return { format: 'cargo-lock', ...out };
}
