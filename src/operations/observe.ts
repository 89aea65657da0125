import { addDays, utcDateOf } from '../domain/calendar.js';
import type { ComponentRef } from '../domain/component.js';
import type { NewObservation, Observation } from '../domain/observation.js';
import { classify, type State } from '../domain/state.js';
import type { FollowedRead } from '../storage/follow-records.js';
import { DuplicateObservationError, StoreUnavailableError } from '../storage/store-errors.js';
import { nextFollowedRead, SWEEP_DAYS_DEFAULT, type ReadReason } from '../domain/follow-schedule.js';
import { heldBackUntil } from '../upstreams/reading.js';
import { withReadPriority } from '../upstreams/http/read-priority.js';
import type { Reading, Sources } from '../upstreams/source.js';
import type { RecordDeps } from './deps.js';
import { listQueuedOwners, notShownPublic, withoutUnconfirmed } from './discovered-names.js';

export interface ObserverDeps extends RecordDeps {
  readonly sources: Sources;
}

export type ObserveOutcome =
  | { component: ComponentRef; observation: Observation }
  | { component: ComponentRef; skipped: 'already observed today' };

interface ComponentReading {
  ref: ComponentRef;
  /** Why the schedule claimed it (a followed package); null for a daily or a named read. */
  reason: ReadReason | null;
  /** The read's last-activity instant: when its age next crosses a state boundary. */
  last_activity: string | null;
  observation: NewObservation;
  renamed_to: ComponentRef | undefined;
  /** Set when no request was sent because the upstream holds every reader back: read again then, record nothing now. */
  held_until: string | null;
}

/**
 * Reads one component from its upstream now. The observation's date is the read's own (the clock
 * at the time of the read): nothing lets a caller choose it.
 */
async function readComponent(
  deps: ObserverDeps,
  ref: ComponentRef,
  reason: ReadReason | null = null,
): Promise<ComponentReading> {
  const readAt = deps.clock.now();
  // Every request of the read spends its upstream's budget at the read's priority: a followed
  // package's reason, or `interactive` for a daily or a named read (upstreams/read-priority.ts).
  const reading = await withReadPriority(reason ?? 'interactive', () =>
    deps.sources[ref.kind].read(ref, utcDateOf(readAt)),
  );
  return {
    ref,
    reason,
    last_activity: typeof reading.signals.lastActivity === 'string' ? reading.signals.lastActivity : null,
    observation: observationOf(ref, reading, readAt, null),
    renamed_to: reading.renamed_to,
    held_until: heldBackUntil(reading),
  };
}

/**
 * Appends readings in one transaction (one head for the lot); if one of them was already observed
 * that day, falls back to one append each so the others still land.
 */
async function recordReadings(deps: ObserverDeps, readings: ComponentReading[]): Promise<ObserveOutcome[]> {
  let outcomes: ObserveOutcome[];
  try {
    const { observations } = await deps.store.appendObservations(
      readings.map((r) => r.observation),
      deps.notary.seal,
    );
    outcomes = observations.map((observation, i) => ({ component: readings[i]!.ref, observation }));
  } catch (error) {
    if (!(error instanceof DuplicateObservationError) || readings.length === 1) {
      if (error instanceof DuplicateObservationError)
        return [{ component: readings[0]!.ref, skipped: 'already observed today' }];
      throw error;
    }
    outcomes = [];
    for (const reading of readings) outcomes.push(...(await recordReadings(deps, [reading])));
  }
  // A rename is recorded on the observation and never read as a death; the new name is watched too.
  const renamed = readings.flatMap((r) => (r.renamed_to ? [r.renamed_to] : []));
  if (renamed.length > 0) await deps.store.watchAdd(renamed, deps.clock.now().toISOString());
  return outcomes;
}

/** The observation a reading makes: its state is classified on the date it was read. */
export function observationOf(
  ref: ComponentRef,
  reading: Reading,
  readAt: Date,
  corrects: number | null,
): NewObservation {
  const today = utcDateOf(readAt);
  return {
    component: ref,
    observed_at: readAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    observation_date: today,
    state: classify(reading.signals, today),
    source: reading.source,
    evidence: reading.renamed_to
      ? { ...reading.evidence, renamed_to: `${reading.renamed_to.kind}:${reading.renamed_to.id}` }
      : reading.evidence,
    method: reading.method,
    corrects,
  };
}

export interface PassReport {
  observed: number;
  /** Not read: their upstream asked every reader to wait. No leaf; due again when the wait ends. */
  deferred: number;
  /** Discovered names whose first read met a not-found: forgotten, no trace kept (DESIGN §3 "Discovery"). */
  dropped: number;
  /** Discovered names whose first read failed (no answer shows them public yet): nothing recorded, read again tomorrow. */
  unconfirmed: number;
  skipped: number;
  failed: number;
  states: Partial<Record<State, number>>;
}

