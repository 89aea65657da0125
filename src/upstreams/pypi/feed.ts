/**
 * PyPI's bulk sources, parsed (research §1.2): the Simple index's JSON form (PEP 691/700,
 * `{meta: {_last-serial}, projects: [{name, _last-serial}]}`) and the journal's XML-RPC answer to
 * `changelog_since_serial`: rows `[name, version, timestamp, action, serial]`, version nil for
 * project-wide actions.
 */
import { XMLParser } from 'fast-xml-parser';
import { parsedBy } from '../following/feed-client.js';
import { asJsonObject } from '../../domain/json-object.js';

export type SimpleIndex = { last_serial: number; projects: [name: string, serial: number][] };
export type JournalRow = { name: string; version: string | null; timestamp: number; action: string; serial: number };

export function parseSimpleIndex(body: unknown): SimpleIndex | string {
  const doc = asJsonObject(body);
  const last = asJsonObject(doc?.['meta'])?.['_last-serial'];
  const projects = doc?.['projects'];
  if (typeof last !== 'number' || !Array.isArray(projects))
    return 'not a Simple index JSON page (meta._last-serial, projects)';
  const out: [string, number][] = [];
  for (const p of projects) {
    const name = asJsonObject(p)?.['name'];
    const serial = asJsonObject(p)?.['_last-serial'];
    if (typeof name === 'string' && typeof serial === 'number') out.push([name, serial]);
  }
  return { last_serial: last, projects: out };
}

const xml = new XMLParser({
  ignoreAttributes: true,
  // Entities are never expanded (a hostile body must not cost memory); the three XML-RPC writes are undone below.
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  isArray: (name) => name === 'value',
});

function unescapeXml(s: string): string {
  return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** An XML-RPC <value>: a string (also untyped), an int, or nil. */
function scalar(v: unknown): string | number | null | undefined {
  if (typeof v === 'string') return unescapeXml(v);
  const r = asJsonObject(v);
  if (!r) return undefined;
  if ('nil' in r) return null;
  for (const t of ['int', 'i4', 'i8']) if (typeof r[t] === 'string') return Number(r[t]);
  if (typeof r['string'] === 'string') return unescapeXml(r['string']);
  return r['string'] === '' ? '' : undefined;
}

export function parseJournal(text: unknown): JournalRow[] | string {
  if (typeof text !== 'string') return 'not an XML-RPC answer';
  let doc: unknown;
  try {
    doc = xml.parse(text);
  } catch (error) {
    return `not XML: ${error instanceof Error ? error.message : String(error)}`;
  }
  const response = asJsonObject(asJsonObject(doc)?.['methodResponse']);
  if (!response) return 'not an XML-RPC methodResponse';
  if (response['fault'] !== undefined) return `an XML-RPC fault: ${JSON.stringify(response['fault']).slice(0, 200)}`;
  const top = asJsonObject(asJsonObject(response['params'])?.['param'])?.['value'];
  const rows = asJsonObject(asJsonObject(Array.isArray(top) ? top[0] : undefined)?.['array'])?.['data'];
  const values = asJsonObject(rows)?.['value'] ?? [];
  if (!Array.isArray(values)) return 'the answer is not an array of rows';
  const out: JournalRow[] = [];
  for (const v of values) {
    const cells = asJsonObject(asJsonObject(asJsonObject(v)?.['array'])?.['data'])?.['value'];
    if (!Array.isArray(cells) || cells.length < 5) return 'a journal row without its five values';
    const [name, version, timestamp, action, serial] = cells.map(scalar);
    if (
      typeof name !== 'string' ||
      typeof timestamp !== 'number' ||
      typeof action !== 'string' ||
      typeof serial !== 'number'
    )
      return 'a journal row with a value of the wrong type';
    out.push({ name, version: typeof version === 'string' ? version : null, timestamp, action, serial });
  }
  return out;
}

/** The XML-RPC call for the journal after `serial`. */
export function changelogSinceSerialCall(serial: number): string {
  return `<?xml version='1.0'?>\n<methodCall>\n<methodName>changelog_since_serial</methodName>\n<params>\n<param>\n<value><int>${serial}</int></value>\n</param>\n</params>\n</methodCall>\n`;
}

/** The feed's answers as the HTTP client's facts, reachable by the thread that reads big bodies. */
export const SIMPLE_INDEX_FACTS = parsedBy('pypi-simple/1', parseSimpleIndex, import.meta.url);
export const JOURNAL_FACTS = parsedBy('pypi-journal/1', parseJournal, import.meta.url);
