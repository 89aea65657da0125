import type { RecordDeps } from '../operations/deps.js';
import {
  witnessLatestCheckpoint,
  type ConfiguredWitness,
  type WitnessOptions,
  type WitnessOutcome,
} from '../operations/witness-checkpoints.js';

/**
 * Sends the log's newest checkpoint to each configured witness, once a period. The log signs a
 * checkpoint with every append (each observer pass, each follower batch), many a minute at
 * registry scale; a witness is asked about the newest one at most once a period, so what the log
 * asks of a witness is bounded by the period (one a minute: at most 1,440 add-checkpoint calls a
 * day, plus one retry after each 409), not by how often the log appends. A witness that failed is
 * tried again after a back-off that doubles up to an hour.
 */

export const WITNESS_PERIOD_MS = 60_000;
const MAX_BACK_OFF_MS = 60 * 60 * 1000;

export interface Witnessing {
  /** One round now (tests, and `serve` at start); resolves with each witness's outcome. */
  round(): Promise<(WitnessOutcome | null)[]>;
  stop(): Promise<void>;
}

export function startWitnessing(
  deps: RecordDeps,
  witnesses: ConfiguredWitness[],
  options: WitnessOptions & {
    everyMs: number;
    onOutcome: (outcome: WitnessOutcome) => void;
    onError: (witness: string, error: unknown) => void;
  },
): Witnessing {
  const failures = new Map<string, { count: number; until: number }>();
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> = Promise.resolve();

  const one = async (w: ConfiguredWitness): Promise<WitnessOutcome | null> => {
    const name = w.cosigner.name;
    const failed = failures.get(name);
    if (failed && Date.now() < failed.until) return null;
    try {
      const outcome = await witnessLatestCheckpoint(deps, w, options);
      if (outcome && outcome.kind === 'refused' && !outcome.inconsistent) {
        const count = (failed?.count ?? 0) + 1;
        failures.set(name, {
          count,
          until: Date.now() + Math.min(MAX_BACK_OFF_MS, options.everyMs * 2 ** (count - 1)),
        });
      } else failures.delete(name);
      if (outcome && outcome.kind !== 'current') options.onOutcome(outcome);
      return outcome;
    } catch (error) {
      options.onError(name, error);
      return null;
    }
  };
  const round = () => Promise.all(witnesses.map(one));
  const tick = async () => {
    await round();
    if (!stopped)
      timer = setTimeout(() => {
        running = tick();
      }, options.everyMs);
  };
  if (witnesses.length > 0) running = tick();
  return {
    round,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
