import { normaliseComponent, type ComponentRef } from '../domain/component.js';
import { ValidationError } from '../domain/errors.js';
import type { Config } from '../config/config.js';
import { takeCensus } from '../operations/census.js';
import { withReadPriority } from '../upstreams/http/read-priority.js';
import { observeDue, observeNamed, type PassReport } from '../operations/observe.js';
import { RETRY_AFTER_FAILED_PASS_MS, startSchedule } from '../observer/schedule.js';
import { startDelivering } from '../observer/webhook-loop.js';
import { deliverDue } from '../operations/webhook-delivery.js';
import { deliveryDeps, deliverySettings } from './webhooks.js';
import { closeRecord, openObserver, PASS_OPTIONS } from './record.js';
import type { CliWiring } from './wiring.js';
import type { PassSummary } from '../upstreams/following/follow-pass.js';
import { Progress } from './progress.js';
import { followConfiguredOnce, startConfiguredFollowing } from './follow-commands.js';

/** `tended watch add|remove|list [KIND ID…]`: what the schedule reads once a day. */
export async function watchCommand(config: Config, wiring: CliWiring, args: string[]): Promise<number> {
  const [action, ...rest] = args;
  if (action !== 'add' && action !== 'remove' && action !== 'list') {
    wiring.stderr.write('tended: watch takes add KIND ID [KIND ID…], remove KIND ID, or list\n');
    return 2;
  }
  const refs = parsePairs(wiring, rest);
  if (refs === null) return 2;
  const deps = await openObserver(config, wiring);
  try {
    if (action === 'add') {
      if (refs.length === 0)
        return usage(wiring, 'watch add takes KIND ID pairs, e.g. `watch add npm express github expressjs/express`');
      const added = await deps.store.watchAdd(refs, deps.clock.now().toISOString());
      wiring.stdout.write(`watching ${refs.length} component(s), ${added} new; each is read once per UTC day\n`);
    } else if (action === 'remove') {
      if (refs.length !== 1) return usage(wiring, 'watch remove takes one KIND ID pair');
      const removed = await deps.store.watchRemove(refs[0]!);
      wiring.stdout.write(
        removed
          ? `no longer watching ${refs[0]!.kind} ${refs[0]!.id}; its record stays\n`
          : `${refs[0]!.kind} ${refs[0]!.id} was not watched\n`,
      );
    } else {
      for (const w of await deps.store.watchList())
        wiring.stdout.write(
          `${w.component.kind}\t${w.component.id}\tdue ${w.due_at}${w.unconfirmed ? '\tdiscovered, not yet shown public' : w.discovered ? '\tdiscovered' : ''}\n`,
        );
    }
    return 0;
  } finally {
    await closeRecord(deps);
  }
}

/** `tended observe [--once] [KIND ID…]`: named components now; or due ones once; or the schedule. */
export async function observeCommand(
  config: Config,
  wiring: CliWiring,
  once: boolean,
  args: string[],
): Promise<number> {
  const refs = parsePairs(wiring, args);
  if (refs === null) return 2;
  const deps = await openObserver(config, wiring);
  try {
    if (refs.length > 0) {
      printReport(wiring, await observeNamed(deps, refs, PASS_OPTIONS.concurrency));
    } else if (once) {
      // TENDED_FOLLOW's feeds first, as serve's followers would have read them: what they make due is read now.
      for (const r of await followConfiguredOnce(config, deps))
        if (r.error !== null) wiring.stderr.write(`tended: ${r.registry} follower pass failed: ${r.error}\n`);
        else if (r.summary === null)
          wiring.stderr.write(`tended: ${r.registry} is followed by another process now; its pass is left to it\n`);
        else wiring.stderr.write(`tended: ${r.registry} ${describePass(r.summary)}\n`);
      printReport(
        wiring,
        await observeDue(deps, {
          ...PASS_OPTIONS,
          discoveryDailyCap: config.discovery.dailyCap,
          sweepDays: config.follow.sweepDays,
        }),
      );
      // What the pass appended is pushed to its subscribers before the command ends.
      const sent = await deliverDue(deliveryDeps(config, deps), deliverySettings(config));
      if (sent.delivered + sent.failed > 0)
        wiring.stderr.write(`tended: webhooks delivered ${sent.delivered}; failed ${sent.failed} (retried later)
`);
    } else {
      wiring.stderr.write(
        'tended: observing on the schedule (a pass every 60 s; components fall due once a UTC day)\n',
      );
      // The webhook sender runs where the observer does; a pass that appended something nudges it.
      const delivering = startDelivering(deliveryDeps(config, deps), deliverySettings(config), {
        onError: (error) =>
          wiring.stderr.write(
            `tended: webhook delivery step failed, trying again shortly: ${error instanceof Error ? error.message : String(error)}\n`,
          ),
      });
      const schedule = startSchedule(deps, {
        ...PASS_OPTIONS,
        discoveryDailyCap: config.discovery.dailyCap,
        sweepDays: config.follow.sweepDays,
        everyMs: 60_000,
        onPass: (r) => {
          printReport(wiring, r);
          delivering.nudge();
        },
        // The worker outlives an outage: the pass is said to have failed and is tried again shortly.
        onError: (error) =>
          wiring.stderr.write(
            `tended: observer pass failed, trying again in ${RETRY_AFTER_FAILED_PASS_MS / 1000} s: ${error instanceof Error ? error.message : String(error)}\n`,
          ),
      });
      // TENDED_FOLLOW's followers feed this worker's watch list; one process of the deployment follows each registry.
      const following = startConfiguredFollowing(config, deps, {
        // What a feed made due is read now, not at the next period (as in serve).
        onPass: (_registry, summary) => {
          if (summary.listed + summary.hints > 0) schedule.nudge();
        },
        onError: (registry, error) =>
          wiring.stderr.write(
            `tended: ${registry} follower pass failed, trying again shortly: ${error instanceof Error ? error.message : String(error)}\n`,
          ),
      });
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await following?.stop();
      await schedule.stop();
      await delivering.stop();
    }
    return 0;
  } finally {
    await closeRecord(deps);
  }
}

