import { afterEach, describe, expect, it } from 'vitest';
import { addDays } from '../src/domain/calendar.js';
import { draw } from '../src/simulator/registries/draw.js';
import { FAULT_SALT } from '../src/simulator/registries/faults.js';
import type { FeedEvent } from '../src/simulator/registries/registry.js';
import type { FollowBatch } from '../src/upstreams/following/follower.js';
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
 * npm's feed faults (research §1.1; construct-hub docs/npm-sync-protocol.md@0ab00ff39bc2), each
 * switched on in the simulator, and what the follower does about each: late insertions found by
 * the trailing window, lost events healed by the package's next change (nothing in the feed can
 * show them), a head regression detected and re-listed from, never taken for progress.
 */
const START = Date.parse('2026-01-05T12:00:00Z');
const HOUR = 3_600_000;
let f: Followed;
afterEach(() => f.close());

const hinted = (batches: FollowBatch[], name: string) => hintDates(batches).get(name) ?? [];
const dayOrNext = (e: FeedEvent) => [dateOf(e.at), addDays(dateOf(e.at), 1)];

describe('npm: late insertion', () => {
  it('finds every late entry by re-reading the trailing window, which a follower without one misses', async () => {
    f = await startFollowed({
      at: new Date(START).toISOString(),
      scales: { npm: 0.001 },
      faults: { npm: { lateInsertion: { share: 0.25, delayMs: 2 * HOUR } } },
    });
    const reg = f.reg('npm');
    // 80 seq a day here: 40 seq is 12 hours behind the cursor, more than the 2-hour delay.
    const windowed = f.follower('npm', { npm: { window: 40, pageSize: 1_000 } });
    const blind = f.follower('npm', { npm: { window: 1, pageSize: 1_000 } });
    const cw = { value: null as string | null };
    const cb = { value: null as string | null };
    await pass(windowed, cw);
    await pass(blind, cb);
    const seen: FollowBatch[] = [];
    const seenBlind: FollowBatch[] = [];
    for (let h = 1; h <= 48; h++) {
      f.now.at = new Date(START + h * HOUR);
      await pass(windowed, cw, seen);
      await pass(blind, cb, seenBlind);
    }
    // Changes whose entries are visible by the end (the last two hours' late ones are not yet).
    const end = START + 46 * HOUR;
    const changes = changesBetween(reg, START, end);
    const late = changes.filter((e) => draw(reg.seed, e.slot >= 0 ? e.slot : -1 - e.index, 0, FAULT_SALT.late) < 0.25);
    expect(late.length).toBeGreaterThan(3);
    for (const e of changes)
      expect(hinted(seen, reg.nameOf(e.package)).some((d) => dayOrNext(e).includes(d))).toBe(true);
    expect(seen.flatMap((b) => b.faults).filter((x) => x.kind === 'late_insertion').length).toBeGreaterThan(0);
    const missedByBlind = late.filter(
      (e) => !hinted(seenBlind, reg.nameOf(e.package)).some((d) => dayOrNext(e).includes(d)),
    );
    expect(missedByBlind.length).toBeGreaterThan(0);
  });
});

describe('npm: lost events', () => {
  it('cannot see a lost change, and hints the package at its next change', async () => {
    f = await startFollowed({
      at: new Date(START).toISOString(),
      scales: { npm: 0.001 },
      faults: { npm: { lostEvents: { share: 0.1 } } },
    });
    const reg = f.reg('npm');
    const follower = f.follower('npm', { npm: { window: 40, pageSize: 1_000 } });
    const cursor = { value: null as string | null };
    await pass(follower, cursor);
    const batches: FollowBatch[] = [];
    const DAYS = 70;
    for (let d = 1; d <= DAYS; d++) {
      f.now.at = new Date(START + d * DAY);
      await pass(follower, cursor, batches);
    }
    const changes = changesBetween(reg, START, START + DAYS * DAY);
    const isLost = (e: FeedEvent) => draw(reg.seed, e.slot >= 0 ? e.slot : -1 - e.index, 0, FAULT_SALT.lost) < 0.1;
    const lost = changes.filter(isLost);
    expect(lost.length).toBeGreaterThan(5);
    let healed = 0;
    for (const e of changes) {
      const dates = hinted(batches, reg.nameOf(e.package));
      if (!isLost(e)) {
        expect(dates.some((d) => dayOrNext(e).includes(d))).toBe(true);
        continue;
      }
      // Nothing in the feed dates a lost change…
      expect(dates.some((d) => dayOrNext(e).includes(d))).toBe(false);
      // …until the package changes again (a round is 30 days) and that change is not lost too.
      const next = changes.find((c) => c.package === e.package && c.index > e.index && !isLost(c));
      if (next) {
        expect(dates.some((d) => dayOrNext(next).includes(d))).toBe(true);
        healed++;
      }
    }
    expect(healed).toBeGreaterThan(0);
  });
});

