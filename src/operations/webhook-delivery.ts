import type { Observation } from '../domain/observation.js';
import type { ClaimedDelivery } from '../storage/subscription-records.js';
import type { RecordDeps } from './deps.js';
import { changeEntry } from './read-changes.js';
import { signWebhook } from './webhook-signature.js';
import { postWebhook, type SendOutcome } from './webhook-send.js';

/**
 * The webhook sender's one step (DESIGN §8f): claim due outbox rows under a lease, POST each as a
 * Standard Webhooks message, record the outcome. At least once: a row is retired only after its
 * endpoint answered 2xx, so a sender killed mid-delivery leaves the row leased, and once the lease
 * lapses another sender (or this one restarted) sends it again, with the same webhook-id.
 */
export interface DeliverySettings {
  /** TENDED_WEBHOOK_ALLOW_PRIVATE=on: loopback and private receivers, and plain http, allowed. */
  allowPrivate: boolean;
  timeoutMs: number;
  /** Rows claimed and sent side by side per step. */
  concurrency: number;
  /** First retry after this long, doubling per attempt (with jitter) up to retryMaxMs. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Consecutive failures of a subscription's endpoint after which its circuit opens, and for how long. */
  circuitAfter: number;
  circuitOpenMs: number;
}

export const DELIVERY_DEFAULTS: Omit<DeliverySettings, 'allowPrivate'> = {
  timeoutMs: 10_000,
  concurrency: 16,
  retryBaseMs: 30_000,
  retryMaxMs: 6 * 3_600_000,
  circuitAfter: 5,
  circuitOpenMs: 3_600_000,
};

/** Beyond the time-out, what a lease allows for the store's round trips before the row may be sent again. */
const LEASE_MARGIN_MS = 30_000;

export interface DeliveryReport {
  delivered: number;
  failed: number;
}

export interface DeliveryDeps extends RecordDeps {
  /** The service's public base URL: the links a delivery carries. */
  readonly publicUrl: string;
}

/**
 * How long a made delivery stays in the outbox, for the subscription's feed: then it is pruned, so
 * the outbox holds what is pending and a month of what was sent, not every delivery ever made.
 */
export const DELIVERED_KEPT_DAYS = 30;
const PRUNED_PER_STEP = 1_000;

/** Sends every due delivery, step by step, until none is due; returns what it did. */
export async function deliverDue(
  deps: DeliveryDeps,
  settings: DeliverySettings,
  random: () => number = Math.random,
): Promise<DeliveryReport> {
  const report: DeliveryReport = { delivered: 0, failed: 0 };
  const keptFrom = new Date(deps.clock.now().getTime() - DELIVERED_KEPT_DAYS * 86_400_000);
  await deps.store.pruneDeliveries(keptFrom.toISOString(), PRUNED_PER_STEP);
  for (;;) {
    const now = deps.clock.now();
    const claimed = await deps.store.claimDeliveries(
      now.toISOString(),
      settings.concurrency,
      new Date(now.getTime() + settings.timeoutMs + LEASE_MARGIN_MS).toISOString(),
    );
    // Several subscriptions' deliveries of one change read its observation once per step.
    const observations = new Map<number, Promise<Observation | null>>();
    const observationOf = (d: ClaimedDelivery) => {
      let found = observations.get(d.change.leaf_index);
      if (!found) {
        found = deps.store.observationAt(d.change.component, d.change.leaf_index);
        observations.set(d.change.leaf_index, found);
      }
      return found;
    };
    const delivered: ClaimedDelivery[] = [];
    await Promise.all(claimed.map((d) => deliverOne(deps, settings, d, observationOf, random, report, delivered)));
    // The step's successes are written together once its sends are done: a sender dying before
    // that sends them again (at least once), never loses one.
    await deps.store.deliveriesSucceeded(delivered, deps.clock.now().toISOString());
    report.delivered += delivered.length;
    if (claimed.length < settings.concurrency) return report;
  }
}

async function deliverOne(
  deps: DeliveryDeps,
  settings: DeliverySettings,
  d: ClaimedDelivery,
  observationOf: (d: ClaimedDelivery) => Promise<Observation | null>,
  random: () => number,
  report: DeliveryReport,
  delivered: ClaimedDelivery[],
): Promise<void> {
  const body = deliveryBody(deps, d, await observationOf(d));
  const timestamp = Math.floor(deps.clock.now().getTime() / 1000);
  const headers = {
    'webhook-id': d.msg_id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(d.secret, d.msg_id, timestamp, body),
  };
  let outcome: SendOutcome;
  try {
    outcome = await postWebhook(d.endpoint, headers, body, settings);
  } catch (error) {
    outcome = { ok: false, reason: `error: ${error instanceof Error ? error.message : String(error)}`.slice(0, 200) };
  }
  if (outcome.ok) {
    delivered.push(d);
    return;
  }
  const at = deps.clock.now();
  // Exponential back-off with jitter: half the delay fixed, half random, so endpoints that failed
  // together do not all come due again in the same instant.
  const delay = Math.min(settings.retryMaxMs, settings.retryBaseMs * 2 ** Math.min(d.attempts, 30));
  await deps.store.deliveryFailed(d, {
    at: at.toISOString(),
    retry_at: new Date(at.getTime() + delay / 2 + random() * (delay / 2)).toISOString(),
    reason: outcome.reason,
    circuit_after: settings.circuitAfter,
    paused_until: new Date(at.getTime() + settings.circuitOpenMs).toISOString(),
  });
  report.failed++;
}

/**
 * The message: the change as the change feed shows it, the observation that showed the new state
 * (its date, state, evidence and source, from the record) and its leaf, with where to prove it.
 * Built from the record alone, the same on every attempt.
 */
export function deliveryBody(deps: DeliveryDeps, d: ClaimedDelivery, observation: Observation | null): string {
  const change = changeEntry(d.change);
  const base = deps.publicUrl;
  return JSON.stringify({
    type: 'component.state_changed',
    timestamp: d.change.logged_at,
    data: {
      subscription: d.subscription_id,
      change,
      observation: observation && {
        observed_at: observation.observed_at,
        observation_date: observation.observation_date,
        state: observation.state,
        source: observation.source,
        evidence: observation.evidence,
        method: observation.method,
        corrects: observation.corrects,
        leaf_index: observation.leaf_index,
      },
      leaf_index: d.change.leaf_index,
      leaf: `${base}/api/chain/entries/${d.change.leaf_index}`,
      license: 'CC-BY-4.0',
    },
  });
}
