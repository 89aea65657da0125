/**
 * nuget.org's catalog (research §1.5; NuGet docs catalog-resource.md@1d1406764c6a):
 * `/v3/catalog0/index.json` lists pages with their commitTimeStamp; each page lists at most 550
 * items `{@id, @type: nuget:PackageDetails | nuget:PackageDelete, commitTimeStamp, nuget:id,
 * nuget:version}`, in commit order. Positions: the initial history (id i's versions are positions
 * i·V … i·V + V − 1, one commit each), then one position per event.
 *
 * A commit holds `commitSize` consecutive events under the first one's timestamp. Written whole, a
 * commit appears at once when its last item is written. With the mid-write fault its items appear
 * one by one: a page read meanwhile later gains items under a commitTimeStamp already seen. The
 * index's own commitTimeStamp is always the newest complete commit.
 */
import { json, type SimAnswer } from '../answer.js';
import { drawHex } from './draw.js';
import type { FeedRequest } from './feed-request.js';
import type { GeneratedRegistry } from './registry.js';

const PAGE_SIZE = 550;
const COMMIT_ID_SALT = 109;

/** NuGet writes seven fractional digits; the sub-millisecond ones come from the event's own instant. */
export function nugetTimestamp(ms: number): string {
  const whole = Math.floor(ms);
  const fraction = String(Math.floor((ms - whole) * 10_000)).padStart(4, '0');
  return new Date(whole).toISOString().replace(/Z$/, `${fraction}Z`);
}

function uuid(seed: number, a: number): string {
  const h = drawHex(seed, a, 0, COMMIT_ID_SALT, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

interface Catalog {
  reg: GeneratedRegistry;
  /** Initial positions: N·V. */
  initial: number;
  commitSize: number;
  midWrite: boolean;
  events: number;
  nowMs: number;
}

function catalogAt(f: FeedRequest): Catalog {
  const mid = f.faults.nuget?.midWrite;
  const reg = f.registry;
  return {
    reg,
    initial: reg.initialPackages * reg.shape.versionsEach,
    commitSize: Math.max(1, mid?.commitSize ?? 1),
    midWrite: mid !== undefined,
    events: reg.eventsBy(f.nowMs),
    nowMs: f.nowMs,
  };
}

/** Events whose commit is complete by now: all events of the commits whose last event has happened. */
function completeEvents(c: Catalog): number {
  return Math.floor(c.events / c.commitSize) * c.commitSize;
}

/** Positions visible now: whole commits only, or every written item under the mid-write fault. */
function visiblePositions(c: Catalog): number {
  return c.initial + (c.midWrite ? c.events : completeEvents(c));
}

/** The commit timestamp of the item at a position. */
function commitTime(c: Catalog, position: number): number {
  if (position < c.initial) return c.reg.initialVersionTime(position);
  const k = position - c.initial;
  return c.reg.eventTime(k - (k % c.commitSize));
}

function item(c: Catalog, base: string, position: number): Record<string, string> | null {
  const reg = c.reg;
  const V = reg.shape.versionsEach;
  let id: string;
  let version: string;
  let type = 'nuget:PackageDetails';
  if (position < c.initial) {
    id = reg.nameOf(Math.floor(position / V));
    version = `1.${position % V}.0`;
  } else {
    const e = reg.eventAt(position - c.initial);
    if (!e) return null;
    id = reg.nameOf(e.package);
    version = e.version;
    if (e.kind === 'delete') type = 'nuget:PackageDelete';
  }
  const ts = nugetTimestamp(commitTime(c, position));
  const path = ts.slice(0, 19).replace(/[-:T]/g, '.');
  return {
    '@id': `${base}/v3/catalog0/data/${path}/${id.toLowerCase()}.${version}.json`,
    '@type': type,
    commitId: uuid(reg.seed, commitTime(c, position)),
    commitTimeStamp: ts,
    'nuget:id': id,
    'nuget:version': version,
  };
}

export function answerNugetCatalog(f: FeedRequest): SimAnswer | null {
  const c = catalogAt(f);
  const base = f.ctx.base;
  const visible = visiblePositions(c);
  const pages = Math.ceil(visible / PAGE_SIZE);
  if (f.ctx.path === '/v3/catalog0/index.json') {
    const complete = c.initial + completeEvents(c);
    const items = [];
    for (let p = 0; p < pages; p++) {
      const last = Math.min(visible, (p + 1) * PAGE_SIZE) - 1;
      items.push({
        '@id': `${base}/v3/catalog0/page${p}.json`,
        '@type': 'CatalogPage',
        commitId: uuid(c.reg.seed, commitTime(c, last)),
        commitTimeStamp: nugetTimestamp(commitTime(c, last)),
        // Positions, not items: a deleted package's later slots hold none, and counting them out would read every event.
        count: last + 1 - p * PAGE_SIZE,
      });
    }
    return json(
      200,
      {
        '@id': `${base}/v3/catalog0/index.json`,
        '@type': ['CatalogRoot', 'AppendOnlyCatalog', 'Permalink'],
        commitId: uuid(c.reg.seed, commitTime(c, complete - 1)),
        commitTimeStamp: nugetTimestamp(commitTime(c, complete - 1)),
        count: pages,
        items,
      },
      {},
      false,
    );
  }
  const m = /^\/v3\/catalog0\/page(\d+)\.json$/.exec(f.ctx.path);
  if (!m) return null;
  const p = Number(m[1]);
  if (p >= pages) return null;
  const items = [];
  for (let pos = p * PAGE_SIZE; pos < Math.min(visible, (p + 1) * PAGE_SIZE); pos++) {
    const it = item(c, base, pos);
    if (it) items.push(it);
  }
  const last = Math.min(visible, (p + 1) * PAGE_SIZE) - 1;
  return json(
    200,
    {
      '@id': `${base}/v3/catalog0/page${p}.json`,
      '@type': 'CatalogPage',
      commitId: uuid(c.reg.seed, commitTime(c, last)),
      commitTimeStamp: nugetTimestamp(commitTime(c, last)),
      count: items.length,
      items,
      parent: `${base}/v3/catalog0/index.json`,
    },
    {},
    false,
  );
}
