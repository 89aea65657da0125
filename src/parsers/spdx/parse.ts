/**
 * SPDX 2.2/2.3 as JSON, YAML or tag-value, and SPDX 3.0 JSON-LD read as plain JSON (a JSON-LD
 * processor would fetch the remote context). Every package becomes a reference (purl of an
 * observed kind) or an unresolved entry with the reason; files, snippets and relationships
 * are not packages and are not counted. The subject is the one package the document DESCRIBES
 * (SPDX 3: its one package root element); it stays among the results, as the corpus counts it.
 */
import { readYaml } from '../yaml-document.js';
import { readBlockYaml } from '../yaml-block.js';
import { checkJsonDepth } from '../json-depth.js';
import { InputError, TooComplexError, addUnresolved, type ParseResult, type SbomSubject } from '../reference.js';
import { accountEntry, entryLabel, sbomSubject, shownValue, type Accounting } from '../purl-entry.js';
import { isPackageManagerCategory, readTagValue } from './tag-value.js';
import { SbomTree, sbomVersion } from '../sbom-tree.js';
import { dependencyEdge, readDependencies, type Relationship } from './dependencies.js';

const SPDX3_CONTEXT = /spdx\.org\/rdf\/(3(?:\.\d+)*)/;
/**
 * SPDX YAML beyond the block style SPDX tools write goes to `yaml`, which builds a node per
 * scalar (about half a second per MB, twice that and more for flow style): up to this size.
 */
export const MAX_YAML_LIBRARY_BYTES = 1024 * 1024;
const SPDX3_PACKAGE_TYPES = new Set(['software_Package', 'ai_AIPackage', 'dataset_DatasetPackage']);

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function message(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
}

export function parseSpdx(text: string): ParseResult {
  const body = text.replace(/^\uFEFF/, '').trimStart();
  if (body.startsWith('{')) {
    let doc: unknown;
    checkJsonDepth(body);
    try {
      doc = JSON.parse(body);
    } catch (e) {
      throw new InputError(`Expected SPDX JSON, but the JSON is malformed: ${message(e)}.`);
    }
    const context = isObject(doc) ? contextVersion(doc['@context']) : undefined;
    if (context !== undefined && isObject(doc)) return fromSpdx3(doc, context);
    return fromSpdx2(doc, 'JSON');
  }
  const firstTag = firstContentLine(body);
  if (firstTag !== undefined && /^\s*SPDXVersion\s*:/.test(firstTag)) return fromTagValue(body);
  let doc: unknown;
  try {
    doc = readSpdxYaml(body);
  } catch (e) {
    if (e instanceof TooComplexError) throw e;
    throw new InputError(
      `Expected SPDX as JSON, YAML or tag-value (beginning with "SPDXVersion:"), but it is none of them; as YAML: ${message(e)}.`,
    );
  }
  return fromSpdx2(doc, 'YAML');
}

/** Block-style YAML by the fast reader; anything else by `yaml`, in files up to MAX_YAML_LIBRARY_BYTES. */
function readSpdxYaml(body: string): unknown {
  const block = readBlockYaml(body);
  if ('value' in block) return block.value;
  if (body.length > MAX_YAML_LIBRARY_BYTES) {
    throw new TooComplexError(
      `it is ${(body.length / 1024 / 1024).toFixed(1)} MB of SPDX YAML, and line ${block.line} holds ${block.unsupported}. Tended reads SPDX YAML over 1 MB only in the block style SPDX tools write (mappings, lists, and plain, quoted or block text); send this one as SPDX JSON, or without that.`,
    );
  }
  // readYaml has bounded the aliases and what they expand to, and `yaml`'s own count would walk
  // the whole document again for each alias inside an anchored node.
  return readYaml(body).doc.toJS({ maxAliasCount: -1 });
}

/** The one described package's subject; null when none, or several, is described (no single subject). */
function describedSubject<P>(
  described: Iterable<unknown>,
  packageOf: (id: string) => P | undefined,
  subjectOf: (p: P, id: string) => SbomSubject | null,
): SbomSubject | null {
  const ids = new Set<string>();
  for (const id of described) if (typeof id === 'string' && packageOf(id) !== undefined) ids.add(id);
  if (ids.size !== 1) return null;
  const only = [...ids][0]!;
  return subjectOf(packageOf(only)!, only);
}

function contextVersion(context: unknown): string | undefined {
  const all = Array.isArray(context) ? context : [context];
  for (const c of all) {
    const m = typeof c === 'string' ? SPDX3_CONTEXT.exec(c) : null;
    if (m) return m[1];
  }
  return undefined;
}

// ---------------------------------------------------------------- SPDX 2.x (JSON, YAML)

