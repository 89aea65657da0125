import type { ComponentRef } from '../domain/component.js';
import { observeDue, type ObserverDeps, type PassOptions, type PassReport } from '../operations/observe.js';

/** After a failed pass (the store away, say), the next one starts this soon rather than everyMs. */
export const RETRY_AFTER_FAILED_PASS_MS = 5_000;
/** How often `serve` runs a pass: a new observation reaches the record at most this long after it falls due. */
export const OBSERVER_PASS_MS = 60_000;

export interface Schedule {
  /**
   * Something fell due now (a follower held new packages or hints): run a pass at once rather
   * than at the next period, or right after the pass in progress.
   */
  nudge(): void;
  /** Stops after the pass in progress, if any, has finished. */
  stop(): Promise<void>;
}

/**
 * The observer inside `serve` (and `tended observe`): a pass over due components now, then
 * another every `everyMs`. Components are due once per UTC day, so most passes find little to do;
 * a pass is never started while the previous one runs.
 */
export function startSchedule(
  deps: ObserverDeps,
  options: PassOptions & {
    everyMs: number;
    retryMs?: number;
    onPass?: (report: PassReport) => void;
    onError?: (error: unknown) => void;
  },
): Schedule {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let inPass = false;
  let nudged = false;
  // Claims a failed pass could not hand back; the next pass hands them back first.
  const giveBack: ComponentRef[] = [];

  const pass = async () => {
    let wait = options.everyMs;
    inPass = true;
    nudged = false;
    try {
      const report = await observeDue(deps, { ...options, giveBack });
      if (report.observed + report.deferred + report.dropped + report.unconfirmed + report.skipped + report.failed > 0)
        options.onPass?.(report);
    } catch (error) {
      options.onError?.(error);
      wait = Math.min(options.everyMs, options.retryMs ?? RETRY_AFTER_FAILED_PASS_MS);
    }
    inPass = false;
    if (nudged) wait = 0;
    if (!stopped)
      timer = setTimeout(() => {
        running = pass();
      }, wait);
  };
  running = pass();

  return {
    nudge() {
      if (stopped) return;
      if (inPass) {
        nudged = true;
        return;
      }
      if (timer) clearTimeout(timer);
      timer = null;
      running = pass();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
