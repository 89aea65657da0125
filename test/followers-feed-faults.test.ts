import { afterEach, describe, expect, it } from 'vitest';
import { normaliseComponent } from '../src/domain/component.js';
import type { FollowBatch } from '../src/upstreams/following/follower.js';
import { dumpAt } from '../src/simulator/registries/crates-feed.js';
import { nugetTimestamp } from '../src/simulator/registries/nuget-feed.js';
import {
  changesBetween,
  DAY,
  dateOf,
  hintDates,
  pass,
  startFollowed,
  type Followed,
} from './support/followed-registries.js';

/**
 * The other feeds' contiguity faults (research §1): Packagist's 24-hour log answering `resync`,
 * a NuGet catalog page read while a commit is being written, crates.io's updates feed a follower
 * fell out of, RubyGems' monthly rebuild of /versions. Each leaves no change unreported once the
 * follower has recovered.
 */
const START = Date.parse('2026-01-05T12:00:00Z');
const HOUR = 3_600_000;
let f: Followed;
afterEach(() => f.close());

/** What a scheduler knows from a follower's output: each package's last marker. */
function markers(batches: FollowBatch[]): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const b of batches) {
    for (const l of b.listed) out.set(l.component.id, l.marker);
    for (const h of b.hints) out.set(h.component.id, h.marker);
  }
  return out;
}

describe('Packagist: resync', () => {
  it('re-lists every package when its 24-hour log is gone, then follows from a fresh timestamp', async () => {
    f = await startFollowed({ at: new Date(START).toISOString(), scales: { composer: 0.01 } });
    const reg = f.reg('composer');
    const follower = f.follower('composer');
    const cursor = { value: null as string | null };
    await pass(follower, cursor);
    // Away for two days: past the log Packagist keeps.
    f.now.at = new Date(START + 2 * DAY);
    const recovery = await pass(follower, cursor);
    expect(recovery[0]?.faults.map((x) => x.kind)).toEqual(['resync']);
    expect(recovery[0]?.contiguous).toBe(false);
    const relisted = new Set(
      recovery.flatMap((b) => (b.relist === 'resync' ? b.listed.map((l) => l.component.id) : [])),
    );
    // Packagist's list carries names only: every package changed meanwhile is among those to compare.
    const gap = changesBetween(reg, START, START + 2 * DAY).filter((e) => e.kind !== 'delete');
    expect(gap.length).toBeGreaterThan(20);
    for (const e of gap) expect(relisted.has(reg.nameOf(e.package))).toBe(true);
    // Following resumed: the next day's changes are hinted, dated by their time.
    const next: FollowBatch[] = [];
    f.now.at = new Date(START + 3 * DAY);
    await pass(follower, cursor, next);
    expect(next.flatMap((b) => b.faults)).toEqual([]);
    const hinted = hintDates(next);
    const later = changesBetween(reg, START + 2 * DAY, START + 3 * DAY);
    expect(later.length).toBeGreaterThan(10);
    for (const e of later) expect(hinted.get(reg.nameOf(e.package))).toBeDefined();
  });

  it('re-lists on a resync however recent the cursor (switched on in the simulator)', async () => {
    f = await startFollowed({ at: new Date(START).toISOString(), scales: { composer: 0.002 } });
    const follower = f.follower('composer');
    const cursor = { value: null as string | null };
    await pass(follower, cursor);
    f.sim.setFeedFaults({ composer: { resync: true } });
    f.now.at = new Date(START + HOUR);
    const recovery = await pass(follower, cursor);
    expect(recovery.some((b) => b.relist === 'resync' && b.listed.length > 0)).toBe(true);
  });
});

