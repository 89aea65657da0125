import { routePath } from 'hono/route';
import type { Context } from 'hono';

/**
 * What the edge (app.ts) and the hot path (hot-path.ts) say of every answer they write, for the
 * operator's metrics (cli/metrics.ts). Labels are bounded by construction: the route is the
 * pattern the router matched (never the path asked for), the method one of a few, the status a
 * number; never an address, a key, a query or a body.
 */
export interface RequestMetrics {
  answered(route: string, method: string, status: number, seconds: number): void;
}

/** The label of a request no route took (a 404, a 405): one value for all of them. */
export const UNMATCHED = 'unmatched';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']);

/** A method as a label: the usual ones as they are, anything else (Node parses ~30) as one value. */
export function methodLabel(method: string): string {
  return METHODS.has(method) ? method : 'OTHER';
}

/**
 * The route pattern the router matched for this request (`/api/v1/entity/:owner/:repo`), or
 * UNMATCHED when only the catch-all middleware matched. Read after the answer is made.
 */
export function routeLabel(c: Context): string {
  const path = routePath(c, -1);
  return path === '' || path === '*' || path === '/*' ? UNMATCHED : path;
}
