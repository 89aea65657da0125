/**
 * PyPI's two bulk sources (research §1.2): the Simple index's JSON form `GET /simple/` with every
 * project and its `_last-serial`, and the journal through XML-RPC `changelog_since_serial`, rows
 * `[name, version, timestamp, action, serial]` ordered by serial, at most 50,000 a call.
 *
 * Serials: the initial history holds serial 1…N·V (a "new release" row per version), event k
 * holds N·V + 1 + k. A release writes "new release" and a row per file (its burst); a deletion
 * "remove project". A PEP 792 status change (archived) writes no journal row and moves no serial:
 * warehouse's archive_project() records no JournalEntry, so the feed never says it.
 */
import { html, json, text, type SimAnswer } from '../answer.js';
import type { FeedRequest } from './feed-request.js';
import type { FeedEvent, GeneratedRegistry } from './registry.js';

const SIMPLE_JSON = 'application/vnd.pypi.simple.v1+json';
const MAX_ROWS = 50_000;
const FILE_ROWS = ['add source file', 'add py3 file', 'add cp312 file'];

type Row = [name: string, version: string | null, timestamp: number, action: string, serial: number];

function initialRows(reg: GeneratedRegistry): number {
  return reg.initialPackages * reg.shape.versionsEach;
}

/** The journal row an event writes, or null (a deprecation, a deletion's repeats). */
function rowOf(reg: GeneratedRegistry, e: FeedEvent): Row | null {
  const serial = initialRows(reg) + 1 + e.index;
  const name = reg.nameOf(e.package);
  const ts = Math.floor(e.at / 1000);
  if (e.kind === 'deprecate') return null;
  if (e.kind === 'delete') return e.burstPosition === 0 ? [name, null, ts, 'remove project', serial] : null;
  if (e.kind === 'create') return [name, e.version, ts, 'create', serial];
  if (e.burstPosition === 0) return [name, e.version, ts, 'new release', serial];
  const file = `${name.replace(/-/g, '_')}-${e.version}`;
  return [name, e.version, ts, `${FILE_ROWS[(e.burstPosition - 1) % FILE_ROWS.length]} ${file}`, serial];
}

/** The serial of a project's newest journal row by `nowMs`, or null when it has none (or is gone). */
export function lastSerial(reg: GeneratedRegistry, pkg: number, nowMs: number): number | null {
  const facts = reg.facts(pkg, nowMs);
  if (!facts || facts.deletedAt !== null) return null;
  const events = reg.eventsBy(nowMs);
  for (const change of [...facts.changes].reverse()) {
    for (const k of reg.burstOf(change).reverse()) {
      if (k >= events) continue;
      const e = reg.eventAt(k);
      const row = e ? rowOf(reg, e) : null;
      if (row) return row[4];
    }
  }
  return pkg < reg.initialPackages ? (pkg + 1) * reg.shape.versionsEach : null;
}

function simpleIndex(f: FeedRequest): SimAnswer {
  const reg = f.registry;
  const projects: { name: string; '_last-serial': number }[] = [];
  const count = reg.packagesBy(f.nowMs);
  for (let i = 0; i < count; i++) {
    const serial = lastSerial(reg, i, f.nowMs);
    if (serial !== null) projects.push({ name: reg.nameOf(i), '_last-serial': serial });
  }
  const last = initialRows(reg) + reg.eventsBy(f.nowMs);
  if (!String(f.ctx.headers['accept'] ?? '').includes(SIMPLE_JSON)) {
    const links = projects.map((p) => `<a href="/simple/${p.name}/">${p.name}</a>`).join('\n');
    return html(200, `<!DOCTYPE html><html><body>\n${links}\n</body></html>`, { 'x-pypi-last-serial': String(last) });
  }
  const answer = json(
    200,
    { meta: { '_last-serial': last, 'api-version': '1.4' }, projects },
    {
      'x-pypi-last-serial': String(last),
    },
  );
  answer.headers['content-type'] = SIMPLE_JSON;
  return answer;
}

function xmlValue(v: string | number | null): string {
  if (v === null) return '<value><nil/></value>';
  if (typeof v === 'number') return `<value><int>${v}</int></value>`;
  return `<value><string>${v.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</string></value>`;
}

function xmlRpcFault(code: number, message: string): SimAnswer {
  return text(
    200,
    `<?xml version='1.0'?>\n<methodResponse>\n<fault>\n<value><struct>\n<member><name>faultCode</name>${xmlValue(code)}</member>\n<member><name>faultString</name>${xmlValue(message)}</member>\n</struct></value>\n</fault>\n</methodResponse>\n`,
    'text/xml',
    {},
    false,
  );
}

/** changelog_since_serial(since): the journal rows after `since`, oldest first, at most MAX_ROWS. */
function changelogSinceSerial(f: FeedRequest): SimAnswer {
  const method = /<methodName>\s*([\w.]+)\s*<\/methodName>/.exec(f.body)?.[1];
  if (method !== 'changelog_since_serial') return xmlRpcFault(-32601, `method "${method ?? ''}" is not supported`);
  const param = /<(?:int|i4)>\s*(-?\d+)\s*<\/(?:int|i4)>/.exec(f.body)?.[1];
  if (param === undefined) return xmlRpcFault(-32602, 'changelog_since_serial takes one integer');
  const reg = f.registry;
  const since = Number(param);
  const rows: Row[] = [];
  const initial = initialRows(reg);
  const V = reg.shape.versionsEach;
  for (let serial = Math.max(1, since + 1); serial <= initial && rows.length < MAX_ROWS; serial++) {
    const j = serial - 1;
    const ts = Math.floor(reg.initialVersionTime(j) / 1000);
    rows.push([reg.nameOf(Math.floor(j / V)), `1.${j % V}.0`, ts, 'new release', serial]);
  }
  const events = reg.eventsBy(f.nowMs);
  for (let k = Math.max(0, since - initial); k < events && rows.length < MAX_ROWS; k++) {
    const e = reg.eventAt(k);
    const row = e ? rowOf(reg, e) : null;
    if (row) rows.push(row);
  }
  const items = rows.map((r) => `<value><array><data>\n${r.map(xmlValue).join('\n')}\n</data></array></value>`);
  return text(
    200,
    `<?xml version='1.0'?>\n<methodResponse>\n<params>\n<param>\n<value><array><data>\n${items.join('\n')}\n</data></array></value>\n</param>\n</params>\n</methodResponse>\n`,
    'text/xml',
    {},
    false,
  );
}

export function answerPypiFeed(f: FeedRequest): SimAnswer | null {
  if (f.method === 'GET' && (f.ctx.path === '/simple/' || f.ctx.path === '/simple')) return simpleIndex(f);
  if (f.method === 'POST' && (f.ctx.path === '/pypi' || f.ctx.path === '/pypi/')) return changelogSinceSerial(f);
  return null;
}