function describePass(s: PassSummary): string {
  const faults = s.faults.map((f) => `${f.kind}: ${f.detail}`).join('; ');
  return `follower pass: ${s.batches} batch(es), ${s.listed} listed, ${s.hints} hinted${faults ? `; faults: ${faults}` : ''}`;
}

function printReport(wiring: CliWiring, report: PassReport): void {
  const states = Object.entries(report.states)
    .map(([state, n]) => `${state} ${n}`)
    .join(', ');
  wiring.stdout.write(
    `observed ${report.observed}${states ? ` (${states})` : ''}; already observed today ${report.skipped}; failed ${report.failed}${report.deferred > 0 ? `; deferred ${report.deferred} (the upstream asked us to wait: read again when the wait ends, nothing recorded)` : ''}${report.dropped > 0 ? `; dropped ${report.dropped} (discovered names their upstream does not show: forgotten)` : ''}${report.unconfirmed > 0 ? `; unconfirmed ${report.unconfirmed} (discovered names whose first read failed: nothing recorded, read again tomorrow)` : ''}\n`,
  );
}

function parsePairs(wiring: CliWiring, args: string[]): ComponentRef[] | null {
  if (args.length % 2 !== 0) {
    wiring.stderr.write('tended: components are given as KIND ID pairs (kinds: github, npm, pypi, docker)\n');
    return null;
  }
  const refs: ComponentRef[] = [];
  for (let i = 0; i < args.length; i += 2) {
    try {
      refs.push(normaliseComponent(args[i]!, args[i + 1]!));
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      wiring.stderr.write(`tended: ${args[i]} ${args[i + 1]}: ${error.message}\n`);
      return null;
    }
  }
  return refs;
}

function usage(wiring: CliWiring, message: string): number {
  wiring.stderr.write(`tended: ${message}\n`);
  return 2;
}

/** `tended census [KIND ID…]`: the dependents count of the watched (or named) packages, chained. */
export async function censusCommand(config: Config, wiring: CliWiring, args: string[]): Promise<number> {
  const refs = parsePairs(wiring, args);
  if (refs === null) return 2;
  const deps = await openObserver(config, wiring);
  try {
    // On a terminal, a line that moves while the packages are read; elsewhere the summary below.
    const shown: { progress?: Progress } = {};
    // A whole census is background work: it queues behind the reads that date a change on its
    // day and stops where backfill stops in the day's budget; packages named here go first.
    const summary = await withReadPriority(refs.length > 0 ? 'interactive' : 'backfill', () =>
      takeCensus(
        deps,
        refs.length > 0 ? refs : undefined,
        (wiring.stderr as { isTTY?: boolean }).isTTY === true
          ? (targets) => {
              const p = new Progress(wiring.stderr, 'census', 'packages', targets);
              shown.progress = p;
              return { read: () => p.add() };
            }
          : undefined,
        {
          minDependents: config.pageMinDependents,
          // Each batch as it is appended: a whole registry's census is never held in memory.
          onAppended: (census) => {
            for (const c of census)
              wiring.stdout.write(
                `${c.component.kind}\t${c.component.id}\t${c.dependents ?? 'not read'}\t${c.read_date}\n`,
              );
          },
        },
      ),
    );
    shown.progress?.finish();
    wiring.stdout.write(`census: ${summary.read} package(s) read\n`);
    if (summary.incomplete.length > 0)
      wiring.stderr.write(
        `tended: the dependents listing of ${summary.incomplete.join(', ')} stopped before its end; the next census reads it again\n`,
      );
    return 0;
  } finally {
    await closeRecord(deps);
  }
}
