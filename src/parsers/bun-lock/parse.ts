/**
 * bun.lock, the text lockfile of Bun 1.2 and later (lockfileVersion 0 and 1): JSON with trailing
 * commas. `workspaces` gives each project ("" is the root) with its dependency sections: those
 * are the direct dependencies. `packages` gives every installed package as
 * `"key": ["name@version", registry, { dependencies, optionalDependencies, … }, integrity]`,
 * keyed the way node_modules nests them: `chalk`, or `boxen/chalk` for the copy under boxen.
 * A dependency is found as Node finds it: under its parent's key, then each enclosing key's.
 * The binary bun.lockb is not read (parse-submission.ts asks for bun.lock instead).
 */
import { DependencyGraph } from '../dependency-graph.js';
import { checkJsonDepth } from '../json-depth.js';
import { InputError, TooComplexError, addUnresolved } from '../reference.js';
import type { ComponentReference, ParseResult, UnlistedEntries, UnresolvedEntry } from '../reference.js';
import { LOCAL_REASON, WORKSPACE_REASON, gitSource, npmPackage, sourceOfResolved } from '../npm-source.js';
import type { NpmSource } from '../npm-source.js';
import { stripJsonc } from './jsonc.js';
import { isJsonObject } from '../../domain/json-object.js';

/**
 * Keys nested deeper than this (parent/child/…): real lockfiles nest a few levels. Finding a
 * dependency may look under each enclosing key, so this bounds the work per dependency named.
 */
export const MAX_BUN_NESTING = 32;

export const BUN_LOCKB_SENTENCE =
  'bun.lockb is a binary lockfile Tended does not read. Send bun.lock, the text lockfile: run `bun install --save-text-lockfile` (Bun 1.1.39+; the default from Bun 1.2) and send the bun.lock it writes.';

const SECTIONS = [
  ['dependencies', {}],
  ['devDependencies', { dev: true }],
  ['optionalDependencies', { optional: true }],
  ['peerDependencies', {}],
] as const;

export function parseBunLock(text: string): ParseResult {
  const source = text.replace(/^\uFEFF/, '');
  if (source.startsWith('#!/usr/bin/env bun')) throw new InputError(BUN_LOCKB_SENTENCE);
  const json = stripJsonc(source);
  checkJsonDepth(json);
  let doc: unknown;
  try {
    doc = JSON.parse(json);
  } catch (e) {
    throw new InputError(`not a readable bun.lock: ${e instanceof Error ? e.message.slice(0, 200) : String(e)}`);
  }
  if (!isJsonObject(doc)) throw new InputError('not a bun.lock: the document is not a JSON object');
  if (doc.lockfileVersion !== 0 && doc.lockfileVersion !== 1) {
    throw new InputError(
      `bun.lock lockfileVersion ${JSON.stringify(doc.lockfileVersion ?? null).slice(0, 20)} is not one Tended reads (it reads 0 and 1, Bun 1.2 and later).`,
    );
  }
  const packages = isJsonObject(doc.packages) ? doc.packages : {};
  const graph = new DependencyGraph();
  const sources = new Map<string, { name: string; version: string | undefined; source: NpmSource }>();
  const workspaceKeys = new Map<string, string>();
  for (const [key, value] of Object.entries(packages)) {
    if (!Array.isArray(value) || typeof value[0] !== 'string') continue;
    nestingOf(key);
    const [name, spec] = split(value[0]);
    const src = sourceOf(name, spec);
    if (spec.startsWith('workspace:')) workspaceKeys.set(spec.slice('workspace:'.length), key);
    const version = /^\d/.test(spec) ? spec : undefined;
    sources.set(key, { name, version: version ?? spec, source: src });
    graph.addNode({ key, name, ...(version !== undefined ? { version } : {}), resolvable: 'ref' in src });
  }
  const tree = new KeyTree([...sources.keys()]);
  for (const [key, value] of Object.entries(packages)) {
    if (!Array.isArray(value)) continue;
    const meta = value.find((v, i) => i > 0 && isJsonObject(v)) as Record<string, unknown> | undefined;
    if (meta === undefined) continue;
    for (const section of [meta.dependencies, meta.optionalDependencies, meta.peerDependencies])
      if (isJsonObject(section))
        for (const name of Object.keys(section)) {
          const to = tree.resolve(key, name);
          if (to !== undefined) graph.addEdge(key, to);
        }
  }
  const out: { references: ComponentReference[]; unresolved: UnresolvedEntry[]; unlisted?: UnlistedEntries } = {
    references: [],
    unresolved: [],
  };
  const workspaces = isJsonObject(doc.workspaces) ? doc.workspaces : {};
  for (const [path, value] of Object.entries(workspaces)) {
    if (!isJsonObject(value)) continue;
    const name = typeof value.name === 'string' ? value.name : path;
    if (path === '')
      addUnresolved(out, { input: name, location: 'workspaces[""]', reason: 'the project itself, not a dependency.' });
    // A workspace's own copies sit under its package key; the rest at the top.
    const from = path === '' ? '' : (workspaceKeys.get(path) ?? name);
    for (const [section, flags] of SECTIONS) {
      const deps = value[section];
      if (!isJsonObject(deps)) continue;
      for (const dep of Object.keys(deps)) {
        const key = tree.resolve(from, dep);
        if (key !== undefined) graph.addDirect({ key, dev: 'dev' in flags, optional: 'optional' in flags });
      }
    }
  }
  const places = graph.places();
  for (const [key, { name, version, source: src }] of sources) {
    const input = `${name}@${version ?? ''}`.slice(0, 200);
    const location = `packages[${JSON.stringify(key)}]`;
    if ('ref' in src) out.references.push({ ref: src.ref, input, location, tree: places.get(key)! });
    else addUnresolved(out, { input, location, reason: src.reason });
  }
  return {
    format: 'bun-lock',
    variant: `bun.lock lockfileVersion ${String(doc.lockfileVersion)}`,
    references: out.references,
    unresolved: out.unresolved,
    ...(out.unlisted ? { unlisted: out.unlisted } : {}),
  };
}

