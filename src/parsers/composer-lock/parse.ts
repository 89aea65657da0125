/**
 * composer.lock: every package Composer installed, `packages` (dev: false) and `packages-dev`
 * (dev: true), each with its name and version. The graph runs from each package's `require`
 * names (a name another package `replace`s or `provide`s leads to that package); platform
 * requirements (`php`, `ext-*`…) name no package and are no edges. composer.lock does not say
 * which packages the project itself requires (its composer.json does), so with no direct list
 * no reference has a scope or a path; `direct` (the composer.json's names) gives them both.
 *
 * A package installed from a local `path` repository names no Packagist package: unresolved.
 * composer.lock carries no format version: any JSON object with a `packages` array is read
 * (the layout has been the same since Composer 1.0; `content-hash` since 1.1).
 */
import { normaliseComponent, type ComponentRef } from '../../domain/component.js';
import { ValidationError } from '../../domain/errors.js';
import { DependencyGraph, type DirectDependency } from '../dependency-graph.js';
import { checkJsonDepth } from '../json-depth.js';
import {
  addUnresolved,
  InputError,
  type ComponentReference,
  type ParseResult,
  type TreePlace,
  type UnlistedEntries,
  type UnresolvedEntry,
} from '../reference.js';
import { isJsonObject } from '../../domain/json-object.js';

const SECTIONS = ['packages', 'packages-dev'] as const;
const PLATFORM = /^(?:php(?:-64bit|-ipv6|-zts|-debug)?|hhvm|ext-.+|lib-.+|composer(?:-plugin-api|-runtime-api)?)$/i;
const MAX_INPUT = 200;

interface Found {
  /** The lower-cased name: Composer compares names case-insensitively. */
  key: string;
  name: string;
  version: string;
  section: string;
  index: number;
  ref: ComponentRef | undefined;
  require: unknown;
}

const inputOf = (f: Found) => (f.version ? `${f.name} ${f.version}` : f.name).slice(0, MAX_INPUT);
const locationOf = (f: Found) => `${f.section}[${f.index}] ${f.name}`.slice(0, MAX_INPUT);

export interface ComposerLockOptions {
  /** The names the composer.json beside it requires (`require`, or `require-dev` with dev: true). */
  direct?: { name: string; dev?: boolean }[];
}

export function parseComposerLock(text: string, options: ComposerLockOptions = {}): ParseResult {
  const source = text.replace(/^\uFEFF/, '');
  checkJsonDepth(source);
  let doc: unknown;
  try {
    doc = JSON.parse(source);
  } catch (e) {
    throw new InputError(
      `Expected a composer.lock, but it is not valid JSON: ${e instanceof Error ? e.message.slice(0, 120) : 'unreadable'}`,
    );
  }
  if (!isJsonObject(doc) || !Array.isArray(doc.packages))
    throw new InputError('Expected a composer.lock: a JSON object with a "packages" array (and "packages-dev").');

  const out: { unresolved: UnresolvedEntry[]; unlisted?: UnlistedEntries } = { unresolved: [] };
  const graph = new DependencyGraph();
  // Per package, in file order: no string or object is built for it that the answer does not keep.
  const found: Found[] = [];
  /** A name some installed package replaces or provides → that package's key. */
  const standsFor = new Map<string, string>();
  for (const section of SECTIONS) {
    const list = doc[section];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list))
      throw new InputError(`Expected "${section}" of a composer.lock to be an array of packages.`);
    const dev = section === 'packages-dev';
    for (let i = 0; i < list.length; i += 1) {
      const pkg: unknown = list[i];
      if (!isJsonObject(pkg) || typeof pkg.name !== 'string') {
        addUnresolved(out, {
          input: (JSON.stringify(pkg) ?? '').slice(0, MAX_INPUT),
          location: `${section}[${i}]`,
          reason: 'a package entry with no "name"',
        });
        continue;
      }
      const name = pkg.name;
      const version = typeof pkg.version === 'string' ? pkg.version : '';
      const key = name.toLowerCase();
      const entry: Found = { key, name, version, section, index: i, ref: undefined, require: pkg.require };
      const dist = pkg.dist;
      if (isJsonObject(dist) && dist.type === 'path') {
        addUnresolved(out, {
          input: inputOf(entry),
          location: locationOf(entry),
          reason: `installed from a local path (${typeof dist.url === 'string' ? dist.url.slice(0, 100) : 'no url'}), not from Packagist`,
        });
      } else {
        try {
          entry.ref = normaliseComponent('composer', name);
        } catch (e) {
          if (!(e instanceof ValidationError)) throw e;
          addUnresolved(out, {
            input: inputOf(entry),
            location: locationOf(entry),
            reason: e.issues[0]?.msg ?? 'not a Packagist name',
          });
        }
      }
      graph.addNode({ key, name, version: version || undefined, dev, resolvable: entry.ref !== undefined });
      found.push(entry);
      for (const field of [pkg.replace, pkg.provide])
        if (isJsonObject(field))
          for (const other in field) if (!standsFor.has(other.toLowerCase())) standsFor.set(other.toLowerCase(), key);
    }
  }
  const keys = new Set<string>();
  for (const f of found) keys.add(f.key);
  const resolve = (name: string) => {
    const lower = name.toLowerCase();
    return keys.has(lower) ? lower : (standsFor.get(lower) ?? lower);
  };
  for (const f of found)
    if (isJsonObject(f.require))
      for (const name in f.require) if (!PLATFORM.test(name)) graph.addEdge(f.key, resolve(name));
  for (const d of options.direct ?? [])
    graph.addDirect({
      key: resolve(d.name),
      ...(d.dev !== undefined ? { dev: d.dev } : {}),
    } satisfies DirectDependency);

  const places = graph.places();
  const references: ComponentReference[] = [];
  for (const f of found) {
    if (!f.ref) continue;
    const tree: TreePlace = places.get(f.key) ?? {};
    // A name listed twice keeps each entry's own version (the graph keeps the first).
    if (f.version) tree.resolvedVersion = f.version;
    references.push({ ref: f.ref, input: inputOf(f), location: locationOf(f), tree });
  }
  return { format: 'composer-lock', references, ...out };
}
