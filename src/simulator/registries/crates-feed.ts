/**
 * crates.io's bulk sources (research §1.3): the updates feed static.crates.io/rss/updates.xml
 * (rust-lang/crates.io src/worker/jobs/rss/sync_updates_feed.rs@0399c94504c7: the versions of
 * the past 60 minutes, but at least the newest 100, items titled "New crate version published:
 * {name} v{version}" with `crates:name` and `crates:version`), and the daily database dump
 * static.crates.io/db-dump.tar.gz (a tar of `<stamp>/metadata.json` and `<stamp>/data/*.csv`;
 * crates_io_database_dump's dump-db.toml@0189f5d7297c names the columns). A yank and a deletion
 * never reach the feed; a deletion shows in the next dump only as the crate's absence.
 */
import { gzipSync } from 'node:zlib';
import { text, type HttpAnswer, type SimAnswer } from '../answer.js';
import { drawHex } from './draw.js';
import { isoAt, type FeedRequest } from './feed-request.js';
import type { GeneratedRegistry } from './registry.js';
import { tarFile } from './tar.js';

const ALWAYS_INCLUDE_MS = 60 * 60_000;
const NUM_ITEMS = 100;
/** The dump is made once a day; this long after midnight UTC (crates.io's own hour is not documented). */
export const DUMP_HOUR_MS = 2 * 3_600_000;
const DAY_MS = 86_400_000;

interface Published {
  name: string;
  version: string;
  at: number;
}

/** Publications newest first: the events after the start, then the initial history. */
function* newestPublications(reg: GeneratedRegistry, nowMs: number): Generator<Published> {
  for (let k = reg.eventsBy(nowMs) - 1; k >= 0; k--) {
    const e = reg.eventAt(k);
    if (e && (e.kind === 'publish' || e.kind === 'create'))
      yield { name: reg.nameOf(e.package), version: e.version, at: e.at };
  }
  const V = reg.shape.versionsEach;
  for (let j = reg.initialPackages * V - 1; j >= 0; j--)
    yield { name: reg.nameOf(Math.floor(j / V)), version: `1.${j % V}.0`, at: reg.initialVersionTime(j) };
}

function rfc2822(ms: number): string {
  return new Date(Math.floor(ms)).toUTCString().replace('GMT', '+0000');
}

function updatesFeed(f: FeedRequest): SimAnswer {
  const items: string[] = [];
  for (const p of newestPublications(f.registry, f.nowMs)) {
    if (items.length >= NUM_ITEMS && p.at <= f.nowMs - ALWAYS_INCLUDE_MS) break;
    const link = `https://crates.io/crates/${p.name}/${p.version}`;
    items.push(
      `<item><title>New crate version published: ${p.name} v${p.version}</title><link>${link}</link><description>The ${p.name} crate (simulated)</description><guid isPermaLink="true">${link}</guid><pubDate>${rfc2822(p.at)}</pubDate><crates:name>${p.name}</crates:name><crates:version>${p.version}</crates:version></item>`,
    );
  }
  return text(
    200,
    `<?xml version="1.0" encoding="utf-8"?><rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:crates="https://crates.io/"><channel><title>crates.io: recent updates</title><link>https://crates.io/</link><description>Recent version publishes on the crates.io package registry</description><language>en</language><atom:link href="${f.ctx.base}/rss/updates.xml" rel="self" type="application/rss+xml"/>${items.join('')}</channel></rss>`,
    'application/rss+xml',
    {},
    false,
  );
}

/** The dump's timestamp format: `2026-03-01 02:00:00.123456` (UTC, no zone). */
function dumpTime(ms: number): string {
  const iso = new Date(Math.floor(ms)).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}000`;
}

/** The newest dump made by `nowMs`: its instant. */
export function dumpAt(nowMs: number): number {
  const day = Math.floor((nowMs - DUMP_HOUR_MS) / DAY_MS);
  return day * DAY_MS + DUMP_HOUR_MS;
}

function csvField(v: string | number): string {
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function dump(f: FeedRequest): HttpAnswer {
  const reg = f.registry;
  const at = dumpAt(f.nowMs);
  const stamp = new Date(at).toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  const crates = ['created_at,description,documentation,homepage,id,max_upload_size,name,readme,repository,updated_at'];
  const versions = [
    'checksum,crate_id,crate_size,created_at,downloads,features,id,license,links,num,updated_at,yanked',
  ];
  let versionId = 0;
  const count = reg.packagesBy(at);
  for (let i = 0; i < count; i++) {
    const facts = reg.facts(i, at);
    if (!facts || facts.deletedAt !== null) continue;
    const created = facts.versions[0]!.at;
    // A yank touches the crate: its updated_at moves with a publication or a retirement alike.
    const updated = Math.max(facts.versions.at(-1)!.at, facts.deprecatedAt ?? 0);
    crates.push(
      [
        dumpTime(created),
        csvField(`The ${facts.name} crate, "simulated"`),
        '',
        '',
        i + 1,
        '',
        facts.name,
        '',
        '',
        dumpTime(updated),
      ].join(','),
    );
    for (const v of facts.versions) {
      const yanked = facts.deprecatedAt !== null ? 't' : 'f';
      versions.push(
        [
          drawHex(reg.seed, i, ++versionId, 113, 64),
          i + 1,
          1024,
          dumpTime(v.at),
          0,
          '{}',
          versionId,
          'MIT',
          '',
          v.version,
          dumpTime(facts.deprecatedAt ?? v.at),
          yanked,
        ].join(','),
      );
    }
  }
  const metadata = JSON.stringify({ timestamp: isoAt(at), crates_io_commit: drawHex(reg.seed, at, 0, 127, 40) });
  const tar = Buffer.concat([
    tarFile(`${stamp}/metadata.json`, metadata, at),
    tarFile(`${stamp}/data/crates.csv`, `${crates.join('\n')}\n`, at),
    tarFile(`${stamp}/data/versions.csv`, `${versions.join('\n')}\n`, at),
    Buffer.alloc(1024),
  ]);
  return {
    status: 200,
    headers: { 'content-type': 'application/gzip', 'last-modified': new Date(at).toUTCString() },
    body: gzipSync(tar),
  };
}

export function answerCratesStatic(f: FeedRequest): SimAnswer | null {
  if (f.ctx.path === '/rss/updates.xml') return updatesFeed(f);
  if (f.ctx.path === '/db-dump.tar.gz') return dump(f);
  return null;
}