export interface PassOptions {
  /** Components claimed at a time. */
  batch: number;
  /** TENDED_DISCOVERY_DAILY: bounds the repositories a queued owner's listing queues (default 100,000). */
  discoveryDailyCap?: number;
  /** Components read at once (each upstream also limits its own concurrency). */
  concurrency: number;
  /**
   * How long a claim holds before another worker may take the component. The worker renews it
   * every third of that while it still reads the batch, so only a dead worker's claims lapse.
   */
  leaseMs: number;
  /**
   * Claims this worker could not give back because the store was away (kept by the schedule
   * between passes): the next pass gives them back first, so those components are read again
   * as soon as the store answers rather than when their lease ends.
   */
  giveBack?: ComponentRef[];
  /** TENDED_SWEEP_DAYS: a followed package is read at least this often (default SWEEP_DAYS_DEFAULT). */
  sweepDays?: number;
}

/**
 * One pass of the schedule: claims due components in batches until none is due, observes each,
 * and makes it due again at the start of the next UTC day (each component is read once a day).
 * Safe to run in several processes at once: claims never overlap, and a second observation of a
 * component on one date is refused by the store.
 */
export async function observeDue(deps: ObserverDeps, options: PassOptions): Promise<PassReport> {
  const report = emptyReport();
  if (options.giveBack && options.giveBack.length > 0) {
    await deps.store.releaseWatch(options.giveBack, deps.clock.now().toISOString());
    options.giveBack.length = 0;
  }
  await listQueuedOwners(deps, options.discoveryDailyCap ?? DEFAULT_DISCOVERY_DAILY, report);
  for (;;) {
    const now = deps.clock.now();
    const claims = await deps.store.claimScheduled(
      now.toISOString(),
      options.batch,
      new Date(now.getTime() + options.leaseMs).toISOString(),
    );
    if (claims.length === 0) return report;
    const claimed = claims.map((c) => c.component);
    let outcomes: ObserveOutcome[];
    let held: ComponentReading[];
    let readings: ComponentReading[];
    // An upstream that holds the worker back (Retry-After) can make a batch outlast the lease;
    // renewing keeps the claims ours. A failed renewal is not fatal: at worst another worker reads
    // a component too, and the store keeps one observation per date.
    const renewal = setInterval(() => {
      deps.store
        .extendClaims(claimed, new Date(deps.clock.now().getTime() + options.leaseMs).toISOString())
        .catch(() => undefined);
    }, options.leaseMs / 3);
    try {
      // Reads touch the store too (conditional-request validators), so an outage may start here.
      readings = await inParallel(claims, options.concurrency, (c) => readComponent(deps, c.component, c.reason));
      held = readings.filter((r) => r.held_until !== null);
      const read = await withoutUnconfirmed(
        deps,
        readings.filter((r) => r.held_until === null),
        report,
      );
      outcomes = read.length > 0 ? await recordReadings(deps, read) : [];
    } catch (error) {
      report.failed += claimed.length;
      if (error instanceof StoreUnavailableError) {
        // The store is away: end the pass (the schedule tries again shortly) and hand the claims
        // back, now or on the next pass. Nothing was half-written: an append is all or nothing,
        // and a read made again tomorrow-or-now meets the one-observation-per-date rule.
        await deps.store.releaseWatch(claimed, now.toISOString()).catch(() => options.giveBack?.push(...claimed));
        throw error;
      }
      // Any other fault must not stop the pass; these claims lapse and the components are retried.
      continue;
    } finally {
      clearInterval(renewal);
    }
    outcomes.forEach((outcome) => tally(report, outcome));
    const today = utcDateOf(deps.clock.now());
    const nextDue = `${addDays(today, 1)}T00:00:00.000Z`;
    const heldRefs = new Set(held.map((r) => r.ref));
    const followed = new Set(claims.filter((c) => c.reason !== null).map((c) => c.component));
    // Daily reads (watched, discovered) are due again tomorrow; followed packages as their schedule says.
    await deps.store.releaseWatch(
      claimed.filter((ref) => !heldRefs.has(ref) && !followed.has(ref)),
      nextDue,
    );
    await deps.store.rescheduleFollowed(
      followedReads(readings, outcomes, heldRefs, today, options.sweepDays ?? SWEEP_DAYS_DEFAULT),
      today,
    );
    // A read never sent falls due again when the hold ends: the same UTC day if it ends in time,
    // read by the next pass (this one does not wait); past midnight, that day has no observation.
    report.deferred += held.length;
    // Never due before the next instant: were the hold's clock behind the observer's, a hold
    // already "over" would be claimed again at once and met again, round and round.
    const soonest = deps.clock.now().getTime() + 1_000;
    for (const [until, refs] of groupByHoldEnd(held))
      await deps.store.releaseWatch(refs, new Date(Math.max(Date.parse(until), soonest)).toISOString());
  }
}