/** The locator of the first package-manager purl reference; SPDX allows several, one names the package. */
export function purlOf(externalRefs: unknown): unknown {
  if (!Array.isArray(externalRefs)) return undefined;
  for (const r of externalRefs) {
    if (!isObject(r) || !isPackageManagerCategory(r['referenceCategory'])) continue;
    const type = r['referenceType'];
    // The RDF form writes the type as a URI ending in /purl.
    if (typeof type === 'string' && (type === 'purl' || type.endsWith('/purl'))) return r['referenceLocator'];
  }
  return undefined;
}

function fromSpdx2(doc: unknown, syntax: 'JSON' | 'YAML'): ParseResult {
  const version = isObject(doc) ? doc['spdxVersion'] : undefined;
  if (!isObject(doc) || typeof version !== 'string' || !version.startsWith('SPDX-')) {
    throw new InputError(
      `Expected an SPDX ${syntax} document with "spdxVersion" (for example "SPDX-2.3") at the top level, but it has none.`,
    );
  }
  const packages = doc['packages'] ?? [];
  if (!Array.isArray(packages))
    throw new InputError(
      `Expected "packages" to be a list in the SPDX ${syntax} document, but it is a ${typeof packages}.`,
    );
  const acc: Accounting = { references: [], unresolved: [] };
  const tree = new SbomTree();
  const byId = new Map<string, Record<string, unknown>>();
  packages.forEach((p: unknown, i) => {
    const at = `packages[${i}]`;
    if (!isObject(p)) {
      addUnresolved(acc, {
        input: shownValue(p),
        location: at,
        reason: 'is not a package object, so it names nothing to look up',
      });
      return;
    }
    const id = p['SPDXID'];
    if (typeof id === 'string' && id !== '' && !byId.has(id)) byId.set(id, p);
    const before = acc.references.length;
    accountEntry(
      acc,
      purlOf(p['externalRefs']),
      entryLabel(p['name'], p['versionInfo']),
      typeof id === 'string' && id !== '' ? id : at,
    );
    tree.package(
      acc,
      before,
      typeof id === 'string' && id !== '' ? id : undefined,
      nameOf(p['name']),
      sbomVersion(p['versionInfo']),
    );
  });
  const described = described2(doc);
  readDependencies(tree, described, relationships2(doc['relationships']));
  const subject = describedSubject(
    described,
    (id) => byId.get(id),
    (p, id) => sbomSubject({ name: p['name'], version: p['versionInfo'], purl: purlOf(p['externalRefs']), ref: id }),
  );
  return { format: 'spdx', variant: `SPDX ${version.slice(5, 15)} ${syntax}`, ...acc, subject };
}

function nameOf(name: unknown): string {
  return typeof name === 'string' && name !== '' ? name.slice(0, 200) : '(unnamed)';
}

function* relationships2(list: unknown): Generator<Relationship> {
  if (!Array.isArray(list)) return;
  for (const r of list) {
    if (!isObject(r)) continue;
    const edge = dependencyEdge(r['spdxElementId'], r['relationshipType'], r['relatedSpdxElement']);
    if (edge) yield edge;
  }
}

/**
 * The first line that is neither blank nor a comment, found line by line: splitting the whole
 * body to look at its first line cost a string per line of a 4 MB body.
 */
function firstContentLine(body: string): string | undefined {
  const breaks = /\r\n|\r|\n/g;
  let at = 0;
  while (at <= body.length) {
    const br = breaks.exec(body);
    const end = br === null ? body.length : br.index;
    const line = body.slice(at, end);
    if (line.trim() !== '' && !line.trimStart().startsWith('#')) return line;
    if (br === null) return undefined;
    at = end + br[0].length;
  }
  return undefined;
}

/** SPDX 2.x JSON/YAML: `documentDescribes`, and DESCRIBES / DESCRIBED_BY relationships of the document. */
function described2(doc: Record<string, unknown>): unknown[] {
  const self = typeof doc['SPDXID'] === 'string' ? doc['SPDXID'] : 'SPDXRef-DOCUMENT';
  const describes = doc['documentDescribes'];
  const out: unknown[] = Array.isArray(describes) ? [...(describes as unknown[])] : [];
  const relationships = doc['relationships'];
  if (Array.isArray(relationships)) {
    for (const r of relationships) {
      if (!isObject(r)) continue;
      if (r['relationshipType'] === 'DESCRIBES' && r['spdxElementId'] === self) out.push(r['relatedSpdxElement']);
      if (r['relationshipType'] === 'DESCRIBED_BY' && r['relatedSpdxElement'] === self) out.push(r['spdxElementId']);
    }
  }
  return out;
}

