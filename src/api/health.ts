import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { RecordDeps } from '../operations/deps.js';
import type { RateLimiter } from '../limits/limiter.js';
import type { FollowerStatus } from '../operations/follow.js';
import { HealthSchema, json } from './schemas.js';

/** Seconds a client is asked to wait while the store is away: the pool reconnects well within it. */
export const STORE_RETRY_AFTER_S = 5;

/** What every answer made while the store is away says, whichever door (API, page, MCP) it came by. */
export const STORE_UNAVAILABLE_DETAIL =
  'Tended’s database is not answering just now (it may be restarting). Nothing is wrong with the request: try again in a few seconds.';

/** The headers of an answer made while the store is away: when to come back, and not to cache it. */
export const STORE_UNAVAILABLE_HEADERS = {
  'Retry-After': String(STORE_RETRY_AFTER_S),
  'Cache-Control': 'no-store',
} as const;

const healthRoute = createRoute({
  method: 'get',
  path: '/healthz',
  operationId: 'getHealth',
  summary: 'Whether the store is reachable, and the log’s size',
  responses: {
    200: json(HealthSchema, 'The store answers.'),
    503: json(HealthSchema, 'The store does not answer; reads will fail until it does.'),
  },
});

export function registerHealthRoute(
  app: OpenAPIHono,
  deps: RecordDeps & { readonly limiter?: RateLimiter; readonly followers?: () => Promise<FollowerStatus[]> },
): void {
  app.openapi(healthRoute, async (c) => {
    // The service keeps serving on memory buckets while Redis is away: a degradation, not a failure.
    const rateLimit = deps.limiter?.status();
    const limits = rateLimit ? { rate_limit: rateLimit } : {};
    const redis =
      rateLimit?.redis === undefined
        ? {}
        : { redis: rateLimit.redis === 'connected' ? ('up' as const) : ('down' as const) };
    try {
      await deps.store.ping();
      const tree_size = await deps.store.treeSize();
      // Small rows only (each registry's cursor, counts and today's reads): a health check scans nothing.
      const followers = deps.followers ? { followers: (await deps.followers()).map(followerHealth) } : {};
      return c.json(
        {
          status: 'ok' as const,
          store: deps.store.backend,
          tree_size,
          dependencies: { store: 'up' as const, ...redis },
          ...limits,
          ...followers,
        },
        200,
      );
    } catch {
      const name = deps.store.backend === 'postgres' ? 'PostgreSQL' : 'SQLite';
      return c.json(
        {
          status: 'unavailable' as const,
          store: deps.store.backend,
          tree_size: null,
          detail: `The store (${name}) does not answer: reads and appends fail until it is back. Check that the database is running and reachable from this instance.`,
          dependencies: { store: 'down' as const, ...redis },
          ...limits,
        },
        503,
        STORE_UNAVAILABLE_HEADERS,
      );
    }
  });
}

/** A follower as /healthz says it: its state and lag, not its cursor (the operator's CLI shows that). */
function followerHealth(f: FollowerStatus) {
  return {
    registry: f.registry,
    status: f.status,
    lag_seconds: f.lag_seconds,
    last_contiguous_at: f.last_contiguous_at,
    faults_seen: f.faults_seen,
    last_fault: f.last_fault?.kind ?? null,
    backfill: f.backfill,
    following_here: f.local?.following_here ?? false,
  };
}
