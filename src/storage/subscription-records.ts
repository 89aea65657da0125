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

/** The port's webhook part (Store extends it): subscriptions, their targets and the delivery outbox. */
export interface SubscriptionStore {
  /**
   * Records a webhook subscription and its targets, unless its key already holds `maxPerKey`
   * (counted in the same transaction): false then, and nothing is written.
   */
  subscriptionCreate(subscription: NewSubscription, maxPerKey: number): Promise<boolean>;
  /** The subscription with its delivery status; null when none has that id. */
  subscription(id: string): Promise<SubscriptionRecord | null>;
  /** Deletes the subscription, its targets and every outbox row of it, delivered or not; false when none. */
  subscriptionDelete(id: string): Promise<boolean>;
  /**
   * Claims up to `limit` outbox rows due at `now` (not delivered, no running lease, their
   * subscription's circuit closed) until `leaseUntil`. Claimers on any number of connections never
   * get the same row while its lease runs; a lapsed lease (a killed sender) makes it claimable again.
   */
  claimDeliveries(now: string, limit: number, leaseUntil: string): Promise<ClaimedDelivery[]>;
  /**
   * Deliveries answered 2xx: their rows are done, their endpoints' failures reset, in one
   * transaction. A row whose lease was lost (it lapsed and another sender claimed it) is left alone.
   */
  deliveriesSucceeded(deliveries: ClaimedDelivery[], at: string): Promise<void>;
  /** A delivery failed: retried at failure.retry_at; the endpoint's circuit opens after enough in a row. */
  deliveryFailed(delivery: ClaimedDelivery, failure: DeliveryFailure): Promise<void>;
  /** Forgets up to `limit` deliveries made before `before`, oldest first; returns how many. */
  pruneDeliveries(before: string, limit: number): Promise<number>;
  /** The changes matched for a subscription after `afterSeq`, oldest first, at most `limit`. */
  subscriptionFeed(id: string, afterSeq: number, limit: number): Promise<SubscriptionDelivery[]>;
}
