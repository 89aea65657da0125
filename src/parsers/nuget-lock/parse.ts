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
import { normaliseComponent } from '../../domain/component.js';
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

const VERSIONS = [1, 2];
const MAX_INPUT = 200;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Entry {
  key: string;
  name: string;
  section: string;
  version?: string;
  ref?: ComponentReference['ref'];
}

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
  if (!isObject(doc) || !isObject(doc.dependencies))
    throw new InputError('Expected a NuGet packages.lock.json: a JSON object with "version" and "dependencies".');
  if (!VERSIONS.includes(doc.version as number))
    throw new InputError(
      `NuGet lock file version ${JSON.stringify(doc.version)?.slice(0, 20)} is not one Tended reads (it reads versions 1 and 2).`,
    );

  const out: { unresolved: UnresolvedEntry[]; unlisted?: UnlistedEntries } = { unresolved: [] };
  const graph = new DependencyGraph();
  const entries: Entry[] = [];
  const keys = new Set<string>();
  const edges: [string, string, string[]][] = [];
  const projectNamed = new Set<string>();
  const projects: { key: string; section: string }[] = [];
  const unresolvedSeen = new Set<string>();
  const keyOf = (section: string, name: string) => `${section}\u0000${name.toLowerCase()}`;

  for (const [section, packages] of Object.entries(doc.dependencies)) {
    if (!isObject(packages)) continue;
    for (const [name, raw] of Object.entries(packages)) {
      const pkg = isObject(raw) ? raw : {};
      const key = keyOf(section, name);
      const location = `dependencies["${section}"]["${name}"]`.slice(0, MAX_INPUT);
      const version = typeof pkg.resolved === 'string' ? pkg.resolved : undefined;
      const input = `${name}${version ? ` ${version}` : ''}`.slice(0, MAX_INPUT);
      const dependsOn = isObject(pkg.dependencies) ? Object.keys(pkg.dependencies) : [];
      let ref: ComponentReference['ref'] | undefined;
      if (pkg.type === 'Project') {
        projects.push({ key, section });
        for (const d of dependsOn) projectNamed.add(keyOf(section, d));
        if (!unresolvedSeen.has(name.toLowerCase())) {
          unresolvedSeen.add(name.toLowerCase());
          addUnresolved(out, {
            input: name.slice(0, MAX_INPUT),
            location,
            reason: 'a project of the same solution (a ProjectReference), not a nuget.org package',
          });
        }
      } else if (version === undefined) {
        addUnresolved(out, { input, location, reason: 'an entry with no "resolved" version' });
      } else {
        try {
          ref = normaliseComponent('nuget', name);
        } catch (e) {
          if (!(e instanceof ValidationError)) throw e;
          addUnresolved(out, { input, location, reason: e.issues[0]?.msg ?? 'not a NuGet package id' });
        }
      }
      graph.addNode({ key, name, ...(version ? { version } : {}), resolvable: ref !== undefined });
      keys.add(key);
      if (pkg.type === 'Direct') graph.addDirect({ key });
      entries.push({ key, name, section, ...(version ? { version } : {}), ...(ref ? { ref } : {}) });
      edges.push([key, section, dependsOn]);
    }
  }
  for (const [from, section, names] of edges) {
    const slash = section.indexOf('/');
    const framework = slash < 0 ? null : section.slice(0, slash);
    for (const name of names) {
      const own = keyOf(section, name);
      graph.addEdge(from, keys.has(own) || framework === null ? own : keyOf(framework, name));
    }
  }
  for (const p of projects) if (!projectNamed.has(p.key)) graph.addDirect({ key: p.key });

  const places = graph.places();
  const references: ComponentReference[] = [];
  for (const e of entries) {
    if (!e.ref) continue;
    references.push({
      ref: e.ref,
      input: `${e.name} ${e.version}`.slice(0, MAX_INPUT),
      location: `dependencies["${e.section}"]["${e.name}"]`.slice(0, MAX_INPUT),
      tree: places.get(e.key) ?? {},
    });
  }
  return { format: 'nuget-lock', references, ...out };
}
