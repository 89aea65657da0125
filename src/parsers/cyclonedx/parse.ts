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

function walk(acc: Accounting, list: unknown, path: string, depth: number, adapt: Adapt): void {
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
    const location = typeof e.bomRef === 'string' && e.bomRef !== '' ? `bom-ref ${e.bomRef}` : `${path}[${i}]`;
    accountEntry(acc, e.purl, e.label, location);
    if (e.children !== undefined) walk(acc, e.children, `${path}[${i}].components`, depth + 1, adapt);
  });
}

// ---------------------------------------------------------------- JSON

const fromJson: Adapt = (o) => ({
  bomRef: o['bom-ref'],
  purl: o['purl'],
  label: entryLabel(o['name'], o['version'], o['group']),
  children: o['components'],
});

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
  const metadata = doc['metadata'];
  let subject: SbomSubject | null = null;
  if (isObject(metadata) && isObject(metadata['component'])) {
    const c = metadata['component'];
    subject = sbomSubject({
      name: c['name'],
      version: c['version'],
      group: c['group'],
      purl: c['purl'],
      ref: c['bom-ref'],
    });
    walk(acc, c['components'], 'metadata.component.components', 1, fromJson);
  }
  walk(acc, doc['components'], 'components', 1, fromJson);
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
  children: xmlComponents(o['components']),
});

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
  let subject: SbomSubject | null = null;
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
      walk(acc, xmlComponents(c['components']), 'metadata.component.components', 1, fromXml);
    }
    walk(acc, xmlComponents(bom['components']), 'components', 1, fromXml);
  }
  return { format: 'cyclonedx', variant: `CycloneDX ${version} XML`, ...acc, subject };
}
