import { addDays, utcDateOf } from '../domain/calendar.js';
import type { ComponentRef } from '../domain/component.js';
import type { NewObservation, Observation } from '../domain/observation.js';
import { classify, type State } from '../domain/state.js';
import { DuplicateObservationError, StoreUnavailableError } from '../storage/store.js';
import type { Reading, Sources } from '../upstreams/source.js';
import type { RecordDeps } from './deps.js';

export interface ObserverDeps extends RecordDeps {
  readonly sources: Sources;
}

export type ObserveOutcome =
  | { component: ComponentRef; observation: Observation }
  | { component: ComponentRef; skipped: 'already observed today' };

interface ComponentReading {
  ref: ComponentRef;
  observation: NewObservation;
  renamed_to: ComponentRef | undefined;
}

/**
 * Reads one component from its upstream now. The observation's date is the read's own (the clock
 * at the time of the read): nothing lets a caller choose it.
 */
async function readComponent(deps: ObserverDeps, ref: ComponentRef): Promise<ComponentReading> {
  const readAt = deps.clock.now();
  const reading = await deps.sources[ref.kind].read(ref, utcDateOf(readAt));
  return { ref, observation: observationOf(ref, reading, readAt, null), renamed_to: reading.renamed_to };
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
  skipped: number;
  failed: number;
  states: Partial<Record<State, number>>;
}

export interface PassOptions {
  /** Components claimed at a time. */
  batch: number;
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
}

/**
 * One pass of the schedule: claims due components in batches until none is due, observes each,
 * and makes it due again at the start of the next UTC day (each component is read once a day).
 * Safe to run in several processes at once: claims never overlap, and a second observation of a
 * component on one date is refused by the store.
 */
export async function observeDue(deps: ObserverDeps, options: PassOptions): Promise<PassReport> {
  const report: PassReport = { observed: 0, skipped: 0, failed: 0, states: {} };
  if (options.giveBack && options.giveBack.length > 0) {
    await deps.store.releaseWatch(options.giveBack, deps.clock.now().toISOString());
    options.giveBack.length = 0;
  }
  for (;;) {
    const now = deps.clock.now();
    const claimed = await deps.store.claimDue(
      now.toISOString(),
      options.batch,
      new Date(now.getTime() + options.leaseMs).toISOString(),
    );
    if (claimed.length === 0) return report;
    let outcomes: ObserveOutcome[];
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
      const readings = await inParallel(claimed, options.concurrency, (ref) => readComponent(deps, ref));
      outcomes = await recordReadings(deps, readings);
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
    const nextDue = `${addDays(utcDateOf(deps.clock.now()), 1)}T00:00:00.000Z`;
    await deps.store.releaseWatch(claimed, nextDue);
  }
}

/** Observes the named components now, whether or not they are watched or due. */
export async function observeNamed(deps: ObserverDeps, refs: ComponentRef[], concurrency: number): Promise<PassReport> {
  const report: PassReport = { observed: 0, skipped: 0, failed: 0, states: {} };
  const readings = await inParallel(refs, concurrency, (ref) => readComponent(deps, ref));
  (await recordReadings(deps, readings)).forEach((outcome) => tally(report, outcome));
  return report;
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
