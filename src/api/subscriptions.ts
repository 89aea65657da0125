import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { ValidationError } from '../domain/errors.js';
import { ASSERTED_STATES } from '../domain/state.js';
import {
  SUBSCRIPTION_COMPONENTS_MAX,
  SUBSCRIPTION_OWNERS_MAX,
  SUBSCRIPTIONS_PER_KEY_MAX,
} from '../domain/subscription.js';
import { decodeText } from '../parsers/decode-text.js';
import { apiKeyChecker } from '../operations/api-keys.js';
import { parseJsonBody } from '../operations/json-manifest.js';
import {
  createSubscription,
  deleteSubscription,
  FEED_LIMIT_MAX,
  readSubscription,
  readSubscriptionFeed,
  type SubscriptionDeps,
  type SubscriptionFeedPage,
} from '../operations/subscriptions.js';
import { mediaType, readBody, UnsupportedMediaTypeError } from './body.js';
import { escapeXml } from './changes.js';
import { ErrorDetail, errorResponses, json, ObservationSchema } from './schemas.js';

/** A subscription names at most SUBSCRIPTION_COMPONENTS_MAX components: well under this. */
const SUBSCRIPTION_LIMIT_BYTES = 256 * 1024;
const KEY_CACHE_MS = 10_000;

const asserted = z.enum(ASSERTED_STATES as [string, ...string[]]);

const SubscriptionRequest = z
  .object({
    endpoint: z.string().openapi({ example: 'https://hooks.example.com/tended' }),
    components: z
      .array(z.string())
      .max(SUBSCRIPTION_COMPONENTS_MAX)
      .optional()
      .openapi({ description: 'purls or kind/name', example: ['pkg:npm/left-pad', 'github/expressjs/express'] }),
    owners: z
      .array(z.string())
      .max(SUBSCRIPTION_OWNERS_MAX)
      .optional()
      .openapi({ description: 'kind/owner namespaces', example: ['github/acme', 'npm/@acme'] }),
    states: z
      .array(asserted)
      .optional()
      .openapi({ description: 'Every change into these states', example: ['archived', 'deleted'] }),
  })
  .openapi('SubscriptionRequest');

const ComponentRefSchema = z.object({ kind: z.string(), id: z.string() });
const SubscriptionSchema = z
  .object({
    id: z.string().openapi({ example: 'sub_Xq3v9kPz0aB1cD2e' }),
    endpoint: z.string(),
    filter: z.object({
      components: z.array(ComponentRefSchema),
      owners: z.array(z.object({ kind: z.string(), owner: z.string() })),
      states: z.array(asserted),
    }),
    created_at: z.string(),
    delivery: z.object({
      pending: z.number().int(),
      last_success_at: z.string().nullable(),
      last_failure_at: z.string().nullable(),
      last_failure: z.string().nullable(),
      consecutive_failures: z.number().int(),
      paused: z.boolean().openapi({ description: 'The endpoint’s circuit is open after repeated failures.' }),
      paused_until: z.string().nullable(),
    }),
  })
  .openapi('Subscription');

const idParam = z.object({
  id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: 'sub_Xq3v9kPz0aB1cD2e' }),
});
const needsKey = {
  401: json(ErrorDetail, 'No X-API-Key, or one that is unknown or revoked: subscriptions need a key.'),
};
const security = [{ ApiKey: [] }];

const createRouteDoc = createRoute({
  method: 'post',
  path: '/api/v1/subscriptions',
  operationId: 'createSubscription',
  summary: 'Subscribe an HTTPS endpoint to state changes (Standard Webhooks); needs an API key',
  description:
    `Each state change the record appends that the filter matches (a named component, any component under an owner, or any change into a state) is POSTed to the endpoint as a Standard Webhooks message, at least once. ` +
    `At most ${SUBSCRIPTION_COMPONENTS_MAX} components and ${SUBSCRIPTION_OWNERS_MAX} owners per subscription, ${SUBSCRIPTIONS_PER_KEY_MAX} subscriptions per key. ` +
    'The endpoint must resolve to a public address. The answer shows the signing secret once.',
  security,
  request: { body: { content: { 'application/json': { schema: SubscriptionRequest } }, required: true } },
  responses: {
    201: json(
      SubscriptionSchema.extend({ secret: z.string().openapi({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }) }),
      'The subscription, with its signing secret (shown this once).',
    ),
    409: json(ErrorDetail, 'The key already holds as many subscriptions as it may.'),
    ...needsKey,
    ...errorResponses,
  },
});

const readRouteDoc = createRoute({
  method: 'get',
  path: '/api/v1/subscriptions/{id}',
  operationId: 'readSubscription',
  summary: 'A subscription’s filter, endpoint and delivery status (the key that made it only)',
  security,
  request: { params: idParam },
  responses: { 200: json(SubscriptionSchema, 'The subscription.'), ...needsKey, ...errorResponses },
});

