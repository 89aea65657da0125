/**
 * bench:registry's truth check: each state change the record shows over the simulated days, set
 * against when the generated registry says it truly happened (its seed knows every publication,
 * deprecation and deletion). Publish-driven changes (a new version brings a package back to
 * alive) and age-driven ones (181 and 366 days after the last publication) should be dated on
 * their own day; deprecations and deletions (no feed dates them reliably) within the sweep.
 * And the other way: each change a feed reported, whether the package was read on that day.
 */
import { addDays, daysBetween, utcDateOf } from '../src/domain/calendar.js';
import { normaliseComponent, type ComponentRef } from '../src/domain/component.js';
import type { Observation } from '../src/domain/observation.js';
import { ALIVE_MAX_DAYS, DORMANT_MAX_DAYS } from '../src/domain/state.js';
import type { FollowedRegistry } from '../src/upstreams/following/follower.js';
import type { GeneratedRegistry } from '../src/simulator/registries/registry.js';
import type { Store } from '../src/storage/store.js';

const DAY_MS = 86_400_000;

export interface TruthReport {
  changes: number;
  publishDriven: Tally;
  ageDriven: Tally;
  other: { total: number; longestDays: number; worst: string | null };
  /**
   * Changes made on the backfill's day after its read: a component has one observation a day, so
   * they are read the next day, the window's first; left out of the shares above.
   */
  beforeWindow: number;
  /** Changes the registry's facts cannot explain, or dated before they happened: false states. */
  unexplained: string[];
  /** Each change its feed reported in the window: read on its day, after it happened? */
  events: {
    total: number;
    readThatDay: number;
    /** Read earlier that day, before the change: a component has one observation a day, so the next day. */
    readBeforeItThatDay: number;
    /** Of those, read the next day; and those whose next day is after the run. */
    readNextDay: number;
    nextDayOutsideRun: number;
    /** Changed after the day's last poll: found by the next day's first. */
    afterLastPoll: number;
    /**
     * Deprecations and deletions not read on their day: some feeds never report them (PyPI's
     * journal writes no row for a status change), so the sweep finds them (the "other" changes).
     */
    leftToSweep: number;
    /** A publication or a creation not read on its day at all, though a poll came after it that day. */
    missed: number;
    examples: string[];
  };
}

interface Tally {
  total: number;
  ownDay: number;
  /** Not on its own day because the package had been read that day before the change (one observation a day). */
  readEarlierThatDay: number;
  /** Not on its own day because it happened after that day's last poll: found by the next day's first. */
  afterLastPoll: number;
  late: string[];
  examples: string[];
}

const tally = (): Tally => ({ total: 0, ownDay: 0, readEarlierThatDay: 0, afterLastPoll: 0, late: [], examples: [] });

/** When a change truly happened, from the seed's facts at the moments of the two readings. */
function truthOf(
  reg: GeneratedRegistry,
  index: number,
  from: string,
  to: string,
  previousAt: number,
  observedAt: number,
): { cause: 'publish' | 'age' | 'other'; at: number } | null {
  const facts = reg.facts(index, observedAt);
  if (!facts) return null;
  if (to === 'deleted') return facts.deletedAt === null ? null : { cause: 'other', at: facts.deletedAt };
  if (to === 'archived') return facts.deprecatedAt === null ? null : { cause: 'other', at: facts.deprecatedAt };
  const latest = facts.versions.at(-1)?.at;
  if (latest === undefined) return null;
  const published = facts.versions.find((v) => v.at > previousAt && v.at <= observedAt);
  if (from === 'archived' || from === 'deleted') return { cause: 'other', at: published?.at ?? latest };
  if (to === 'alive') return published ? { cause: 'publish', at: published.at } : null;
  const day = utcDateOf(new Date(latest));
  if (to === 'dormant') return { cause: 'age', at: Date.parse(addDays(day, ALIVE_MAX_DAYS + 1)) };
  if (to === 'abandoned') return { cause: 'age', at: Date.parse(addDays(day, DORMANT_MAX_DAYS + 1)) };
  return null;
}

const dayOf = (ms: number) => utcDateOf(new Date(ms));

/** Each component's observations, by `kind:id`, read 500 at a time. */
async function observationsOf(store: Store, refs: ComponentRef[]): Promise<Map<string, Observation[]>> {
  const out = new Map<string, Observation[]>();
  for (let i = 0; i < refs.length; i += 500)
    for (const [k, v] of await store.observationsOfMany(refs.slice(i, i + 500))) out.set(k, v);
  return out;
}

