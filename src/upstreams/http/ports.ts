/**
 * What the HTTP client is handed from outside: a cache of validators and facts for conditional
 * requests, and a watcher that counts answers and holds. Here, beside the client, so the machinery
 * needs nothing from the readers' port above it.
 */
import type { EvidenceValue } from '../../domain/observation.js';
import type { UnreachableReason } from '../../domain/state.js';

export interface ConditionalEntry {
  etag: string | null;
  last_modified: string | null;
  facts: EvidenceValue;
}

/** Remembers, per URL, the validators and the facts extracted from the last 200, so a 304 can re-confirm them. */
export interface ConditionalCache {
  get(url: string): Promise<ConditionalEntry | null>;
  set(url: string, entry: ConditionalEntry): Promise<void>;
}

/**
 * What one GET came to, as the metrics count it: a bounded set, never a URL. `held` is a request
 * not sent because the upstream's hold still runs; `rate_limited` an answer that asked to wait.
 */
export type UpstreamOutcome = 'ok' | 'not_modified' | 'not_found' | 'other_status' | 'held' | UnreachableReason;

export interface UpstreamWatcher {
  answer(upstream: string, outcome: UpstreamOutcome): void;
  /** The upstream holds every reader back until `untilMs` (epoch ms, on the client's clock). */
  hold(upstream: string, untilMs: number): void;
}