function fromTagValue(body: string): ParseResult {
  const doc = readTagValue(body);
  const acc: Accounting = { references: [], unresolved: [] };
  const tree = new SbomTree();
  for (const p of doc.packages) {
    const before = acc.references.length;
    accountEntry(acc, p.purl, entryLabel(p.name, p.version), p.spdxId ?? `package on line ${p.line}`);
    tree.package(acc, before, p.spdxId, nameOf(p.name), sbomVersion(p.version));
  }
  readDependencies(
    tree,
    doc.describes,
    (function* () {
      for (const r of doc.relationships) {
        const edge = dependencyEdge(r.from, r.type, r.to);
        if (edge) yield edge;
      }
    })(),
  );
  // One map, not a search of every package per DESCRIBES line (a file may hold many of both).
  const bySpdxId = new Map<string, (typeof doc.packages)[number]>();
  for (const p of doc.packages) if (p.spdxId !== undefined && !bySpdxId.has(p.spdxId)) bySpdxId.set(p.spdxId, p);
  const subject = describedSubject(
    doc.describes,
    (id) => bySpdxId.get(id),
    (p, id) => sbomSubject({ name: p.name, version: p.version, purl: p.purl, ref: id }),
  );
  return {
    format: 'spdx',
    variant: `SPDX ${doc.version.replace(/^SPDX-/, '').slice(0, 10)} tag-value`,
    ...acc,
    subject,
  };
}

// ---------------------------------------------------------------- SPDX 3.0 JSON-LD

function spdx3Purl(el: Record<string, unknown>): unknown {
  if (el['software_packageUrl'] !== undefined) return el['software_packageUrl'];
  const ids = el['externalIdentifier'];
  if (!Array.isArray(ids)) return undefined;
  const hit = (ids as unknown[]).find((x) => isObject(x) && x['externalIdentifierType'] === 'packageUrl');
  return isObject(hit) ? hit['identifier'] : undefined;
}

function fromSpdx3(doc: Record<string, unknown>, version: string): ParseResult {
  // A document is either a graph of elements or one element whose `element` lists others.
  const key = Array.isArray(doc['@graph']) ? '@graph' : 'element';
  const elements = doc[key] ?? [];
  if (!Array.isArray(elements))
    throw new InputError(
      `Expected "${key}" to be a list of elements in the SPDX 3 JSON-LD document, but it is a ${typeof elements}.`,
    );
  const acc: Accounting = { references: [], unresolved: [] };
  const tree = new SbomTree();
  const byId = new Map<string, Record<string, unknown>>();
  const roots: unknown[] = [];
  // Relationships may come before the packages and the root they name: read once all are known.
  const edges: Relationship[] = [];
  elements.forEach((el: unknown, i) => {
    if (!isObject(el)) return; // An element named only by id is declared elsewhere; it is not a package entry here.
    const type = el['type'] ?? el['@type'];
    if (type === 'Relationship' || type === 'LifecycleScopedRelationship') spdx3Edges(el, edges);
    if (type === 'SpdxDocument' || type === 'software_Sbom') {
      const root = el['rootElement'];
      // A loop, not push(...root): a spread of 200,000 ids overflows the call stack.
      for (const r of Array.isArray(root) ? (root as unknown[]) : [root]) roots.push(r);
    }
    if (typeof type !== 'string' || !SPDX3_PACKAGE_TYPES.has(type)) return;
    const id = el['spdxId'] ?? el['@id'];
    if (typeof id === 'string' && id !== '' && !byId.has(id)) byId.set(id, el);
    const before = acc.references.length;
    accountEntry(
      acc,
      spdx3Purl(el),
      entryLabel(el['name'], el['software_packageVersion']),
      typeof id === 'string' && id !== '' ? id : `${key}[${i}]`,
    );
    tree.package(
      acc,
      before,
      typeof id === 'string' && id !== '' ? id : undefined,
      nameOf(el['name']),
      sbomVersion(el['software_packageVersion']),
    );
  });
  readDependencies(tree, roots, edges);
  const subject = describedSubject(
    roots,
    (id) => byId.get(id),
    (el, id) => sbomSubject({ name: el['name'], version: el['software_packageVersion'], purl: spdx3Purl(el), ref: id }),
  );
  return { format: 'spdx', variant: `SPDX ${version} JSON-LD`, ...acc, subject };
}

/** SPDX 3 names a type by its last word, whether written `dependsOn` or as the full IRI. */
function lastWord(x: unknown): unknown {
  return typeof x === 'string' ? x.slice(x.lastIndexOf('/') + 1) : x;
}

/** One relationship's dependency edges (`from` → each of `to`); a lifecycle scope of development or test is dev. */
function spdx3Edges(el: Record<string, unknown>, out: Relationship[]): void {
  const scope = lastWord(el['scope']);
  const to = el['to'];
  for (const target of Array.isArray(to) ? (to as unknown[]) : [to]) {
    const edge = dependencyEdge(el['from'], lastWord(el['relationshipType']), target);
    if (!edge) continue;
    if (scope === 'development' || scope === 'test') edge.dev = true;
    out.push(edge);
  }
}