export async function checkTruth(
  store: Store,
  registries: Map<FollowedRegistry, GeneratedRegistry>,
  window: { firstDay: string; lastDay: string; pollMs: number },
): Promise<TruthReport> {
  const report: TruthReport = {
    changes: 0,
    publishDriven: tally(),
    ageDriven: tally(),
    other: { total: 0, longestDays: 0, worst: null },
    beforeWindow: 0,
    unexplained: [],
    events: {
      total: 0,
      readThatDay: 0,
      readBeforeItThatDay: 0,
      readNextDay: 0,
      nextDayOutsideRun: 0,
      afterLastPoll: 0,
      leftToSweep: 0,
      missed: 0,
      examples: [],
    },
  };
  // logged_at is the real clock's, not the simulated one: the window is by observation date.
  const until = await store.treeSize();
  for (let leaf = 0; leaf < until;) {
    const page = await store.stateChanges({ fromLeaf: leaf, untilLeaf: until, since: window.firstDay, limit: 5_000 });
    const held = await observationsOf(
      store,
      page.map((c) => c.component),
    );
    for (const c of page) {
      if (c.observation_date > window.lastDay) continue;
      report.changes++;
      const reg = registries.get(c.component.kind as FollowedRegistry);
      const index = reg?.indexOf(c.component.id) ?? null;
      const what = `${c.component.kind}:${c.component.id} ${c.from}→${c.to} read ${c.observation_date}`;
      const readings = held.get(`${c.component.kind}:${c.component.id}`) ?? [];
      const at = (date: string) => Date.parse(readings.find((o) => o.observation_date === date)?.observed_at ?? '');
      const observedAt = at(c.observation_date);
      const previousAt = at(c.previous_date);
      const truth =
        reg && index !== null && observedAt > 0 && previousAt > 0
          ? truthOf(reg, index, c.from, c.to, previousAt, observedAt)
          : null;
      if (truth === null || truth.at > observedAt) {
        report.unexplained.push(truth === null ? what : `${what}, true ${new Date(truth.at).toISOString()}`);
        continue;
      }
      const trueDay = dayOf(truth.at);
      const late = daysBetween(trueDay, c.observation_date);
      if (trueDay < window.firstDay) {
        report.beforeWindow++;
        continue;
      }
      if (truth.cause === 'other') {
        report.other.total++;
        if (late >= report.other.longestDays) {
          report.other.longestDays = late;
          report.other.worst = `${what}, true ${trueDay}`;
        }
        continue;
      }
      const t = truth.cause === 'publish' ? report.publishDriven : report.ageDriven;
      t.total++;
      if (late === 0) t.ownDay++;
      else if (c.previous_date === trueDay && late === 1) {
        t.readEarlierThatDay++;
        if (t.examples.length < 3)
          t.examples.push(
            `${what} at ${new Date(observedAt).toISOString()}, true ${new Date(truth.at).toISOString()}, previous read ${new Date(previousAt).toISOString()}`,
          );
      } else if (late === 1 && truth.at > Date.parse(`${trueDay}T00:00:00Z`) + DAY_MS - window.pollMs)
        t.afterLastPoll++;
      else if (t.late.length < 5) t.late.push(`${what}, true ${trueDay}, previous read ${c.previous_date}`);
    }
    if (page.length < 5_000) break;
    leaf = page.at(-1)!.leaf_index + 1;
  }
  await checkEvents(store, registries, window, report);
  return report;
}

/** Each change (a burst's first entry) in the window: was its package read on its day, after it? */
async function checkEvents(
  store: Store,
  registries: Map<FollowedRegistry, GeneratedRegistry>,
  window: { firstDay: string; lastDay: string; pollMs: number },
  report: TruthReport,
): Promise<void> {
  const fromMs = Date.parse(`${window.firstDay}T00:00:00Z`);
  // Up to the last instant of the last day (an event at midnight is the next day's).
  const toMs = Date.parse(`${window.lastDay}T00:00:00Z`) + DAY_MS - 1;
  for (const [registry, reg] of registries) {
    const events: { ref: ComponentRef; at: number; kind: string }[] = [];
    for (let k = reg.eventsBy(fromMs); k < reg.eventsBy(toMs); k++) {
      const e = reg.eventAt(k);
      if (e && e.burstPosition === 0)
        events.push({ ref: normaliseComponent(registry, reg.nameOf(e.package)), at: e.at, kind: e.kind });
    }
    const held = await observationsOf(
      store,
      events.map((e) => e.ref),
    );
    for (const e of events) {
      const day = dayOf(e.at);
      const readings = held.get(`${registry}:${e.ref.id}`) ?? [];
      const that = readings.find((o) => o.observation_date === day);
      report.events.total++;
      if (that && Date.parse(that.observed_at) >= e.at) report.events.readThatDay++;
      else if (that) {
        report.events.readBeforeItThatDay++;
        if (day === window.lastDay) report.events.nextDayOutsideRun++;
        else if (readings.some((o) => o.observation_date === addDays(day, 1))) report.events.readNextDay++;
      } else if (e.kind === 'deprecate' || e.kind === 'delete') report.events.leftToSweep++;
      else if (e.at > Date.parse(`${day}T00:00:00Z`) + DAY_MS - window.pollMs) report.events.afterLastPoll++;
      else {
        report.events.missed++;
        if (report.events.examples.length < 10)
          report.events.examples.push(
            `${registry}:${e.ref.id} ${e.kind} ${new Date(e.at).toISOString()}, not read that day`,
          );
      }
    }
  }
}