const deleteRouteDoc = createRoute({
  method: 'delete',
  path: '/api/v1/subscriptions/{id}',
  operationId: 'deleteSubscription',
  summary: 'Delete a subscription with every delivery of it, sent or pending: all Tended held of it',
  security,
  request: { params: idParam },
  responses: { 204: { description: 'Deleted.' }, ...needsKey, ...errorResponses },
});

const ChangeSchema = z.object({
  component: z.string(),
  kind: z.string(),
  purl: z.array(z.string()),
  from: asserted,
  to: asserted,
  observed: z.string(),
  interval: z.object({ after: z.string(), on_or_before: z.string() }).nullable(),
  leaf_index: z.number().int(),
  correction: z.object({ corrects: z.number().int() }).nullable(),
  logged_at: z.string(),
});

const FeedSchema = z
  .object({
    subscription: z.string(),
    after: z.number().int(),
    entries: z.array(
      ChangeSchema.extend({
        seq: z.number().int(),
        webhook_id: z.string(),
        delivered_at: z.string().nullable(),
        attempts: z.number().int(),
      }),
    ),
    next: z.string().nullable(),
  })
  .openapi('SubscriptionFeed');

const feedRouteDoc = createRoute({
  method: 'get',
  path: '/api/v1/subscriptions/{id}/feed',
  operationId: 'readSubscriptionFeed',
  summary:
    'The changes matched for a subscription, oldest first (JSON, or Atom 1.0): for those who cannot receive webhooks',
  description: `At most ${FEED_LIMIT_MAX} entries a page; \`after\` is the last entry's \`seq\`. Atom with \`format=atom\` or \`Accept: application/atom+xml\`.`,
  security,
  request: {
    params: idParam,
    query: z.object({
      after: z
        .string()
        .optional()
        .openapi({ param: { name: 'after', in: 'query' }, example: '0' }),
      format: z
        .string()
        .optional()
        .openapi({ param: { name: 'format', in: 'query' }, example: 'atom' }),
    }),
  },
  responses: {
    200: {
      content: { 'application/json': { schema: FeedSchema }, 'application/atom+xml': { schema: z.string() } },
      description: 'One page of the subscription’s feed.',
    },
    ...needsKey,
    ...errorResponses,
  },
});

/** The body of each delivery (operations/webhook-delivery.ts deliveryBody), for the document's `webhooks`. */
const WebhookMessage = z
  .object({
    type: z.literal('component.state_changed'),
    timestamp: z.string().openapi({ description: 'When the change was logged (the same on every retry).' }),
    data: z.object({
      subscription: z.string(),
      change: ChangeSchema,
      observation: ObservationSchema.nullable(),
      leaf_index: z.number().int(),
      leaf: z.string().openapi({ description: 'The leaf’s entry in the log, to prove it.' }),
      license: z.literal('CC-BY-4.0'),
    }),
  })
  .openapi('WebhookMessage');

const signedHeader = (description: string) => ({ description });
const stateChangedWebhook = createRoute({
  method: 'post',
  path: 'componentStateChanged',
  operationId: 'componentStateChanged',
  summary: 'What Tended POSTs to a subscription’s endpoint for each matching state change',
  description:
    'A Standard Webhooks message: verify `webhook-signature` (v1, base64 HMAC-SHA256 of `id.timestamp.body` keyed by the secret) before trusting it, and deduplicate by `webhook-id` (delivery is at least once).',
  request: {
    headers: z.object({
      'webhook-id': z.string().openapi(signedHeader('The delivery’s stable id, the same on every retry.')),
      'webhook-timestamp': z.string().openapi(signedHeader('Seconds since the epoch when this attempt was signed.')),
      'webhook-signature': z.string().openapi(signedHeader('`v1,<base64 HMAC-SHA256>`.')),
    }),
    body: { content: { 'application/json': { schema: WebhookMessage } }, required: true },
  },
  responses: {
    200: { description: 'Any 2xx: delivered. Anything else, no answer in 10 s or a redirect: retried with back-off.' },
  },
});

