/**
 * pnpm-lock.yaml, lockfileVersion 5.x (pnpm 6–7), 6.x (pnpm 8) and 9.0 (pnpm 9–10; '7.0' was its
 * pre-release name). `importers` give each project of the workspace (`.` is the root) and its
 * direct dependencies; a file of one project puts the same sections at the top. `packages` (and,
 * from 9.0, `snapshots`, which hold the dependencies) give every resolved package under a key
 * naming it with its version and peers:
 * - 5.x: `/name/1.0.0_peer@2.0.0`; 6.x: `/name@1.0.0(peer@2.0.0)`; 9.0: `name@1.0.0(peer@2.0.0)`.
 * A dependency `name: version` names the key `name@version` (with the version's form of each
 * lockfile); an alias's version is itself a key (`real@1.0.0`, `/real@1.0.0`); `link:` is a project
 * of the workspace. 5.x and 6.x mark each package `dev`/`optional`; 9.0 leaves it to the graph.
 */
import { DependencyGraph } from '../dependency-graph.js';
import { InputError, addUnresolved } from '../reference.js';
import type { ComponentReference, ParseResult, UnlistedEntries, UnresolvedEntry } from '../reference.js';
import { flowValue, readPnpmLock } from './read.js';
import { LOCAL_REASON, WORKSPACE_REASON, gitSource, npmPackage, sourceOfResolved } from '../npm-source.js';
import type { NpmSource } from '../npm-source.js';
import { isJsonObject } from '../../domain/json-object.js';

type Lockfile = 5 | 6 | 9;

const SECTIONS = [
  ['dependencies', {}],
  ['devDependencies', { dev: true }],
  ['optionalDependencies', { optional: true }],
] as const;

export function parsePnpmLock(text: string): ParseResult {
  const doc = readPnpmLock(text.replace(/^\uFEFF/, ''));
  if (!isJsonObject(doc)) throw new InputError('not a pnpm-lock.yaml: the document is not a YAML mapping');
  const lockfile = lockfileOf(doc.lockfileVersion);
  const packages = isJsonObject(doc.packages) ? doc.packages : {};
  // 9.0 keeps what a package needs in `snapshots`, one per set of peers; `packages` says where it came from.
  const snapshots = lockfile === 9 && isJsonObject(doc.snapshots) ? doc.snapshots : packages;
  const graph = new DependencyGraph();
  const sources = new Map<string, { name: string; version: string | undefined; source: NpmSource }>();
  for (const [key, value] of Object.entries(snapshots)) {
    const entry = isJsonObject(value) ? value : {};
    const named = nameOf(key, lockfile);
    const meta = lockfile === 9 ? packages[baseOf(key)] : entry;
    const info = isJsonObject(meta) ? meta : {};
    const name = typeof info.name === 'string' ? info.name : named.name;
    const version = typeof info.version === 'string' ? info.version : named.version;
    const source = sourceOf(name, version, flowValue(info.resolution));
    sources.set(key, { name, version, source });
    graph.addNode({
      key,
      name,
      ...(version !== undefined ? { version } : {}),
      ...(typeof entry.dev === 'boolean' ? { dev: entry.dev } : {}),
      ...(entry.optional === true ? { optional: true } : {}),
      resolvable: 'ref' in source,
    });
  }
  for (const [key, value] of Object.entries(snapshots)) {
    if (!isJsonObject(value)) continue;
    for (const section of [value.dependencies, value.optionalDependencies])
      if (isJsonObject(section))
        for (const [name, version] of Object.entries(section)) {
          const to = keyOf(name, version, lockfile, sources);
          if (to !== undefined) graph.addEdge(key, to);
        }
  }
  const out: { references: ComponentReference[]; unresolved: UnresolvedEntry[]; unlisted?: UnlistedEntries } = {
    references: [],
    unresolved: [],
  };
  const importers = isJsonObject(doc.importers) ? doc.importers : { '.': doc };
  for (const [path, value] of Object.entries(importers)) {
    if (!isJsonObject(value)) continue;
    addUnresolved(out, {
      input: path,
      location: `importers[${JSON.stringify(path)}]`,
      reason:
        path === '.' ? 'the project itself, not a dependency.' : `a project of this workspace: ${WORKSPACE_REASON}`,
    });
    const specifiers = isJsonObject(value.specifiers) ? value.specifiers : {};
    for (const [section, flags] of SECTIONS) {
      const deps = value[section];
      if (!isJsonObject(deps)) continue;
      for (const [name, dep] of Object.entries(deps)) {
        // 5.x writes `name: version` with the specifier apart; 6.x and 9.0 `name: {specifier, version}`.
        const version = isJsonObject(dep) ? dep.version : dep;
        const key = keyOf(name, version, lockfile, sources);
        if (key !== undefined) {
          graph.addDirect({ key, dev: 'dev' in flags, optional: 'optional' in flags });
          continue;
        }
        const spec = isJsonObject(dep) ? dep.specifier : specifiers[name];
        const written = typeof spec === 'string' ? spec : typeof version === 'string' ? version : '';
        const linked = typeof version === 'string' && version.startsWith('link:');
        addUnresolved(out, {
          input: `${name}: ${written}`.slice(0, 200),
          location: `importers[${JSON.stringify(path)}].${section}.${name}`,
          reason: linked
            ? written.startsWith('workspace:')
              ? WORKSPACE_REASON
              : LOCAL_REASON
            : 'the lockfile lists no package for this dependency.',
        });
      }
    }
  }
  const places = graph.places();
  for (const [key, { name, version, source }] of sources) {
    const input = version !== undefined ? `${name}@${version}` : key;
    const location = `${lockfile === 9 ? 'snapshots' : 'packages'}[${JSON.stringify(key)}]`;
    if ('ref' in source) out.references.push({ ref: source.ref, input, location, tree: places.get(key)! });
    else addUnresolved(out, { input, location, reason: source.reason });
  }
  return {
    format: 'pnpm-lock',
    variant: `pnpm lockfile ${String(doc.lockfileVersion)}`,
    references: out.references,
    unresolved: out.unresolved,
    ...(out.unlisted ? { unlisted: out.unlisted } : {}),
  };
}

