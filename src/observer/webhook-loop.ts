import {
  deliverDue,
  type DeliveryDeps,
  type DeliveryReport,
  type DeliverySettings,
} from '../operations/webhook-delivery.js';

/** How often the sender looks for due deliveries when nothing nudged it: retries fall due on their own. */
export const WEBHOOK_POLL_MS = 5_000;

export interface Delivering {
  /** Something was appended (an observer pass): look for deliveries now. */
  nudge(): void;
  /** Stops after the step in progress; a delivery under way finishes or its lease lapses. */
  stop(): Promise<void>;
}

/**
 * The webhook sender beside the observer (`serve`, `tended observe`): a step now, then one every
 * `everyMs` or when nudged, never two at once in a process. Several processes may run it against
 * one store; the outbox's leases keep them off each other's rows.
 */
export function startDelivering(
  deps: DeliveryDeps,
  settings: DeliverySettings,
  options: { everyMs?: number; onReport?: (report: DeliveryReport) => void; onError?: (error: unknown) => void } = {},
): Delivering {
  const everyMs = options.everyMs ?? WEBHOOK_POLL_MS;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let inStep = false;
  let nudged = false;

  const step = async () => {
    inStep = true;
    nudged = false;
    try {
      const report = await deliverDue(deps, settings);
      if (report.delivered + report.failed > 0) options.onReport?.(report);
    } catch (error) {
      options.onError?.(error);
    }
    inStep = false;
    if (!stopped)
      timer = setTimeout(
        () => {
          running = step();
        },
        nudged ? 0 : everyMs,
      );
  };
  running = step();

  return {
    nudge() {
      if (stopped) return;
      if (inStep) {
        nudged = true;
        return;
      }
      if (timer) clearTimeout(timer);
      timer = null;
      running = step();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
