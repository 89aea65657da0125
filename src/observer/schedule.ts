import { observeDue, type ObserverDeps, type PassOptions, type PassReport } from '../operations/observe.js';

export interface Schedule {
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
  options: PassOptions & { everyMs: number; onPass?: (report: PassReport) => void; onError?: (error: unknown) => void },
): Schedule {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();

  const pass = async () => {
    try {
      const report = await observeDue(deps, options);
      if (report.observed + report.skipped + report.failed > 0) options.onPass?.(report);
    } catch (error) {
      options.onError?.(error);
    }
    if (!stopped) timer = setTimeout(() => (running = pass()), options.everyMs);
  };
  running = pass();

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