/** `@scope/a@1.0.0` → [`@scope/a`, `1.0.0`] (a name holds `@` only as its scope's first character). */
function split(s: string): [string, string] {
  const at = s.indexOf('@', s.startsWith('@') ? 1 : 0);
  return at > 0 ? [s.slice(0, at), s.slice(at + 1)] : [s, ''];
}

function sourceOf(name: string, spec: string): NpmSource {
  if (spec.startsWith('workspace:')) return { reason: WORKSPACE_REASON };
  if (/^(?:file|link):/.test(spec)) return { reason: LOCAL_REASON };
  if (/^(?:github|git\+|git:|ssh:|gitlab:|bitbucket:)/.test(spec)) return gitSource(name, spec);
  if (/^https?:\/\//.test(spec)) return sourceOfResolved(name, spec);
  if (spec.startsWith('npm:')) return npmPackage(split(spec.slice(4))[0]);
  return npmPackage(name);
}

/**
 * The keys as a tree, for the key Node loads `name` from, required in the package at `from`:
 * `from/name`, then each enclosing key's. Each step is one lookup of (key number, name), not of a
 * key as long as the nesting.
 */
class KeyTree {
  private readonly ids = new Map<string, number>([['', 0]]);
  private readonly keys: string[] = [''];
  private readonly parents: number[] = [-1];
  private readonly children = new Map<string, number>();

  constructor(keys: string[]) {
    for (const key of keys) {
      this.ids.set(key, this.keys.length);
      this.keys.push(key);
    }
    for (let id = 1; id < this.keys.length; id += 1) {
      const key = this.keys[id]!;
      const parent = parentOf(key);
      const enclosing = this.enclosing(parent);
      this.parents.push(enclosing);
      this.children.set(`${enclosing} ${parent === '' ? key : key.slice(parent.length + 1)}`, id);
    }
  }

  resolve(from: string, name: string): string | undefined {
    for (let id = this.ids.get(from) ?? 0; id >= 0; id = this.parents[id]!) {
      const found = this.children.get(`${id} ${name}`);
      if (found !== undefined) return this.keys[found];
    }
    return undefined;
  }

  /** The nearest listed key up a path (at most the nesting bound of steps). */
  private enclosing(path: string): number {
    for (let p = path; ; p = parentOf(p)) {
      const id = this.ids.get(p);
      if (id !== undefined) return id;
      if (p === '') return 0;
    }
  }
}

/** `a/@s/b` → `a`; `@s/a/b` → `@s/a`; `a` → ``. */
function parentOf(key: string): string {
  const last = key.lastIndexOf('/');
  if (last < 0) return '';
  const before = key.lastIndexOf('/', last - 1);
  const segment = key.slice(before + 1, last);
  if (segment.startsWith('@')) return before < 0 ? '' : key.slice(0, before);
  return key.slice(0, last);
}

function nestingOf(key: string): void {
  let n = 0;
  for (let i = key.indexOf('/'); i >= 0; i = key.indexOf('/', i + 1))
    if (++n > 2 * MAX_BUN_NESTING)
      throw new TooComplexError(
        `the package key ${JSON.stringify(key.slice(0, 80))}… nests more than ${MAX_BUN_NESTING} packages deep. Real bun.lock files nest a few; Tended reads up to ${MAX_BUN_NESTING}.`,
      );
}
