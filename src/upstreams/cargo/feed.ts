/**
 * crates.io's bulk sources, parsed (research §1.3): the updates feed (RSS 2.0 items titled "New
 * crate version published: {name} v{version}" with `crates:name`, `crates:version` and an RFC 2822
 * `pubDate`; rust-lang/crates.io sync_updates_feed.rs@0399c94504c7) and the daily database dump,
 * a gzipped tar whose `<stamp>/metadata.json` has the dump's `timestamp` and whose
 * `<stamp>/data/crates.csv` has every crate's `name` and `updated_at`.
 */
import { gunzipSync } from 'node:zlib';
import { parsedBy } from '../following/feed-client.js';

export type Publication = { name: string; version: string; at: number };
export type CratesDump = { timestamp: string; crates: [name: string, updatedAt: number][] };

function tag(item: string, name: string): string | null {
  const open = `<${name}>`;
  const start = item.indexOf(open);
  if (start < 0) return null;
  const end = item.indexOf(`</${name}>`, start);
  return end < 0 ? null : item.slice(start + open.length, end).trim();
}

export function parseUpdatesFeed(text: unknown): Publication[] | string {
  if (typeof text !== 'string') return 'not an RSS document';
  if (!text.includes('<rss')) return 'not an RSS document';
  const out: Publication[] = [];
  for (const item of text.split('<item>').slice(1)) {
    let name = tag(item, 'crates:name');
    let version = tag(item, 'crates:version');
    if (name === null || version === null) {
      // Older items carry only the title.
      const m = /^New crate version published: (\S+) v(\S+)$/.exec(tag(item, 'title') ?? '');
      if (!m) return `an item naming no crate: ${item.slice(0, 80)}`;
      [name, version] = [m[1]!, m[2]!];
    }
    const at = Date.parse(tag(item, 'pubDate') ?? '');
    if (Number.isNaN(at)) return `an item without a pubDate: ${item.slice(0, 80)}`;
    out.push({ name, version, at });
  }
  return out;
}

/** A NUL-terminated header field. */
function field(header: Buffer, start: number, length: number): string {
  const raw = header.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? raw.length : end).toString('utf8');
}

/** The files of a ustar archive, by name. */
function untar(tar: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (let at = 0; at + 512 <= tar.length;) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const name = field(header, 0, 100);
    const prefix = field(header, 345, 155);
    const size = Number.parseInt(field(header, 124, 12).trim() || '0', 8);
    files.set(prefix ? `${prefix}/${name}` : name, tar.subarray(at + 512, at + 512 + size));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

/** One CSV record at a time (RFC 4180: quoted fields may hold commas, quotes and newlines). */
function* csvRecords(text: string): Generator<string[]> {
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n') {
      record.push(field);
      yield record;
      record = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || record.length > 0) yield [...record, field];
}

/** The dump's `2017-09-21 23:17:58.364469` (UTC, no zone) as epoch milliseconds. */
function dumpInstant(s: string): number {
  return Date.parse(`${s.replace(' ', 'T').slice(0, 23)}Z`);
}

export function parseDump(bytes: unknown): CratesDump | string {
  if (!(bytes instanceof Uint8Array)) return 'not a dump';
  let files: Map<string, Buffer>;
  try {
    files = untar(gunzipSync(bytes));
  } catch (error) {
    return `not a gzipped tar: ${error instanceof Error ? error.message : String(error)}`;
  }
  const find = (suffix: string) => [...files].find(([name]) => name.endsWith(suffix))?.[1];
  const metadata = find('/metadata.json');
  const crates = find('/data/crates.csv');
  if (!metadata || !crates) return 'a dump without metadata.json and data/crates.csv';
  const timestamp = (JSON.parse(metadata.toString('utf8')) as { timestamp?: unknown }).timestamp;
  if (typeof timestamp !== 'string') return "the dump's metadata.json has no timestamp";
  const records = csvRecords(crates.toString('utf8'));
  const first = records.next();
  const header: string[] = first.done ? [] : first.value;
  const nameAt = header.indexOf('name');
  const updatedAt = header.indexOf('updated_at');
  if (nameAt < 0 || updatedAt < 0) return 'crates.csv without name and updated_at columns';
  const out: [string, number][] = [];
  for (const r of records) {
    const name = r[nameAt];
    const updated = dumpInstant(r[updatedAt] ?? '');
    if (name && !Number.isNaN(updated)) out.push([name, updated]);
  }
  return { timestamp, crates: out };
}

/** The feed's answers as the HTTP client's facts, reachable by the thread that reads big bodies. */
export const DUMP_FACTS = parsedBy('crates-dump/1', parseDump, import.meta.url);
export const UPDATES_FACTS = parsedBy('crates-updates/1', parseUpdatesFeed, import.meta.url);
