/**
 * CycloneDX 1.1–1.7, JSON and XML: every entry of `components`, recursively through nested
 * `components`, becomes a reference (purl of an observed kind) or an unresolved entry with
 * the reason. `metadata.component` is the SBOM's subject, not one of its parts, and the
 * corpus counts leave it out, so it is not a result: the answer names it as `subject`. Its
 * own nested components are parts of the subject and are counted like any other (as
 * Dependency-Track does).
 */
import { excerpt } from '../../domain/text.js';
import { cycloneDxNamespace, rootStartTag } from './detect.js';
import { checkXml, decodeXmlText, xmlParser } from '../xml-document.js';
import { InputError, addUnresolved, type ParseResult, type SbomSubject } from '../reference.js';
import { accountEntry, entryLabel, sbomSubject, shownValue, type Accounting } from '../purl-entry.js';
import { checkJsonDepth } from '../json-depth.js';
import { SbomTree, sbomVersion } from '../sbom-tree.js';

/** Deeper than any real BOM nests; the walk is recursive, so hostile input must stop here. */
export const MAX_COMPONENT_DEPTH = 64;
// Each component level is two XML elements (<components><component>) plus a few wrappers.
export const MAX_XML_ELEMENT_DEPTH = MAX_COMPONENT_DEPTH * 2 + 32;
/**
 * Different element and attribute names in one SBOM: real ones use under a hundred, and the whole
 * CycloneDX 1.7 schema, cryptography and all, defines 444 (425 elements, 19 attributes). 4 MB of
 * elements under 1,000 names cost a third more than under a hundred; under 500, an eighth.
 */
export const MAX_XML_NAMES = 500;

/** The fields the walk needs, read the same way from a JSON object or a parsed XML element. */
interface Entry {
  bomRef: unknown;
  purl: unknown;
  label: string;
  /** As the SBOM names it in a path: `name`, or `group/name`. */
  name: string;
  version: unknown;
  children: unknown;
}

type Adapt = (raw: Record<string, unknown>) => Entry;

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

export function parseCycloneDx(text: string): ParseResult {
  const body = text.replace(/^\uFEFF/, '').trimStart();
  if (body.startsWith('{')) return parseJson(body);
  if (body.startsWith('<')) return parseXml(body);
  throw new InputError(
    `Expected a CycloneDX SBOM in JSON (starting with "{") or XML (starting with "<"), but the text starts with ${JSON.stringify(body.slice(0, 20))}.`,
  );
}

function walk(
  acc: Accounting,
  tree: SbomTree,
  list: unknown,
  path: string,
  depth: number,
  adapt: Adapt,
  keys?: Set<string>,
): void {
  if (list === undefined || list === null || list === '') return;
  if (!Array.isArray(list)) {
    throw new InputError(`Expected "${path}" to be a list of components, but it is a ${typeof list}.`);
  }
  if (depth > MAX_COMPONENT_DEPTH) {
    throw new InputError(
      `Components are nested more than ${MAX_COMPONENT_DEPTH} levels deep (at "${path.slice(0, 120)}…"); no real SBOM nests that far, so the file is refused.`,
    );
  }
  list.forEach((raw: unknown, i) => {
    if (!isObject(raw)) {
      addUnresolved(acc, {
        input: shownValue(raw),
        location: `${path}[${i}]`,
        reason: 'is not a component object, so it names nothing to look up',
      });
      return;
    }
    const e = adapt(raw);
    // The entry's path is spelt out only where it is shown (no bom-ref) or nested components
    // follow: a big SBOM has ten thousand entries with a bom-ref and no children.
    const key = typeof e.bomRef === 'string' && e.bomRef !== '' ? e.bomRef : undefined;
    if (key !== undefined) keys?.add(key);
    const location = key !== undefined ? `bom-ref ${key}` : `${path}[${i}]`;
    const before = acc.references.length;
    accountEntry(acc, e.purl, e.label, location);
    tree.package(acc, before, key, e.name, sbomVersion(e.version));
    if (e.children !== undefined) walk(acc, tree, e.children, `${path}[${i}].components`, depth + 1, adapt, keys);
  });
}

// ---------------------------------------------------------------- JSON

/** `group/name` or `name`, as a path shows the component. */
function pathName(name: unknown, group: unknown): string {
  const n = typeof name === 'string' && name !== '' ? name.slice(0, 200) : '(unnamed)';
  return typeof group === 'string' && group !== '' ? `${group.slice(0, 200)}/${n}` : n;
}