function lockfileOf(version: unknown): Lockfile {
  const major = typeof version === 'number' || typeof version === 'string' ? Math.floor(Number(version)) : NaN;
  if (major === 5 || major === 6) return major;
  if (major === 7 || major === 9) return 9;
  if (version === undefined) {
    throw new InputError(
      'not a pnpm-lock.yaml: it has no "lockfileVersion". Send the pnpm-lock.yaml pnpm writes (lockfileVersion 5.x, 6.x or 9.0).',
    );
  }
  throw new InputError(
    `pnpm lockfileVersion ${JSON.stringify(version).slice(0, 20)} is not one Tended reads (it reads 5.x, 6.x and 9.0). Send a lockfile written by pnpm 6 to pnpm 10.`,
  );
}

/** The key without its peers: `a@1.0.0(b@2.0.0)` → `a@1.0.0`; 5.x: `/a/1.0.0_b@2.0.0` → `/a/1.0.0`. */
function baseOf(key: string): string {
  const paren = key.indexOf('(');
  return paren > 0 ? key.slice(0, paren) : key;
}

/** Name and version as the key spells them; `name`/`version` fields, where present, say better. */
function nameOf(key: string, lockfile: Lockfile): { name: string; version: string | undefined } {
  let base = baseOf(key);
  if (lockfile !== 9 && base.startsWith('/')) base = base.slice(1);
  if (lockfile === 5) {
    const underscore = base.indexOf('_');
    if (underscore > 0) base = base.slice(0, underscore);
    const slash = base.lastIndexOf('/');
    return slash > 0
      ? { name: base.slice(0, slash), version: base.slice(slash + 1) }
      : { name: base, version: undefined };
  }
  // A name holds `@` only as its scope's first character.
  const at = base.indexOf('@', base.startsWith('@') ? 1 : 0);
  return at > 0 ? { name: base.slice(0, at), version: base.slice(at + 1) } : { name: base, version: undefined };
}

/** The package key a dependency `name: version` names, if the lockfile has it. */
function keyOf(name: string, version: unknown, lockfile: Lockfile, known: Map<string, unknown>): string | undefined {
  if (typeof version !== 'string' || version.startsWith('link:')) return undefined;
  const candidates =
    lockfile === 9
      ? [`${name}@${version}`, version]
      : lockfile === 6
        ? [`/${name}@${version}`, version, `/${version}`]
        : [`/${name}/${version}`, version, `/${version}`];
  for (const key of candidates) if (known.has(key)) return key;
  return undefined;
}

function sourceOf(name: string, version: string | undefined, resolution: unknown): NpmSource {
  if (!isJsonObject(resolution)) return npmPackage(name);
  if (typeof resolution.tarball === 'string') return sourceOfResolved(name, resolution.tarball);
  if (resolution.type === 'git' && typeof resolution.repo === 'string') return gitSource(name, resolution.repo);
  if (typeof resolution.directory === 'string' || version?.startsWith('file:')) return { reason: LOCAL_REASON };
  return npmPackage(name);
}