describe('npm: head regression', () => {
  it('is detected, never taken for progress, and re-listed from: no change after it is missed', async () => {
    f = await startFollowed({ at: new Date(START).toISOString(), scales: { npm: 0.001 } });
    const reg = f.reg('npm');
    const follower = f.follower('npm', { npm: { window: 40, pageSize: 1_000 } });
    const cursor = { value: null as string | null };
    const before: FollowBatch[] = [];
    await pass(follower, cursor, before);
    for (let d = 1; d <= 2; d++) {
      f.now.at = new Date(START + d * DAY);
      await pass(follower, cursor, before);
    }
    // What a scheduler knows of each package from the feed: its rev (the listing's, then the hints').
    const known = new Map<string, string | null>();
    for (const b of before) {
      for (const l of b.listed) known.set(l.component.id, l.marker);
      for (const h of b.hints) known.set(h.component.id, h.marker);
    }
    const seqBefore = (JSON.parse(cursor.value!) as { follow: { seq: number } }).follow.seq;
    // Half a day on, the head drops by 300 seq (almost four days of this feed): new entries are numbered below the cursor.
    const regressedAt = reg.eventsBy(START + 2.5 * DAY);
    f.sim.setFeedFaults({ npm: { headRegression: { atEvent: regressedAt, drop: 300 } } });
    f.now.at = new Date(START + 3 * DAY);
    const recovery = await pass(follower, cursor);
    const fault = recovery.find((b) => b.faults.some((x) => x.kind === 'head_regression'));
    expect(fault?.contiguous).toBe(false);
    // Nothing hinted as progress before the re-listing: the fault's batch carries no hint.
    expect(recovery.indexOf(fault!)).toBe(0);
    expect(fault!.hints).toEqual([]);
    expect(recovery.filter((b) => b.step === 'listing').every((b) => b.relist === 'head_regression')).toBe(true);
    const seqAfter = (JSON.parse(cursor.value!) as { follow: { seq: number } }).follow.seq;
    expect(seqAfter).toBeLessThan(seqBefore);
    // Every package changed since the cursor was last good shows a new rev in the re-listing, or a hint.
    const relisted = new Map(recovery.flatMap((b) => b.listed.map((l) => [l.component.id, l.marker] as const)));
    const hintedNow = new Set(recovery.flatMap((b) => b.hints.map((h) => h.component.id)));
    const gap = changesBetween(reg, START + 2 * DAY, START + 3 * DAY).filter((e) => e.index >= regressedAt);
    expect(gap.length).toBeGreaterThan(5);
    for (const e of gap) {
      const name = reg.nameOf(e.package);
      const told = hintedNow.has(name) || (relisted.has(name) && relisted.get(name) !== known.get(name));
      expect({ name, kind: e.kind, told }).toEqual({ name, kind: e.kind, told: true });
    }
    // And following goes on below the old cursor: the next day's changes are hinted.
    const next: FollowBatch[] = [];
    f.now.at = new Date(START + 4 * DAY);
    await pass(follower, cursor, next);
    const later = changesBetween(reg, START + 3 * DAY, START + 4 * DAY);
    expect(later.length).toBeGreaterThan(5);
    for (const e of later) expect(hinted(next, reg.nameOf(e.package)).length).toBeGreaterThan(0);
  });
});
