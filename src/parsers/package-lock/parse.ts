/**
 * package-lock.json and npm-shrinkwrap.json, lockfileVersion 1 to 3. Versions 2 and 3 list every
 * installed package under `packages`, keyed by its folder (`node_modules/a/node_modules/b`); the
 * root entry "" names the project's own dependencies, and a workspace's folder entry (no
 * `node_modules/` in its key) names the workspace's. Version 1 nests `dependencies` the way the
 * folders nest, each naming what it `requires`; it has no root entry, so which packages are direct
 * is not known from it (no scope is given). Both are read into one map of folders, and a
 * dependency is found the way Node finds it: the nearest `node_modules/<name>` up the folders.
 */
import { DependencyGraph } from '../dependency-graph.js';
import { checkJsonDepth } from '../json-depth.js';
import { InputError, TooComplexError, addUnresolved } from '../reference.js';
import type { ComponentReference, ParseResult, UnresolvedEntry, UnlistedEntries } from '../reference.js';
import { LOCAL_REASON, WORKSPACE_REASON, npmPackage, sourceOfResolved } from '../npm-source.js';
import type { NpmSource } from '../npm-source.js';
import { isJsonObject } from '../../domain/json-object.js';

/**
 * Folders nested deeper than this in one key: real trees nest fewer than 10 (npm hoists). Finding
 * a dependency may look in each enclosing folder, so this bounds the work per dependency named.
 */
export const MAX_NODE_MODULES_NESTING = 32;
const NM = 'node_modules/';

interface Folder {
  name: string;
  version: string | undefined;
  source: NpmSource;
  /** A symlink (`link: true`) to the folder its `resolved` names. */
  linkTo?: string;
  dev: boolean | undefined;
  optional: boolean | undefined;
  /** name → spec, every section that installs something (peers are installed by npm 7+). */
  needs: Record<string, unknown>[];
  location: string;
  /** A workspace's folder entry: its dependency sections, as in its package.json. */
  project?: Record<string, unknown>;
}

interface Out {
  references: ComponentReference[];
  unresolved: UnresolvedEntry[];
  unlisted?: UnlistedEntries;
}

export function parsePackageLock(text: string): ParseResult {
  const source = text.replace(/^\uFEFF/, '');
  checkJsonDepth(source);
  let doc: unknown;
  try {
    doc = JSON.parse(source);
  } catch (e) {
    throw new InputError(`not valid JSON: ${e instanceof Error ? e.message.slice(0, 200) : String(e)}`);
  }
  if (!isJsonObject(doc)) throw new InputError('not a package-lock.json: the document is not a JSON object');
  const version = doc.lockfileVersion;
  if (version === undefined) {
    throw new InputError(
      'not a package-lock.json: it has no "lockfileVersion". Send the package-lock.json or npm-shrinkwrap.json npm writes (lockfileVersion 1, 2 or 3).',
    );
  }
  if (version !== 1 && version !== 2 && version !== 3) {
    throw new InputError(
      `npm lockfileVersion ${JSON.stringify(version).slice(0, 20)} is not one Tended reads (it reads 1–3). Send a lockfile written by npm 5 to npm 11.`,
    );
  }
  const folders = new Map<string, Folder>();
  const packages = doc.packages;
  if (version >= 2 && isJsonObject(packages)) readPackages(packages, folders);
  else if (isJsonObject(doc.dependencies)) readNested(doc.dependencies, folders);
  else if (version === 3) throw new InputError('not a package-lock.json: lockfileVersion 3 with no "packages" object');
  return reckon(folders, version >= 2 && isJsonObject(packages) ? packages[''] : undefined);
}

function readPackages(packages: Record<string, unknown>, folders: Map<string, Folder>): void {
  for (const [key, value] of Object.entries(packages)) {
    if (key === '' || !isJsonObject(value)) continue;
    nestingOf(key);
    const at = key.lastIndexOf(NM);
    const name = typeof value.name === 'string' ? value.name : at >= 0 ? key.slice(at + NM.length) : key;
    const resolved = typeof value.resolved === 'string' ? value.resolved : undefined;
    const version = typeof value.version === 'string' ? value.version : undefined;
    const folder: Folder = {
      name,
      version,
      source:
        at < 0
          ? { reason: WORKSPACE_REASON }
          : value.link === true
            ? { reason: LOCAL_REASON }
            : sourceOfResolved(name, resolved),
      dev: value.devOptional === true ? undefined : value.dev === true,
      optional: value.devOptional === true ? undefined : value.optional === true,
      needs: [value.dependencies, value.optionalDependencies, value.peerDependencies].filter(isJsonObject),
      location: `packages[${JSON.stringify(key)}]`,
    };
    if (value.link === true && resolved !== undefined) folder.linkTo = resolved;
    if (at < 0) folder.project = value;
    folders.set(key, folder);
  }
}

/** lockfileVersion 1: `dependencies` nested as the folders are, walked without recursion. */
function readNested(top: Record<string, unknown>, folders: Map<string, Folder>): void {
  const pending: [string, Record<string, unknown>][] = [['', top]];
  while (pending.length > 0) {
    const [parent, deps] = pending.pop()!;
    for (const [key, value] of Object.entries(deps)) {
      if (!isJsonObject(value)) continue;
      const path = parent === '' ? `${NM}${key}` : `${parent}/${NM}${key}`;
      nestingOf(path);
      let name = key;
      let version = typeof value.version === 'string' ? value.version : undefined;
      let source: NpmSource;
      if (version?.startsWith('npm:')) {
        // An alias: `"version": "npm:real-name@1.2.3"`.
        const spec = version.slice(4);
        const at = spec.lastIndexOf('@');
        [name, version] = at > 0 ? [spec.slice(0, at), spec.slice(at + 1)] : [spec, undefined];
        source = npmPackage(name);
      } else if (version !== undefined && /^\d/.test(version)) {
        source = sourceOfResolved(name, typeof value.resolved === 'string' ? value.resolved : undefined);
      } else {
        // Not a registry version: the spec it came from (`github:u/r#sha`, `file:../x`, a URL).
        source = sourceOfResolved(name, version ?? '');
      }
      folders.set(path, {
        name,
        version,
        source,
        dev: value.dev === true,
        optional: value.optional === true,
        needs: isJsonObject(value.requires) ? [value.requires] : [],
        location: `dependencies ${path}`,
      });
      if (isJsonObject(value.dependencies)) pending.push([path, value.dependencies]);
    }
  }
}