describe('NuGet: a catalog page read mid-write', () => {
  it('never moves its cursor past the last complete commit, so a page that later gains items loses none', async () => {
    const commitSize = 3;
    f = await startFollowed({
      at: new Date(START).toISOString(),
      scales: { nuget: 0.008 },
      faults: { nuget: { midWrite: { commitSize } } },
    });
    const reg = f.reg('nuget');
    const follower = f.follower('nuget');
    const cursor = { value: null as string | null };
    await pass(follower, cursor);
    const batches: FollowBatch[] = [];
    let partial = 0;
    for (let h = 1; h <= 48; h++) {
      f.now.at = new Date(START + h * HOUR);
      // What the catalog shows: a last page holding items of a commit the index does not count yet.
      const index = (await (await fetch(`${f.sim.feeds.nuget}/v3/catalog0/index.json`)).json()) as {
        commitTimeStamp: string;
        items: { '@id': string }[];
      };
      const last = (await (await fetch(index.items.at(-1)!['@id'])).json()) as { items: { commitTimeStamp: string }[] };
      if (last.items.some((i) => i.commitTimeStamp > index.commitTimeStamp)) partial++;
      await pass(follower, cursor, batches);
    }
    expect(partial).toBeGreaterThan(0);
    const hinted = hintDates(batches);
    // Every item of every commit complete by the end, dated by its commit.
    const complete = Math.floor(reg.eventsBy(START + 48 * HOUR) / commitSize) * commitSize;
    const changes = changesBetween(reg, START, START + 48 * HOUR).filter((e) => e.index < complete);
    expect(changes.length).toBeGreaterThan(20);
    for (const e of changes) {
      const committed = nugetTimestamp(reg.eventTime(e.index - (e.index % commitSize))).slice(0, 10);
      const id = normaliseComponent('nuget', reg.nameOf(e.package)).id;
      expect({ id, dates: hinted.get(id) ?? [] }).toEqual({
        id,
        dates: expect.arrayContaining([committed]) as unknown,
      });
    }
  });
});

describe('crates.io: falling out of the updates feed', () => {
  it('re-lists from the dump, and the next dump hints what the feed dropped', async () => {
    f = await startFollowed({ at: new Date(START).toISOString(), scales: { cargo: 0.02 } });
    const reg = f.reg('cargo');
    const follower = f.follower('cargo');
    const cursor = { value: null as string | null };
    await pass(follower, cursor);
    // Away four days: the feed holds ~2.5 days of this registry's 40 versions a day.
    f.now.at = new Date(START + 4 * DAY);
    const batches = await pass(follower, cursor);
    expect(batches[0]?.faults.map((x) => x.kind)).toEqual(['fell_out_of_window']);
    expect(batches[0]?.contiguous).toBe(false);
    expect(batches.some((b) => b.relist === 'fell_out_of_window')).toBe(true);
    f.now.at = new Date(START + 5 * DAY);
    await pass(follower, cursor, batches);
    // Everything up to the last dump read is hinted on its own day: publications and yanks alike.
    const hinted = hintDates(batches);
    const gap = changesBetween(reg, START, dumpAt(START + 5 * DAY)).filter((e) => e.kind !== 'delete');
    expect(gap.length).toBeGreaterThan(100);
    for (const e of gap)
      expect(hinted.get(reg.nameOf(e.package))).toContain(dateOf(reg.facts(e.package, e.at)!.changes.at(-1)!.at));
  });
});

describe('RubyGems: the monthly rebuild of /versions', () => {
  it('is detected by the bytes before the offset, and the whole file listed again with new markers', async () => {
    const beforeRebuild = Date.parse('2026-01-31T12:00:00Z');
    f = await startFollowed({ at: new Date(beforeRebuild).toISOString(), scales: { gem: 0.02 } });
    const reg = f.reg('gem');
    const follower = f.follower('gem');
    const cursor = { value: null as string | null };
    const seen = await pass(follower, cursor);
    f.now.at = new Date(beforeRebuild + DAY);
    const recovery = await pass(follower, cursor);
    expect(recovery[0]?.faults.map((x) => x.kind)).toEqual(['rebuilt']);
    const known = markers(seen);
    const relisted = markers(recovery);
    const gap = changesBetween(reg, beforeRebuild, beforeRebuild + DAY);
    expect(gap.length).toBeGreaterThan(10);
    // A gem changed across the rebuild shows a new /info checksum (a deleted one is no longer listed).
    for (const e of gap) {
      const name = reg.nameOf(e.package);
      if (e.kind === 'delete') expect(relisted.has(name)).toBe(false);
      else expect(relisted.get(name)).not.toBe(known.get(name));
    }
    // And Range reads go on from the rebuilt file.
    f.now.at = new Date(beforeRebuild + 2 * DAY);
    const next = await pass(follower, cursor);
    expect(next.flatMap((b) => b.faults)).toEqual([]);
    expect(next.flatMap((b) => b.hints).length).toBeGreaterThan(10);
  });
});