export function registerSubscriptionRoutes(app: OpenAPIHono, deps: SubscriptionDeps & { publicUrl?: string }): void {
  const checkKey = apiKeyChecker(deps.store, KEY_CACHE_MS);
  /** The id of the request's valid API key, or the 401 answer to give. */
  const keyOf = async (c: Context): Promise<string | Response> => {
    const key = c.req.header('x-api-key');
    const check = key ? await checkKey(key) : null;
    if (check?.status === 'valid') return check.id;
    c.header('Link', undefined);
    return c.json(
      {
        detail:
          check === null
            ? 'Subscriptions need an API key: send it in X-API-Key (the operator issues keys with `tended keys create`).'
            : 'X-API-Key names no valid key of this service; subscriptions need one issued by the operator.',
      },
      401,
    );
  };
  for (const route of [createRouteDoc, readRouteDoc, deleteRouteDoc, feedRouteDoc])
    app.openAPIRegistry.registerPath(route);
  app.openAPIRegistry.registerWebhook(stateChangedWebhook);

  app.post('/api/v1/subscriptions', async (c) => {
    const key = await keyOf(c);
    if (key instanceof Response) return key;
    const type = mediaType(c);
    if (type !== 'application/json' && !type.endsWith('+json'))
      throw new UnsupportedMediaTypeError(c.req.header('content-type') ?? '', ['application/json']);
    const body = parseJsonBody(
      decodeText(await readBody(c, SUBSCRIPTION_LIMIT_BYTES)),
      'Send a JSON object: {"endpoint": "https://…", "components": ["npm/left-pad"]}.',
    );
    return c.json(await createSubscription(deps, key, body), 201);
  });
  app.get('/api/v1/subscriptions/:id', async (c) => {
    const key = await keyOf(c);
    if (key instanceof Response) return key;
    c.header('cache-control', 'private, no-store');
    return c.json(await readSubscription(deps, key, c.req.param('id')), 200);
  });
  app.delete('/api/v1/subscriptions/:id', async (c) => {
    const key = await keyOf(c);
    if (key instanceof Response) return key;
    await deleteSubscription(deps, key, c.req.param('id'));
    return c.body(null, 204);
  });
  app.get('/api/v1/subscriptions/:id/feed', async (c) => {
    const key = await keyOf(c);
    if (key instanceof Response) return key;
    const format = c.req.query('format');
    if (format !== undefined && format !== 'json' && format !== 'atom')
      throw new ValidationError([
        { loc: ['query', 'format'], msg: 'format must be json or atom', type: 'value_error.format' },
      ]);
    const page = await readSubscriptionFeed(deps, key, c.req.param('id'), c.req.query('after'));
    const base = deps.publicUrl ?? new URL(c.req.url).origin;
    const atom =
      format === 'atom' || (format === undefined && (c.req.header('accept') ?? '').includes('application/atom+xml'));
    const self = `${base}/api/v1/subscriptions/${page.subscription}/feed`;
    const next = page.next_after === null ? null : `${self}?after=${page.next_after}${atom ? '&format=atom' : ''}`;
    c.header('Vary', 'Accept');
    c.header('cache-control', 'private, no-store');
    if (next) c.header('Link', `<${next}>; rel="next"`);
    if (atom)
      return c.body(atomFeed(base, self, page, next), 200, { 'content-type': 'application/atom+xml; charset=utf-8' });
    const { next_after: _, ...rest } = page;
    return c.json({ ...rest, next }, 200);
  });
}

/** Atom 1.0 (RFC 4287): one entry per delivery, its id the delivery's webhook-id. */
function atomFeed(base: string, self: string, page: SubscriptionFeedPage, next: string | null): string {
  const updated = page.entries.at(-1)?.logged_at ?? new Date(0).toISOString();
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `<id>${escapeXml(self)}</id>`,
    `<title>Tended: changes for subscription ${escapeXml(page.subscription)}</title>`,
    `<updated>${escapeXml(updated)}</updated>`,
    '<author><name>Tended</name></author>',
    '<rights>CC-BY-4.0: https://creativecommons.org/licenses/by/4.0/</rights>',
    `<link rel="self" type="application/atom+xml" href="${escapeXml(`${self}?format=atom`)}"/>`,
    next ? `<link rel="next" type="application/atom+xml" href="${escapeXml(next)}"/>` : '',
    ...page.entries.map((e) =>
      [
        '<entry>',
        `<id>urn:tended:webhook:${escapeXml(e.webhook_id)}</id>`,
        `<title>${escapeXml(`${e.component} (${e.kind}): ${e.from} → ${e.to}${e.correction ? ' (correction)' : ''}`)}</title>`,
        `<updated>${escapeXml(e.logged_at)}</updated>`,
        `<link rel="related" type="application/json" href="${escapeXml(`${base}/api/chain/entries/${e.leaf_index}`)}"/>`,
        `<category term="${escapeXml(e.to)}"/>`,
        `<summary type="text">${escapeXml(`${e.from} → ${e.to}, observed ${e.observed} (leaf ${e.leaf_index}).`)}</summary>`,
        '</entry>',
      ].join(''),
    ),
    '</feed>',
    '',
  ].join('\n');
}
