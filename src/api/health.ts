import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { RecordDeps } from '../operations/deps.js';
import type { RateLimiter } from '../limits/limiter.js';
import { HealthSchema, json } from './schemas.js';

const healthRoute = createRoute({
  method: 'get',
  path: '/healthz',
  summary: 'Whether the store is reachable, and the log’s size',
  responses: {
    200: json(HealthSchema, 'The store answers.'),
    503: json(HealthSchema, 'The store does not answer; reads will fail until it does.'),
  },
});

export function registerHealthRoute(app: OpenAPIHono, deps: RecordDeps & { readonly limiter?: RateLimiter }): void {
  app.openapi(healthRoute, async (c) => {
    // The service keeps serving on memory buckets while Redis is away: a degradation, not a failure.
    const limits = deps.limiter ? { rate_limit: deps.limiter.status() } : {};
    try {
      await deps.store.ping();
      return c.json({ status: 'ok' as const, store: deps.store.backend, tree_size: await deps.store.treeSize(), ...limits }, 200);
    } catch {
      return c.json(
        { status: 'unavailable' as const, store: deps.store.backend, tree_size: null, detail: 'the store does not answer; try again shortly', ...limits },
        503,
      );
    }
  });
}
