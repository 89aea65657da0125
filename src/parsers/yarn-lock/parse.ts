/**
 * yarn.lock: Yarn 1's own text format (classic.ts) and Yarn 2+'s YAML (`__metadata.version` 4
 * to 10). Each entry names the descriptors (`name@range`) it satisfies and the version it
 * resolved; its dependencies name descriptors of other entries, which makes the graph.
 * A yarn.lock does not say which packages the project names itself, except that Yarn 2+ lists
 * each workspace (`name@workspace:.` is the root) with its dependencies: those are the direct
 * ones. A Yarn 1 file gives no scope.
 */
import { DependencyGraph } from '../dependency-graph.js';
import { InputError, addUnresolved } from '../reference.js';
import type { ComponentReference, ParseResult, UnlistedEntries, UnresolvedEntry } from '../reference.js';
import { readBlockYaml } from '../yaml-block.js';
import { readYaml } from '../yaml-document.js';
import { LOCAL_REASON, WORKSPACE_REASON, npmPackage, sourceOfResolved } from '../npm-source.js';
import type { NpmSource } from '../npm-source.js';
import { readClassic } from './classic.js';
import type { YarnEntry } from './classic.js';
import { isJsonObject } from '../../domain/json-object.js';

export function parseYarnLock(text: string): ParseResult {
  const source = text.replace(/^\uFEFF/, '');
  const berry = /^__metadata:/m.test(source.slice(0, 4_000));
  const entries = berry ? readBerry(source) : readClassic(source);
  const graph = new DependencyGraph();
  const byDescriptor = new Map<string, number>();
  const sources: NpmSource[] = [];
  entries.forEach((e, i) => {
    for (const d of e.descriptors) byDescriptor.set(d, i);
    const name = nameOf(e.descriptors[0] ?? '');
    const src = sourceOf(name, e);
    sources.push(src);
    graph.addNode({
      key: String(i),
      name: 'ref' in src && src.ref.kind === 'npm' ? src.ref.id : name,
      ...(e.version !== undefined ? { version: e.version } : {}),
      resolvable: 'ref' in src,
    });
  });
  entries.forEach((e, i) => {
    for (const [name, range] of e.needs) {
      const to = byDescriptor.get(`${name}@${range}`) ?? byDescriptor.get(`${name}@npm:${range}`);
      if (to !== undefined) graph.addEdge(String(i), String(to));
    }
  });
  // Yarn 2+: a workspace's dependencies (the root's, `name@workspace:.`, among them) are the project's own.
  entries.forEach((e, i) => {
    if (!isWorkspace(e)) return;
    for (const [name, range] of e.needs) {
      const to = byDescriptor.get(`${name}@${range}`) ?? byDescriptor.get(`${name}@npm:${range}`);
      if (to !== undefined && to !== i) graph.addDirect({ key: String(to) });
    }
  });
  const places = graph.places();
  const out: { references: ComponentReference[]; unresolved: UnresolvedEntry[]; unlisted?: UnlistedEntries } = {
    references: [],
    unresolved: [],
  };
  entries.forEach((e, i) => {
    const src = sources[i]!;
    const first = e.descriptors[0] ?? '';
    const input = e.version !== undefined ? `${nameOf(first)}@${e.version}` : first;
    const location = `line ${e.line}`;
    if ('ref' in src)
      out.references.push({ ref: src.ref, input, location, line: e.line, tree: places.get(String(i))! });
    else addUnresolved(out, { input: first.slice(0, 200), location, reason: src.reason });
  });
  return {
    format: 'yarn-lock',
    variant: berry ? 'Yarn 2+ (berry)' : 'Yarn 1 (classic)',
    references: out.references,
    unresolved: out.unresolved,
    ...(out.unlisted ? { unlisted: out.unlisted } : {}),
  };
}

