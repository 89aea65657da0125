import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../src/domain/calendar.js';
import { normaliseComponent } from '../src/domain/component.js';
import { FOLLOWED_REGISTRIES, type FollowBatch, type FollowedRegistry } from '../src/upstreams/following/follower.js';
import type { FeedEvent } from '../src/simulator/registries/registry.js';
import { dumpAt } from '../src/simulator/registries/crates-feed.js';
import {
  changesBetween,
  DAY,
  dateOf,
  everyPackage,
  hintDates,
  livePackages,
  pass,
  startFollowed,
  type Followed,
} from './support/followed-registries.js';

/**
 * Each follower against its generated registry over loopback HTTP: the backfill lists every
 * package, then a pass a day for ten simulated days hints every change the feed reports, on the
 * day it happened, and nothing that did not change. Figures (requests, time) are printed.
 */
const START = Date.parse('2026-01-05T12:00:00Z');
const DAYS = 10;

/** What each feed reports of a change (research §1): the rest is left to the sweep of held packages. */
const REPORTED: Record<FollowedRegistry, (e: FeedEvent) => boolean> = {
  npm: () => true,
  // A PEP 792 status change writes no journal row.
  pypi: (e) => e.kind !== 'deprecate',
  // The feed has publications; the daily dump adds yanks; a deletion is only an absence.
  cargo: (e) => e.kind !== 'delete',
  golang: () => true,
  nuget: () => true,
  gem: () => true,
  composer: () => true,
};
/** Feeds whose rows carry no time: a hint is dated the day it was read (a pass at noon reads the afternoon before). */
const DATED_WHEN_READ = new Set<FollowedRegistry>(['npm', 'gem']);

let f: Followed;
beforeAll(async () => {
  f = await startFollowed({ at: new Date(START).toISOString() });
});
afterAll(() => f.close());

const id = (registry: FollowedRegistry, name: string) => normaliseComponent(registry, name).id;

describe('followers over the generated registries', () => {
  it.each(FOLLOWED_REGISTRIES)('%s: lists every package, then hints every change on its day', async (registry) => {
    f.now.at = new Date(START);
    const reg = f.reg(registry);
    const follower = f.follower(registry);
    const cursor = { value: null as string | null };
    const before = f.sim.traffic.summary();
    const t0 = performance.now();
    const backfill = await pass(follower, cursor);
    const listMs = performance.now() - t0;
    const listed = new Set(backfill.flatMap((b) => b.listed.map((l) => l.component.id)));
    // Go's index and NuGet's catalog keep every module and id ever published; the others list what exists.
    // The crates.io dump stands at its own hour, not the moment it is read.
    const listedAt = registry === 'cargo' ? dumpAt(START) : START;
    const truth =
      registry === 'golang' || registry === 'nuget' ? everyPackage(reg, listedAt) : livePackages(reg, listedAt);
    const expected = new Set([...truth].map((n) => id(registry, n)));
    if (registry === 'nuget') {
      // A deleted id is hinted as a removal, not listed.
      const removed = new Set(backfill.flatMap((b) => b.hints.filter((h) => h.removal).map((h) => h.component.id)));
      for (const n of expected) expect(listed.has(n) || removed.has(n)).toBe(true);
    } else expect(listed).toEqual(expected);
    expect(backfill.every((b) => b.faults.length === 0)).toBe(true);

    const batches: FollowBatch[] = [];
    for (let d = 1; d <= DAYS; d++) {
      f.now.at = new Date(START + d * DAY);
      await pass(follower, cursor, batches);
    }
    const end = START + DAYS * DAY;
    const hinted = hintDates(batches);
    // The last dump read holds the yanks up to its hour; what is later waits for the next.
    const until = registry === 'cargo' ? dumpAt(end) : end;
    const changes = changesBetween(reg, START, until, REPORTED[registry]);
    expect(changes.length).toBeGreaterThan(DAYS);
    for (const e of changes) {
      const dates = hinted.get(id(registry, reg.nameOf(e.package))) ?? [];
      // A change is its burst (a release's journal rows, npm's revisions): any of them dates it.
      // Packagist writes each action's time 0.2 s early, so one just after midnight is the day before.
      const times = reg.burstOf(e).map((k) => reg.eventTime(k));
      const days = new Set(times.flatMap((t) => [dateOf(t), ...(registry === 'composer' ? [dateOf(t - 200)] : [])]));
      const accepted = [...days].flatMap((on) => (DATED_WHEN_READ.has(registry) ? [on, addDays(on, 1)] : [on]));
      expect({ package: reg.nameOf(e.package), kind: e.kind, hinted: dates.some((d) => accepted.includes(d)) }).toEqual(
        {
          package: reg.nameOf(e.package),
          kind: e.kind,
          hinted: true,
        },
      );
    }
    // Nothing is hinted that did not change in the window (a day's slack before it: the backfill's own overlap).
    const changed = new Set(changesBetween(reg, START - DAY, end).map((e) => id(registry, reg.nameOf(e.package))));
    for (const name of hinted.keys()) expect(changed.has(name)).toBe(true);
    expect(batches.flatMap((b) => b.faults)).toEqual([]);

    const after = f.sim.traffic.summary();
    const prefix = new URL(f.sim.feeds[registry]).pathname.slice(1);
    const requests = (after[prefix]?.requests ?? 0) - (before[prefix]?.requests ?? 0);
    console.log(
      `${registry}: listed ${listed.size} in ${Math.round(listMs)} ms; ${DAYS} days followed, ${changes.length} changes, ${hinted.size} packages hinted; ${requests} requests to /${prefix}`,
    );
  });
});
