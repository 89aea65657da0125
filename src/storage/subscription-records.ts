import type { SubscriptionFilter } from '../domain/subscription.js';
import type { StateChange } from './state-change.js';

/** The store's records of webhook subscriptions and their outbox (DESIGN §8f); see Store. */

export interface NewSubscription {
  id: string;
  /** The id of the API key that made it (k_…), never the key. */
  key_id: string;
  endpoint: string;
  /** `whsec_…`: signs every delivery; shown once to the subscriber. */
  secret: string;
  filter: SubscriptionFilter;
  /** filterTargets(filter): the index keys appends match changes by. */
  targets: string[];
  created_at: string;
}

export interface SubscriptionRecord extends Omit<NewSubscription, 'targets'> {
  consecutive_failures: number;
  last_success_at: string | null;
  last_failure_at: string | null;
  /** Why the last delivery failed (a status or a network fault), never the receiver's body. */
  last_failure: string | null;
  /** Set while the endpoint's circuit is open: nothing is sent to it before then. */
  paused_until: string | null;
  /** Deliveries not yet made. */
  pending: number;
}

/** A claimed outbox row: what one POST sends, and the lease that makes it this sender's. */
export interface ClaimedDelivery {
  /** The row's stable id: the message's `webhook-id`, the same on every attempt. */
  msg_id: string;
  subscription_id: string;
  endpoint: string;
  secret: string;
  change: StateChange;
  attempts: number;
  /** The claim: outcomes are written only while it is still this sender's. */
  lease_until: string;
}

/** One change matched for a subscription, as its feed lists it. */
export interface SubscriptionDelivery {
  seq: number;
  msg_id: string;
  change: StateChange;
  enqueued_at: string;
  delivered_at: string | null;
  attempts: number;
}

export interface DeliveryFailure {
  at: string;
  /** When the row falls due again (back-off with jitter). */
  retry_at: string;
  reason: string;
  /** Consecutive failures after which the endpoint's circuit opens, and until when it stays open. */
  circuit_after: number;
  paused_until: string;
}