const fromJson: Adapt = (o) => ({
  bomRef: o['bom-ref'],
  purl: o['purl'],
  label: entryLabel(o['name'], o['version'], o['group']),
  name: pathName(o['name'], o['group']),
  version: o['version'],
  children: o['components'],
});

/**
 * The `dependencies` graph (`ref` → `dependsOn`), read into the tree: what the subject
 * (metadata.component) depends on is direct. Entries that are not strings are left out: the
 * graph is extra information and must not sink the component list.
 *
 * When the graph never mentions the subject, its roots (entries nothing depends on) are direct
 * only if the subject has a bom-ref and none of its own parts (metadata.component.components) is
 * in the graph: then the generator just left the project out (the CycloneDX Maven plugin 2.0 does:
 * dropwizard's roots are junit, guava, jackson…), and something in the project must need each
 * root. Otherwise no scope is given: with no bom-ref for the subject (cargo-sbom) the project
 * itself is a component of the graph, so its roots are the project, not its dependencies.
 */
function readGraph(
  tree: SbomTree,
  entries: Iterable<{ ref: unknown; dependsOn: Iterable<unknown> }>,
  subject: string | undefined,
  parts: ReadonlySet<string>,
): void {
  const refs = new Set<string>();
  const targets = new Set<string>();
  for (const { ref, dependsOn } of entries) {
    if (typeof ref !== 'string') continue;
    refs.add(ref);
    const fromSubject = ref === subject;
    for (const to of dependsOn) {
      if (typeof to !== 'string') continue;
      targets.add(to);
      if (fromSubject) tree.direct(to);
      else tree.edge(ref, to);
    }
  }
  if (subject === undefined || targets.has(subject) || refs.has(subject)) return;
  for (const key of parts) if (targets.has(key) || refs.has(key)) return;
  for (const ref of refs) if (!targets.has(ref)) tree.direct(ref);
}

function* jsonDependencies(list: unknown[]): Generator<{ ref: unknown; dependsOn: unknown[] }> {
  for (const d of list) {
    if (!isObject(d)) continue;
    yield { ref: d['ref'], dependsOn: Array.isArray(d['dependsOn']) ? d['dependsOn'] : [] };
  }
}

function parseJson(body: string): ParseResult {
  // Components nested past MAX_COMPONENT_DEPTH are refused by the walk, but only after JSON.parse built them all.
  checkJsonDepth(body);
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch (e) {
    throw new InputError(
      `Expected CycloneDX JSON, but the JSON is malformed: ${e instanceof Error ? e.message : String(e)}.`,
    );
  }
  if (!isObject(doc) || doc['bomFormat'] !== 'CycloneDX') {
    throw new InputError(
      'Expected a CycloneDX JSON document with "bomFormat": "CycloneDX" at the top level, but it has none.',
    );
  }
  const spec = typeof doc['specVersion'] === 'string' ? `${doc['specVersion'].slice(0, 10)} ` : '';
  const acc: Accounting = { references: [], unresolved: [] };
  const tree = new SbomTree();
  const metadata = doc['metadata'];
  let subject: SbomSubject | null = null;
  let subjectRef: string | undefined;
  const parts = new Set<string>();
  if (isObject(metadata) && isObject(metadata['component'])) {
    const c = metadata['component'];
    subject = sbomSubject({
      name: c['name'],
      version: c['version'],
      group: c['group'],
      purl: c['purl'],
      ref: c['bom-ref'],
    });
    if (typeof c['bom-ref'] === 'string' && c['bom-ref'] !== '') tree.subject((subjectRef = c['bom-ref']));
    walk(acc, tree, c['components'], 'metadata.component.components', 1, fromJson, parts);
  }
  walk(acc, tree, doc['components'], 'components', 1, fromJson);
  const dependencies = doc['dependencies'];
  if (Array.isArray(dependencies)) readGraph(tree, jsonDependencies(dependencies), subjectRef, parts);
  tree.placeAll(Array.isArray(dependencies));
  return { format: 'cyclonedx', variant: `CycloneDX ${spec}JSON`, ...acc, subject };
}

// ---------------------------------------------------------------- XML

/**
 * Element text whether the parser gave a string or an object with `#text` (attributes present),
 * with `&amp;` and the other predefined references decoded (the parser leaves them as written).
 */
function xmlText(x: unknown): unknown {
  const text = isObject(x) ? x['#text'] : x;
  return typeof text === 'string' ? decodeXmlText(text) : text;
}

