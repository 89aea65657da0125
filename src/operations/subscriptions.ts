import { randomBytes } from 'node:crypto';
import { TendedError, ValidationError } from '../domain/errors.js';
import {
  filterTargets,
  parseEndpoint,
  parseSubscriptionFilter,
  SUBSCRIPTIONS_PER_KEY_MAX,
  type SubscriptionFilter,
} from '../domain/subscription.js';
import type { SubscriptionDelivery, SubscriptionRecord } from '../storage/subscription-records.js';
import type { RecordDeps } from './deps.js';
import { NotFoundError } from './read-chain.js';
import { changeEntry, type ChangeEntry } from './read-changes.js';
import { EndpointRefusedError, resolveEndpoint } from './webhook-address.js';
import { newWebhookSecret } from './webhook-signature.js';

/**
 * Webhook subscriptions (DESIGN §8f): made, read and deleted by the API key that made them. A
 * subscription keeps the public names it watches, the endpoint given, its secret and the key's
 * id; nothing else about the subscriber. Deleting it deletes its deliveries, sent or not.
 */
export interface SubscriptionDeps extends RecordDeps {
  /** TENDED_WEBHOOK_ALLOW_PRIVATE=on. */
  readonly allowPrivateWebhooks: boolean;
}

/** The key already holds as many subscriptions as it may. */
export class SubscriptionLimitError extends TendedError {
  constructor(message: string) {
    super('subscription_limit', message);
    this.name = 'SubscriptionLimitError';
  }
}

export interface SubscriptionView {
  id: string;
  endpoint: string;
  filter: SubscriptionFilter;
  created_at: string;
  delivery: {
    pending: number;
    last_success_at: string | null;
    last_failure_at: string | null;
    last_failure: string | null;
    consecutive_failures: number;
    /** The endpoint's circuit is open: nothing is sent before paused_until. */
    paused: boolean;
    paused_until: string | null;
  };
}

export async function createSubscription(
  deps: SubscriptionDeps,
  keyId: string,
  body: unknown,
): Promise<SubscriptionView & { secret: string }> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ValidationError([
      {
        loc: ['body'],
        msg: 'The body must be a JSON object: {"endpoint": "https://…", "components": ["npm/left-pad"], "owners": ["github/acme"], "states": ["archived"]}',
        type: 'type_error.object',
      },
    ]);
  const b = body as Record<string, unknown>;
  const filter = parseSubscriptionFilter(b);
  const url = parseEndpoint(b['endpoint'], deps.allowPrivateWebhooks);
  try {
    await resolveEndpoint(url, deps.allowPrivateWebhooks);
  } catch (error) {
    if (!(error instanceof EndpointRefusedError)) throw error;
    throw new ValidationError([{ loc: ['body', 'endpoint'], msg: error.message, type: 'value_error.endpoint' }]);
  }
  const now = deps.clock.now().toISOString();
  const subscription = {
    id: `sub_${randomBytes(12).toString('base64url')}`,
    key_id: keyId,
    endpoint: url.toString(),
    secret: newWebhookSecret(),
    filter,
    targets: filterTargets(filter),
    created_at: now,
  };
  if (!(await deps.store.subscriptionCreate(subscription, SUBSCRIPTIONS_PER_KEY_MAX)))
    throw new SubscriptionLimitError(
      `This API key already holds ${SUBSCRIPTIONS_PER_KEY_MAX} subscriptions, the most one key may; delete one, or name more components in one.`,
    );
  const view = toView(
    {
      ...subscription,
      consecutive_failures: 0,
      last_success_at: null,
      last_failure_at: null,
      last_failure: null,
      paused_until: null,
      pending: 0,
    },
    now,
  );
  return { ...view, secret: subscription.secret };
}

/** The key's subscription; a NotFoundError for an unknown id or another key's (which is not told apart). */
async function owned(deps: RecordDeps, keyId: string, id: string): Promise<SubscriptionRecord> {
  const record = /^sub_[\w-]{16}$/.test(id) ? await deps.store.subscription(id) : null;
  if (!record || record.key_id !== keyId)
    throw new NotFoundError(`No subscription ${id.slice(0, 40)} belongs to this API key.`);
  return record;
}

export async function readSubscription(deps: RecordDeps, keyId: string, id: string): Promise<SubscriptionView> {
  return toView(await owned(deps, keyId, id), deps.clock.now().toISOString());
}

export async function deleteSubscription(deps: RecordDeps, keyId: string, id: string): Promise<void> {
  await owned(deps, keyId, id);
  await deps.store.subscriptionDelete(id);
}

export const FEED_LIMIT_MAX = 200;

export interface SubscriptionFeedPage {
  subscription: string;
  after: number;
  entries: (ChangeEntry & { seq: number; webhook_id: string; delivered_at: string | null; attempts: number })[];
  /** The cursor of the next page, or null when this page holds the last entry. */
  next_after: number | null;
}

export async function readSubscriptionFeed(
  deps: RecordDeps,
  keyId: string,
  id: string,
  afterRaw: string | undefined,
): Promise<SubscriptionFeedPage> {
  const after = afterRaw === undefined ? 0 : Number(afterRaw);
  if (!Number.isSafeInteger(after) || after < 0)
    throw new ValidationError([
      {
        loc: ['query', 'after'],
        msg: 'after must be a whole number: the seq of the last entry read',
        type: 'value_error.after',
      },
    ]);
  await owned(deps, keyId, id);
  const rows: SubscriptionDelivery[] = await deps.store.subscriptionFeed(id, after, FEED_LIMIT_MAX + 1);
  const page = rows.slice(0, FEED_LIMIT_MAX);
  return {
    subscription: id,
    after,
    entries: page.map((r) => ({
      ...changeEntry(r.change),
      seq: r.seq,
      webhook_id: r.msg_id,
      delivered_at: r.delivered_at,
      attempts: r.attempts,
    })),
    next_after: rows.length > FEED_LIMIT_MAX ? page[page.length - 1]!.seq : null,
  };
}

function toView(r: SubscriptionRecord, now: string): SubscriptionView {
  const paused = r.paused_until !== null && r.paused_until > now;
  return {
    id: r.id,
    endpoint: r.endpoint,
    filter: r.filter,
    created_at: r.created_at,
    delivery: {
      pending: r.pending,
      last_success_at: r.last_success_at,
      last_failure_at: r.last_failure_at,
      last_failure: r.last_failure,
      consecutive_failures: r.consecutive_failures,
      paused,
      paused_until: paused ? r.paused_until : null,
    },
  };
}
