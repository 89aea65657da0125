/**
 * NuGet packages.lock.json (lock file versions 1 and 2): `dependencies` holds one section per
 * target framework (`net8.0`) and per framework and runtime (`net8.0/linux-x64`); each entry is a
 * package with its `type`, `resolved` version and `dependencies` (the graph's edges, by name).
 *
 * - `Direct`: the project references it (a root of the graph); `Transitive` and
 *   `CentralTransitive` (a transitive package pinned by central package management): reached
 *   through the graph. The file has no dev or optional.
 * - `Project`: another project of the solution (a ProjectReference): unresolved, and a root
 *   unless another project of its section depends on it (the file does not say which projects
 *   the project references itself); packages reached only through it carry `viaUnresolved`.
 * Each section is its own graph (a package can resolve to different versions per framework); an
 * edge in a runtime section leads to the runtime section's package, else to its framework's.
 * NuGet ids are case-insensitive, so the graph keys on the lower-cased id.
 */
import { normaliseComponent, type ComponentRef } from '../../domain/component.js';
import { ValidationError } from '../../domain/errors.js';
import { DependencyGraph } from '../dependency-graph.js';
import { checkJsonDepth } from '../json-depth.js';
import {
  addUnresolved,
  InputError,
  type ComponentReference,
  type ParseResult,
  type UnlistedEntries,
  type UnresolvedEntry,
} from '../reference.js';
import { isJsonObject } from '../../domain/json-object.js';

const VERSIONS = [1, 2];
const MAX_INPUT = 200;

interface Entry {
  /** The section and the lower-cased id: NuGet ids are case-insensitive. */
  key: string;
  name: string;
  section: string;
  version: string | undefined;
  ref: ComponentRef | undefined;
  dependencies: unknown;
}

const keyOf = (section: string, name: string) => `${section}\u0000${name.toLowerCase()}`;
const inputOf = (e: Entry) => (e.version ? `${e.name} ${e.version}` : e.name).slice(0, MAX_INPUT);
const locationOf = (e: Entry) => `dependencies["${e.section}"]["${e.name}"]`.slice(0, MAX_INPUT);

export function parseNugetLock(text: string): ParseResult {
  const source = text.replace(/^\uFEFF/, '');
  checkJsonDepth(source);
  let doc: unknown;
  try {
    doc = JSON.parse(source);
  } catch (e) {
    throw new InputError(
      `Expected a NuGet packages.lock.json, but it is not valid JSON: ${e instanceof Error ? e.message.slice(0, 120) : 'unreadable'}`,
    );
  }
  if (!isJsonObject(doc) || !isJsonObject(doc.dependencies))
    throw new InputError('Expected a NuGet packages.lock.json: a JSON object with "version" and "dependencies".');
  if (!VERSIONS.includes(doc.version as number))
    throw new InputError(
      `NuGet lock file version ${JSON.stringify(doc.version)?.slice(0, 20)} is not one Tended reads (it reads versions 1 and 2).`,
    );

  const out: { unresolved: UnresolvedEntry[]; unlisted?: UnlistedEntries } = { unresolved: [] };
  const graph = new DependencyGraph();
  // Per entry, in file order: no string or object is built for it that the answer does not keep.
  const entries: Entry[] = [];
  const keys = new Set<string>();
  const projectNamed = new Set<string>();
  const projects: string[] = [];
  const projectsListed = new Set<string>();

  for (const section in doc.dependencies) {
    const packages = doc.dependencies[section];
    if (!isJsonObject(packages)) continue;
    for (const name in packages) {
      const raw = packages[name];
      const pkg = isJsonObject(raw) ? raw : {};
      const key = keyOf(section, name);
      const version = typeof pkg.resolved === 'string' ? pkg.resolved : undefined;
      const entry: Entry = { key, name, section, version, ref: undefined, dependencies: pkg.dependencies };
      if (pkg.type === 'Project') {
        projects.push(key);
        if (isJsonObject(pkg.dependencies)) for (const d in pkg.dependencies) projectNamed.add(keyOf(section, d));
        // A project is listed once, however many frameworks it is in.
        if (!projectsListed.has(name.toLowerCase())) {
          projectsListed.add(name.toLowerCase());
          addUnresolved(out, {
            input: name.slice(0, MAX_INPUT),
            location: locationOf(entry),
            reason: 'a project of the same solution (a ProjectReference), not a nuget.org package',
          });
        }
      } else if (version === undefined) {
        addUnresolved(out, {
          input: inputOf(entry),
          location: locationOf(entry),
          reason: 'an entry with no "resolved" version',
        });
      } else {
        try {
          entry.ref = normaliseComponent('nuget', name);
        } catch (e) {
          if (!(e instanceof ValidationError)) throw e;
          addUnresolved(out, {
            input: inputOf(entry),
            location: locationOf(entry),
            reason: e.issues[0]?.msg ?? 'not a NuGet package id',
          });
        }
      }
      graph.addNode({ key, name, version, resolvable: entry.ref !== undefined });
      keys.add(key);
      if (pkg.type === 'Direct') graph.addDirect({ key });
      entries.push(entry);
    }
  }
  for (const e of entries) {
    if (!isJsonObject(e.dependencies)) continue;
    const slash = e.section.indexOf('/');
    const framework = slash < 0 ? null : e.section.slice(0, slash);
    for (const name in e.dependencies) {
      const own = keyOf(e.section, name);
      graph.addEdge(e.key, keys.has(own) || framework === null ? own : keyOf(framework, name));
    }
  }
  for (const key of projects) if (!projectNamed.has(key)) graph.addDirect({ key });

  const places = graph.places();
  const references: ComponentReference[] = [];
  for (const e of entries)
    if (e.ref)
      references.push({ ref: e.ref, input: inputOf(e), location: locationOf(e), tree: places.get(e.key) ?? {} });
  return { format: 'nuget-lock', references, ...out };
}