/**
 * The components a `<components>` element holds, always a list: `<components/>` parses to '',
 * `<components><component/></components>` to { component: '' } and two of them to
 * { component: ['', ''] }. Anything else is passed on for the walk to describe.
 */
function xmlComponents(nested: unknown): unknown {
  if (!isObject(nested)) return nested;
  const listed = nested['component'];
  return listed === undefined ? [] : Array.isArray(listed) ? listed : [listed];
}

const fromXml: Adapt = (o) => ({
  bomRef: xmlText(o['@_bom-ref']),
  purl: xmlText(o['purl']),
  label: entryLabel(xmlText(o['name']), xmlText(o['version']), xmlText(o['group'])),
  name: pathName(xmlText(o['name']), xmlText(o['group'])),
  version: xmlText(o['version']),
  children: xmlComponents(o['components']),
});

/** `<dependency>` children as a list, whichever shape the parser gave (one, several, none). */
function xmlList(x: unknown): unknown[] {
  return x === undefined ? [] : Array.isArray(x) ? x : [x];
}

/**
 * `<dependencies><dependency ref="a"><dependency ref="b"/></dependency></dependencies>`. The
 * schema lets a nested `<dependency>` hold its own: those are its edges, read from a stack (the
 * nesting is bounded by MAX_XML_ELEMENT_DEPTH, but a loop needs no bound at all).
 */
function* xmlDependencies(top: unknown[]): Generator<{ ref: unknown; dependsOn: unknown[] }> {
  const stack = [...top];
  while (stack.length > 0) {
    const d = stack.pop();
    if (!isObject(d)) continue;
    const children = xmlList(d['dependency']);
    const dependsOn: unknown[] = [];
    for (const child of children) {
      if (!isObject(child)) continue;
      dependsOn.push(xmlText(child['@_ref']));
      if (child['dependency'] !== undefined) stack.push(child);
    }
    yield { ref: xmlText(d['@_ref']), dependsOn };
  }
}

// No `isArray` by path: xmlComponents makes the lists, so the parser needs no path of any element.
const xmlReader = xmlParser(MAX_XML_ELEMENT_DEPTH, { ignoreAttributes: false, attributeNamePrefix: '@_' });

function parseXml(body: string): ParseResult {
  checkXml(body, 'CycloneDX XML', { depth: MAX_XML_ELEMENT_DEPTH, names: MAX_XML_NAMES });
  const version = cycloneDxNamespace(rootStartTag(body) ?? '');
  let doc: unknown;
  try {
    doc = xmlReader.parse(body);
  } catch (e) {
    throw new InputError(
      `Expected CycloneDX XML, but it could not be read: ${excerpt(e instanceof Error ? e.message : String(e), 160)}.`,
    );
  }
  const bom = isObject(doc) ? doc['bom'] : undefined;
  if (!version || bom === undefined) {
    throw new InputError(
      'Expected a CycloneDX XML document whose root element is <bom> in the namespace http://cyclonedx.org/schema/bom/1.N, but none was found.',
    );
  }
  const acc: Accounting = { references: [], unresolved: [] };
  const tree = new SbomTree();
  let subject: SbomSubject | null = null;
  let graph = false;
  let subjectRef: string | undefined;
  const parts = new Set<string>();
  if (isObject(bom)) {
    const metadata = bom['metadata'];
    const c = isObject(metadata) ? metadata['component'] : undefined;
    if (isObject(c)) {
      subject = sbomSubject({
        name: xmlText(c['name']),
        version: xmlText(c['version']),
        group: xmlText(c['group']),
        purl: xmlText(c['purl']),
        ref: xmlText(c['@_bom-ref']),
      });
      const ref = xmlText(c['@_bom-ref']);
      if (typeof ref === 'string' && ref !== '') tree.subject((subjectRef = ref));
      walk(acc, tree, xmlComponents(c['components']), 'metadata.component.components', 1, fromXml, parts);
    }
    walk(acc, tree, xmlComponents(bom['components']), 'components', 1, fromXml);
    // `<dependencies/>` parses to '', `<dependencies>…</dependencies>` to an object.
    const dependencies = bom['dependencies'];
    graph = dependencies !== undefined;
    if (isObject(dependencies))
      readGraph(tree, xmlDependencies(xmlList(dependencies['dependency'])), subjectRef, parts);
  }
  tree.placeAll(graph);
  return { format: 'cyclonedx', variant: `CycloneDX ${version} XML`, ...acc, subject };
}