/**
 * What each followed read makes of its package's schedule: a read that showed something is next
 * due on its next age crossing or sweep day; a failed one, or one the record already held for
 * today, keeps its reason and is due tomorrow (a held one is released at its hold's end instead).
 */
function followedReads(
  readings: ComponentReading[],
  outcomes: ObserveOutcome[],
  held: Set<ComponentRef>,
  today: string,
  sweepDays: number,
): FollowedRead[] {
  const recorded = new Map<ComponentRef, ObserveOutcome>(outcomes.map((o) => [o.component, o]));
  return readings.flatMap((r): FollowedRead[] => {
    if (r.reason === null || held.has(r.ref)) return [];
    const outcome = recorded.get(r.ref);
    const observation = outcome && 'observation' in outcome ? outcome.observation : null;
    if (observation === null || observation.state === 'not_observed')
      return [
        { component: r.ref, reason: r.reason, succeeded: false, next_on: addDays(today, 1), next_reason: r.reason },
      ];
    const next = nextFollowedRead(r.ref, observation.observation_date, r.last_activity, sweepDays);
    return [{ component: r.ref, reason: r.reason, succeeded: true, next_on: next.on, next_reason: next.reason }];
  });
}

/** A component whose first read did not show it public, and what the read met. */
export interface NotShownPublic {
  component: ComponentRef;
  /** `not_found`: the registry does not show it (private, a typo, gone); `failed`: the read failed (429, 5xx, time-out…). */
  met: 'not_found' | 'failed';
}

export interface NamedReport extends PassReport {
  /** With `publicFirst`: the unheld components nothing was recorded for. */
  not_shown: NotShownPublic[];
}

/**
 * Observes the named components now, whether or not they are watched or due. With `publicFirst`
 * (`tended check --observe`, which reads names out of someone's manifest), a component the record
 * holds no observation of is recorded only when this read shows it public, as a discovered name is
 * (DESIGN §3 "Discovery"): a first read that meets a not-found, or fails, records nothing, so a
 * private package never becomes a "deleted" entry of the log. A component the record already holds
 * keeps the usual rule (an authoritative not-found is `deleted`).
 */
export async function observeNamed(
  deps: ObserverDeps,
  refs: ComponentRef[],
  concurrency: number,
  options: { publicFirst?: boolean } = {},
): Promise<NamedReport> {
  const report: NamedReport = { ...emptyReport(), not_shown: [] };
  const readings = await inParallel(refs, concurrency, (ref) => readComponent(deps, ref));
  let read = readings.filter((r) => r.held_until === null);
  report.deferred = readings.length - read.length;
  if (options.publicFirst && read.length > 0) {
    const held = await deps.store.observationsOfMany(read.map((r) => r.ref));
    read = read.filter((r) => {
      const met = (held.get(`${r.ref.kind}:${r.ref.id}`) ?? []).length > 0 ? null : notShownPublic(r);
      if (met === null) return true;
      report.not_shown.push({ component: r.ref, met });
      if (met === 'not_found') report.dropped++;
      else report.unconfirmed++;
      return false;
    });
  }
  if (read.length > 0) (await recordReadings(deps, read)).forEach((outcome) => tally(report, outcome));
  return report;
}

const DEFAULT_DISCOVERY_DAILY = 100_000;

function emptyReport(): PassReport {
  return { observed: 0, deferred: 0, dropped: 0, unconfirmed: 0, skipped: 0, failed: 0, states: {} };
}

/** Held readings by the instant their upstream's hold ends (each one release of the watch list). */
function groupByHoldEnd(held: ComponentReading[]): Map<string, ComponentRef[]> {
  const byEnd = new Map<string, ComponentRef[]>();
  for (const r of held) {
    const until = new Date(r.held_until!).toISOString();
    const refs = byEnd.get(until);
    if (refs) refs.push(r.ref);
    else byEnd.set(until, [r.ref]);
  }
  return byEnd;
}

function tally(report: PassReport, outcome: ObserveOutcome): void {
  if ('skipped' in outcome) {
    report.skipped++;
    return;
  }
  report.observed++;
  const state = outcome.observation.state;
  report.states[state] = (report.states[state] ?? 0) + 1;
}

/** Maps with at most `limit` calls in flight, keeping the order of `items`. */
async function inParallel<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  });
  await Promise.all(workers);
  return results;
}
