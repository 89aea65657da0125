import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addDays, daysBetween } from '../src/domain/calendar.js';
import type { ComponentRef } from '../src/domain/component.js';
import { nextFollowedRead } from '../src/domain/follow-schedule.js';
import type { FollowedRead, ScheduledClaim } from '../src/storage/follow-records.js';
import type { Store } from '../src/storage/store.js';
import type { TestStore } from './support/record.js';

/**
 * The storage contract, continued: the schedule of followed packages (DESIGN §8a) — what a
 * follower's batches hold for reading, in which order claims take them, and how each is due again
 * after its read. Every adapter must pass it unchanged.
 */
export function storeScheduleContract(backend: 'sqlite' | 'postgres', open: () => Promise<TestStore>): void {
  describe(`store contract (follow schedule) on ${backend}`, () => {
    let t: TestStore;
    let store: Store;
    const npm = (id: string): ComponentRef => ({ kind: 'npm', id });
    const at = (date: string, time = '00:00:00.000') => `${date}T${time}Z`;
    /** Claims at `instant` for a millisecond: a look at what is due then that leaves it due afterwards. */
    const dueAt = async (instant: string, limit = 1_000): Promise<ScheduledClaim[]> =>
      store.claimScheduled(instant, limit, new Date(Date.parse(instant) + 1).toISOString());
    const named = (claims: ScheduledClaim[]) => claims.map((c) => `${c.component.id}:${c.reason ?? 'daily'}`);
    /** A successful read of each claim, next due for its sweep on `next` (far off unless said). */
    const readOn = (claims: ScheduledClaim[], next = '2026-06-01'): FollowedRead[] =>
      claims.map((c) => ({
        component: c.component,
        reason: c.reason!,
        succeeded: true,
        next_on: next,
        next_reason: 'sweep',
      }));
    /** A successful read on `day` rescheduled as the observer does it: the next age crossing or sweep day. */
    const observed = (claims: ScheduledClaim[], day: string, lastActivity: string | null): FollowedRead[] =>
      claims.map((c) => {
        const next = nextFollowedRead(c.component, day, lastActivity, 30);
        return {
          component: c.component,
          reason: c.reason!,
          succeeded: true,
          next_on: next.on,
          next_reason: next.reason,
        };
      });

    beforeEach(async () => {
      t = await open();
      store = t.store;
    });
    afterEach(async () => {
      await t.dispose();
    });

    it('holds listed packages due now for their backfill; listing them again changes nothing but the marker', async () => {
      const first = await store.holdFollowed(
        [
          { component: npm('a'), marker: '1-x' },
          { component: npm('b'), marker: null },
        ],
        [],
        at('2026-03-01', '10:00:00.000'),
      );
      expect(first).toEqual({ added: 2, hinted: 0, already_read: 0 });
      expect(await dueAt(at('2026-03-01', '09:59:59.999'))).toEqual([]);
      const due = await dueAt(at('2026-03-01', '10:00:00.000'));
      expect(named(due).sort()).toEqual(['a:backfill', 'b:backfill']);
      expect(await store.followFigures('npm', '2026-03-01')).toMatchObject({ listed: 2, read_once: 0 });

      // Read: next due on its sweep day. A re-listing (after a fault, say) leaves that schedule alone.
      const claimed = await store.claimScheduled(
        at('2026-03-01', '11:00:00.000'),
        10,
        at('2026-03-01', '11:02:00.000'),
      );
      await store.rescheduleFollowed(readOn(claimed), '2026-03-01');
      const again = await store.holdFollowed(
        [
          { component: npm('a'), marker: '2-y' },
          { component: npm('b'), marker: null },
        ],
        [],
        at('2026-03-02', '10:00:00.000'),
      );
      expect(again).toEqual({ added: 0, hinted: 0, already_read: 0 });
      expect(await dueAt(at('2026-03-02', '10:00:00.000'))).toEqual([]);
      expect(await store.followFigures('npm', '2026-03-01')).toMatchObject({
        listed: 2,
        read_once: 2,
        reads_today: { backfill: 2, event: 0, threshold: 0, sweep: 0 },
      });
      // The re-listing's marker moved on: a hint repeating it is a change since the read.
      expect(
        await store.holdFollowed(
          [],
          [{ component: npm('a'), changed_on: '2026-03-02', marker: '2-y', removal: false }],
          at('2026-03-02', '10:00:00.000'),
        ),
      ).toMatchObject({ hinted: 1 });
    });

    it('a re-listing after a break makes due as events the packages listed otherwise than held, and the new ones', async () => {
      const gem = (id: string): ComponentRef => ({ kind: 'gem', id });
      await store.holdFollowed(
        [
          { component: gem('same'), marker: 'md5-a' },
          { component: gem('changed'), marker: 'md5-b' },
          { component: gem('unmarked'), marker: null },
        ],
        [],
        at('2026-03-01', '10:00:00.000'),
      );
      const claimed = await store.claimScheduled(
        at('2026-03-01', '11:00:00.000'),
        10,
        at('2026-03-01', '11:02:00.000'),
      );
      await store.rescheduleFollowed(readOn(claimed), '2026-03-01');
      const listing = [
        { component: gem('same'), marker: 'md5-a' },
        { component: gem('changed'), marker: 'md5-c' },
        { component: gem('unmarked'), marker: 'md5-d' },
        { component: gem('new'), marker: 'md5-e' },
      ];
      // Compared: what differs from the held marker, and what was not held, is an event of the listing's day.
      expect(
        await store.holdFollowed(listing, [], at('2026-03-02', '10:00:00.000'), { changedSinceHeld: true }),
      ).toEqual({ added: 1, hinted: 2, already_read: 0 });
      expect(named(await dueAt(at('2026-03-02', '10:00:00.000'))).sort()).toEqual(['changed:event', 'new:event']);
      // The same listing again: the markers were moved on, so nothing differs any more.
      expect(
        await store.holdFollowed(listing, [], at('2026-03-02', '10:05:00.000'), { changedSinceHeld: true }),
      ).toEqual({ added: 0, hinted: 0, already_read: 0 });
    });

    it('makes a hinted package due on its change day for the event, once per marker read', async () => {
      await store.holdFollowed([{ component: npm('a'), marker: '1-x' }], [], at('2026-03-01'));
      await store.rescheduleFollowed(readOn(await dueAt(at('2026-03-01', '01:00:00.000'))), '2026-03-01');
      expect(await dueAt(at('2026-03-03'))).toEqual([]);

      const hint = { component: npm('a'), changed_on: '2026-03-03', marker: '2-y', removal: false };
      // A package no listing named yet (published after the backfill): held, due on its change day.
      const fresh = { component: npm('new'), changed_on: '2026-03-03', marker: '1-n', removal: false };
      expect(await store.holdFollowed([], [hint, fresh], at('2026-03-03', '08:00:00.000'))).toEqual({
        added: 1,
        hinted: 1,
        already_read: 0,
      });
      // The same hint again (npm's trailing window) before the read: still one read.
      await store.holdFollowed([], [hint], at('2026-03-03', '08:05:00.000'));
      const due = await store.claimScheduled(at('2026-03-03', '09:00:00.000'), 10, at('2026-03-03', '09:02:00.000'));
      expect(named(due).sort()).toEqual(['a:event', 'new:event']);
      await store.rescheduleFollowed(readOn(due), '2026-03-03');
      expect(await store.followFigures('npm', '2026-03-03')).toMatchObject({
        listed: 2,
        read_once: 2,
        reads_today: { event: 2 },
      });

      // After the read, the same marker is not read again; a new one is, and a removal always is.
      expect(await store.holdFollowed([], [hint], at('2026-03-04'))).toEqual({ added: 0, hinted: 0, already_read: 1 });
      expect(await dueAt(at('2026-03-04', '12:00:00.000'))).toEqual([]);
      await store.holdFollowed([], [{ ...hint, removal: true }], at('2026-03-04', '12:00:00.000'));
      expect(named(await dueAt(at('2026-03-04', '12:00:00.000')))).toEqual(['a:event']);
    });

    it('keeps a hint that comes while its package is being read: due again the next day, for the event', async () => {
      await store.holdFollowed([{ component: npm('a'), marker: '1-x' }], [], at('2026-03-01'));
      const claimed = await store.claimScheduled(
        at('2026-03-01', '10:00:00.000'),
        10,
        at('2026-03-01', '10:02:00.000'),
      );
      await store.holdFollowed(
        [],
        [{ component: npm('a'), changed_on: '2026-03-01', marker: '2-y', removal: false }],
        at('2026-03-01', '10:01:00.000'),
      );
      await store.rescheduleFollowed(readOn(claimed), '2026-03-01');
      expect(await dueAt(at('2026-03-01', '23:59:59.999'))).toEqual([]);
      expect(named(await dueAt(at('2026-03-02')))).toEqual(['a:event']);
    });

    it('claims events, age thresholds and daily reads first, then backfills, then sweeps; oldest due first', async () => {
      // Two packages read, one next due for an age crossing, one for its sweep, both by 2026-06-01.
      await store.holdFollowed(
        [{ component: npm('aged') }, { component: npm('swept') }].map((l) => ({ ...l, marker: null })),
        [],
        at('2026-01-01'),
      );
      const first = await dueAt(at('2026-01-01'));
      await store.rescheduleFollowed(
        first.map((c) => ({
          component: c.component,
          reason: 'backfill',
          succeeded: true,
          next_on: c.component.id === 'aged' ? '2026-02-01' : '2026-01-20',
          next_reason: c.component.id === 'aged' ? 'threshold' : 'sweep',
        })),
        '2026-01-01',
      );
      // Later: a backfill, an operator's daily read and an event, all due now.
      await store.holdFollowed([{ component: npm('listed-late'), marker: null }], [], at('2026-03-01'));
      await store.watchAdd([npm('watched')], at('2026-03-01', '00:00:01.000'));
      await store.holdFollowed(
        [],
        [{ component: npm('hinted'), changed_on: '2026-03-01', marker: null, removal: false }],
        at('2026-03-01', '00:00:02.000'),
      );
      const now = at('2026-03-01', '12:00:00.000');
      // Within the first priority, the oldest due first: the threshold (Feb 1), then the event and the daily read.
      const taken = async (instant: string, limit: number) => named(await dueAt(instant, limit)).sort();
      expect(await taken(now, 3)).toEqual(['aged:threshold', 'hinted:event', 'watched:daily']);
      expect(await taken(addMs(now, 2), 4)).toEqual([
        'aged:threshold',
        'hinted:event',
        'listed-late:backfill',
        'watched:daily',
      ]);
      expect(await taken(addMs(now, 4), 10)).toEqual([
        'aged:threshold',
        'hinted:event',
        'listed-late:backfill',
        'swept:sweep',
        'watched:daily',
      ]);
      // A claim running hides a component from the next claimer until its lease ends.
      const held = await store.claimScheduled(addMs(now, 6), 1, addMs(now, 60_000));
      expect(named(held)).toEqual(['aged:threshold']);
      expect(named(await dueAt(addMs(now, 8), 1))).toEqual(['hinted:event']);
    });

    it('leaves operator-watched and discovered components to their daily reads; watching a followed one makes it daily', async () => {
      await store.watchAdd([npm('mine')], at('2026-03-01'));
      await store.holdFollowed(
        [{ component: npm('mine'), marker: '1' }],
        [{ component: npm('mine'), changed_on: '2026-03-05', marker: '2', removal: false }],
        at('2026-03-01'),
      );
      await store.releaseWatch([npm('mine')], at('2026-03-02'));
      // Still the operator's: due at its daily time, not on the hint's day, and not counted as followed.
      expect(named(await dueAt(at('2026-03-02')))).toEqual(['mine:daily']);
      expect((await store.followFigures('npm', '2026-03-01')).listed).toBe(0);

      await store.holdFollowed([{ component: npm('theirs'), marker: null }], [], at('2026-03-02', '01:00:00.000'));
      expect((await store.followFigures('npm', '2026-03-02')).listed).toBe(1);
      expect(await store.watchAdd([npm('theirs')], at('2026-03-02', '02:00:00.000'))).toBe(1);
      expect(named(await dueAt(at('2026-03-02', '02:00:00.000'))).sort()).toEqual(['mine:daily', 'theirs:daily']);
      expect((await store.followFigures('npm', '2026-03-02')).listed).toBe(0);
      // Removing a followed package takes it off its registry's counts too.
      await store.holdFollowed([{ component: npm('other'), marker: null }], [], at('2026-03-02', '03:00:00.000'));
      expect(await store.watchRemove(npm('other'))).toBe(true);
      expect((await store.followFigures('npm', '2026-03-02')).listed).toBe(0);
    });

    it('keeps a failed read due the next day for the same reason, and counts it as a read but not as read once', async () => {
      await store.holdFollowed([{ component: npm('flaky'), marker: '1' }], [], at('2026-03-01'));
      const claimed = await dueAt(at('2026-03-01', '10:00:00.000'));
      await store.rescheduleFollowed(
        [
          {
            component: npm('flaky'),
            reason: 'backfill',
            succeeded: false,
            next_on: '2026-03-02',
            next_reason: 'backfill',
          },
        ],
        '2026-03-01',
      );
      expect(named(claimed)).toEqual(['flaky:backfill']);
      expect(await dueAt(at('2026-03-01', '23:00:00.000'))).toEqual([]);
      expect(named(await dueAt(at('2026-03-02')))).toEqual(['flaky:backfill']);
      expect(await store.followFigures('npm', '2026-03-01')).toMatchObject({
        read_once: 0,
        reads_today: { backfill: 1 },
      });
      // The marker was not read: its hint still makes the package due.
      expect(
        await store.holdFollowed(
          [],
          [{ component: npm('flaky'), changed_on: '2026-03-02', marker: '1', removal: false }],
          at('2026-03-02'),
        ),
      ).toMatchObject({ hinted: 1 });
    });

    it('spreads the sweep about evenly over its days and reads every package within it', async () => {
      const names = Array.from({ length: 600 }, (_, i) => npm(`pkg-${i}`));
      await store.holdFollowed(
        names.map((component) => ({ component, marker: null })),
        [],
        at('2026-01-01'),
      );
      // Day 0: the backfill reads everything; then each day reads what its sweep day brings.
      const lastRead = new Map<string, string>();
      const perDay: number[] = [];
      for (let d = 0; d <= 60; d++) {
        const day = addDays('2026-01-01', d);
        // A sweep falls due late in its day (SCHEDULED_READ_TIME), after most of the day's changes.
        if (d > 0)
          expect(await store.claimScheduled(at(day, '06:00:00.000'), 1_000, at(day, '06:05:00.000'))).toEqual([]);
        const claimed = await store.claimScheduled(at(day, '20:00:00.000'), 1_000, at(day, '20:05:00.000'));
        if (d > 0) perDay.push(claimed.length);
        for (const c of claimed) {
          if (d > 0) expect(c.reason).toBe('sweep');
          const before = lastRead.get(c.component.id);
          if (before !== undefined) expect(daysBetween(before, day)).toBeLessThanOrEqual(30);
          lastRead.set(c.component.id, day);
        }
        // No age to cross (an age far past both crossings): the sweep alone schedules them.
        await store.rescheduleFollowed(observed(claimed, day, '2020-01-01T00:00:00Z'), day);
      }
      expect(lastRead.size).toBe(600);
      // 20 a day on average, each package once per 30 days.
      expect(perDay.reduce((a, b) => a + b, 0)).toBe(1_200);
      expect(Math.min(...perDay)).toBeGreaterThanOrEqual(5);
      expect(Math.max(...perDay)).toBeLessThanOrEqual(40);
      const reads = await store.followReads('2026-01-01', '2026-03-02');
      expect(reads.filter((r) => r.reason === 'sweep').reduce((a, r) => a + r.reads, 0)).toBe(1_200);
      expect(reads.find((r) => r.day === '2026-01-01')).toEqual({
        day: '2026-01-01',
        registry: 'npm',
        reason: 'backfill',
        reads: 600,
      });
    });

    it('lets one holder follow a registry at a time, until its lease ends or it lets go', async () => {
      const t0 = at('2026-03-01', '10:00:00.000');
      expect(await store.leaseFollow('npm', 'one', t0, addMs(t0, 60_000))).toBe(true);
      const other = await t.reopen();
      expect(await other.leaseFollow('npm', 'two', addMs(t0, 1_000), addMs(t0, 61_000))).toBe(false);
      // Another registry is free; the holder renews its own lease.
      expect(await other.leaseFollow('pypi', 'two', addMs(t0, 1_000), addMs(t0, 61_000))).toBe(true);
      expect(await store.leaseFollow('npm', 'one', addMs(t0, 30_000), addMs(t0, 90_000))).toBe(true);
      expect(await other.leaseFollow('npm', 'two', addMs(t0, 61_000), addMs(t0, 120_000))).toBe(false);
      // Lapsed (a dead process): the other takes over.
      expect(await other.leaseFollow('npm', 'two', addMs(t0, 91_000), addMs(t0, 150_000))).toBe(true);
      expect(await store.leaseFollow('npm', 'one', addMs(t0, 92_000), addMs(t0, 150_000))).toBe(false);
      await other.releaseFollowLease('npm', 'two');
      expect(await store.leaseFollow('npm', 'one', addMs(t0, 93_000), addMs(t0, 150_000))).toBe(true);
    });
  });
}

function addMs(instant: string, ms: number): string {
  return new Date(Date.parse(instant) + ms).toISOString();
}