function reckon(folders: Map<string, Folder>, root: unknown): ParseResult {
  const tree = new FolderTree(folders);
  const graph = new DependencyGraph();
  for (const [key, f] of folders)
    graph.addNode({
      key,
      name: f.name,
      ...(f.version !== undefined ? { version: f.version } : {}),
      ...(f.dev !== undefined ? { dev: f.dev } : {}),
      ...(f.optional !== undefined ? { optional: f.optional } : {}),
      resolvable: 'ref' in f.source,
    });
  for (const [key, f] of folders) {
    if (f.linkTo !== undefined && folders.has(f.linkTo)) graph.addEdge(key, f.linkTo);
    for (const needs of f.needs)
      for (const name of Object.keys(needs)) {
        const to = tree.resolve(key, name);
        if (to !== undefined) graph.addEdge(key, to);
      }
    // A workspace's own dependencies are the project's, as the root's are.
    if (f.project !== undefined) addDirect(graph, tree, key, f.project);
  }
  if (isJsonObject(root)) addDirect(graph, tree, '', root);
  const places = graph.places();
  const out: Out = { references: [], unresolved: [] };
  if (isJsonObject(root)) {
    const name = typeof root.name === 'string' ? root.name : 'the project';
    addUnresolved(out, { input: name, location: 'packages[""]', reason: 'the project itself, not a dependency.' });
  }
  for (const [key, f] of folders) {
    const input = f.version !== undefined ? `${f.name}@${f.version}` : f.name;
    if ('ref' in f.source)
      out.references.push({ ref: f.source.ref, input, location: f.location, tree: places.get(key)! });
    else if (f.linkTo === undefined) addUnresolved(out, { input, location: f.location, reason: f.source.reason });
  }
  return {
    format: 'package-lock',
    references: out.references,
    unresolved: out.unresolved,
    ...(out.unlisted ? { unlisted: out.unlisted } : {}),
  };
}

function addDirect(graph: DependencyGraph, tree: FolderTree, from: string, project: Record<string, unknown>): void {
  const sections: [string, { dev?: boolean; optional?: boolean }][] = [
    ['dependencies', {}],
    ['devDependencies', { dev: true }],
    ['optionalDependencies', { optional: true }],
    ['peerDependencies', {}],
  ];
  for (const [section, flags] of sections) {
    const deps = project[section];
    if (!isJsonObject(deps)) continue;
    for (const name of Object.keys(deps)) {
      const key = tree.resolve(from, name);
      if (key !== undefined) graph.addDirect({ key, dev: flags.dev ?? false, optional: flags.optional ?? false });
    }
  }
}

/**
 * The folders as a tree, for finding the folder Node loads `name` from when required in folder
 * `from`: `from/node_modules/name`, else the same from each enclosing package's folder up to the
 * root. Each step is one lookup of (folder number, name), not of a path as long as the nesting.
 */
class FolderTree {
  private readonly ids = new Map<string, number>([['', 0]]);
  private readonly keys: string[] = [''];
  private readonly parents: number[] = [-1];
  private readonly children = new Map<string, number>();

  constructor(folders: Map<string, Folder>) {
    for (const key of folders.keys()) {
      this.ids.set(key, this.keys.length);
      this.keys.push(key);
    }
    for (let id = 1; id < this.keys.length; id += 1) {
      const key = this.keys[id]!;
      const at = key.lastIndexOf(NM);
      // A workspace folder (no node_modules/ in its key) sits in the root's place.
      if (at < 0) {
        this.parents.push(0);
        continue;
      }
      this.children.set(`${this.enclosing(key.slice(0, Math.max(0, at - 1)))} ${key.slice(at + NM.length)}`, id);
      this.parents.push(this.enclosing(key.slice(0, Math.max(0, at - 1))));
    }
  }

  resolve(from: string, name: string): string | undefined {
    for (let id = this.ids.get(from) ?? 0; id >= 0; id = this.parents[id]!) {
      const found = this.children.get(`${id} ${name}`);
      if (found !== undefined) return this.keys[found];
    }
    return undefined;
  }

  /** The folder a package folder's key sits in: the nearest listed one up its path (at most the nesting bound of steps). */
  private enclosing(path: string): number {
    let p = path;
    for (;;) {
      const id = this.ids.get(p);
      if (id !== undefined) return id;
      const at = p.lastIndexOf(NM);
      if (at <= 0) return 0;
      p = p.slice(0, at - 1);
    }
  }
}

function nestingOf(key: string): void {
  let n = 0;
  for (let i = key.indexOf(NM); i >= 0; i = key.indexOf(NM, i + NM.length)) {
    n += 1;
    if (n > MAX_NODE_MODULES_NESTING) {
      throw new TooComplexError(
        `the package ${JSON.stringify(key.slice(0, 80))}… sits more than ${MAX_NODE_MODULES_NESTING} node_modules folders deep. npm nests real trees fewer than 10 deep; Tended reads up to ${MAX_NODE_MODULES_NESTING}.`,
      );
    }
  }
}