function readBerry(text: string): YarnEntry[] {
  const block = readBlockYaml(text);
  const doc: unknown = 'value' in block ? block.value : readYaml(text).doc.toJS({ maxAliasCount: -1 });
  if (!isJsonObject(doc)) throw new InputError('not a yarn.lock: the document is not a YAML mapping');
  const meta = doc.__metadata;
  const version = isJsonObject(meta) ? Number(meta.version) : NaN;
  if (!(version >= 4 && version <= 10)) {
    throw new InputError(
      `yarn.lock __metadata version ${String(isJsonObject(meta) ? meta.version : undefined).slice(0, 20)} is not one Tended reads (it reads 4–10, Yarn 2 to 4). Send a lockfile written by Yarn 1 to Yarn 4.`,
    );
  }
  const lines = lineIndex(text);
  const entries: YarnEntry[] = [];
  for (const [key, value] of Object.entries(doc)) {
    if (key === '__metadata' || !isJsonObject(value)) continue;
    const needs: [string, string][] = [];
    for (const section of [value.dependencies, value.optionalDependencies])
      if (isJsonObject(section)) for (const [n, r] of Object.entries(section)) needs.push([n, String(r)]);
    entries.push({
      descriptors: key.split(',').map((d) => d.trim()),
      version:
        typeof value.version === 'string' || typeof value.version === 'number' ? String(value.version) : undefined,
      resolved: typeof value.resolution === 'string' ? value.resolution : undefined,
      needs,
      line: lines.get(key) ?? 0,
    });
  }
  return entries;
}

/** The line of each top-level key (`"a@npm:^1":` or `a@npm:^1:`), from one pass over the lines. */
function lineIndex(text: string): Map<string, number> {
  const out = new Map<string, number>();
  let n = 0;
  for (let start = 0; start < text.length;) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    n += 1;
    if (text[start] !== ' ' && text[start] !== '#' && end > start) {
      let key = text.slice(start, end).trimEnd();
      if (key.endsWith(':')) key = key.slice(0, -1);
      if (key.length >= 2 && key[0] === '"' && key.endsWith('"')) key = key.slice(1, -1);
      out.set(key, n);
    }
    start = end + 1;
  }
  return out;
}

/** `@scope/a@npm:^1` → `@scope/a` (a name holds `@` only as its scope's first character). */
function nameOf(descriptor: string): string {
  const at = descriptor.indexOf('@', descriptor.startsWith('@') ? 1 : 0);
  return at > 0 ? descriptor.slice(0, at) : descriptor;
}

function isWorkspace(e: YarnEntry): boolean {
  return (e.resolved ?? e.descriptors[0] ?? '').includes('@workspace:');
}

function sourceOf(name: string, e: YarnEntry): NpmSource {
  const resolution = e.resolved ?? '';
  // Yarn 2+: `name@npm:1.0.0`, `name@workspace:…`, `name@patch:name@npm%3A1.0.0#…`, `name@https://…`.
  const at = resolution.indexOf('@', resolution.startsWith('@') ? 1 : 0);
  const protocolAt = at > 0 ? at + 1 : -1;
  const spec = protocolAt > 0 ? resolution.slice(protocolAt) : resolution;
  const real = at > 0 ? resolution.slice(0, at) : name;
  if (spec.startsWith('npm:')) return npmPackage(real);
  if (spec.startsWith('workspace:')) return { reason: WORKSPACE_REASON };
  if (spec.startsWith('patch:')) {
    // A patched registry package is still that package: `patch:real@npm%3A1.0.0#…`.
    return spec.includes('@npm%3A') ? npmPackage(real) : { reason: LOCAL_REASON };
  }
  if (/^(?:file|link|portal|exec):/.test(spec)) return { reason: LOCAL_REASON };
  if (protocolAt > 0 && /^(?:https?|git|git\+[a-z]+|github|ssh):/.test(spec)) return sourceOfResolved(real, spec);
  // Yarn 1: the range says what kind of source; `resolved` where it came from.
  const range = (e.descriptors[0] ?? '').slice(name.length + 1);
  if (range.startsWith('npm:')) return npmPackage(nameOf(range.slice(4)));
  if (/^(?:file|link|portal|workspace):/.test(range)) return { reason: LOCAL_REASON };
  if (e.resolved === undefined && /^[.~/]/.test(range)) return { reason: LOCAL_REASON };
  return sourceOfResolved(name, e.resolved);
}
