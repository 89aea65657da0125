import { trimTrailing } from '../domain/text.js';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { registerChainRoutes } from '../api/chain.js';
import { registerTlogRoutes } from '../api/tlog.js';
import { registerChangesRoute } from '../api/changes.js';
import { registerExportRoutes } from '../api/exports.js';
import { registerEntityRoutes } from '../api/entity.js';
import { registerHealthRoute } from '../api/health.js';
import { registerPendingRoutes } from '../api/pending.js';
import type { ObserverDeps } from '../operations/observe.js';
import type { AnswerCache } from '../operations/answer-cache.js';
import type { EntityJson } from '../operations/read-entity.js';
import type { HeadAnswers } from '../operations/read-chain.js';
import type { DiscoverySettings } from '../operations/discovery.js';
import type { FollowerStatus } from '../operations/follow.js';
import { registerDisputeRoute } from '../api/dispute.js';
import { registerSubscriptionRoutes } from '../api/subscriptions.js';
import { registerSubmissionRoutes } from '../api/submissions.js';
import { checkTooLargePage, registerCheckPageRoutes } from '../pages/check-routes.js';
import { registerVerdictKeysRoute } from '../api/verdict-keys.js';
import { registerFactRoutes } from '../api/facts.js';
import type { VerdictService } from '../operations/verdict.js';
import { sharedParsePool, type ParsePool } from '../operations/parse-pool.js';
import { registerMcpRoutes } from '../api/mcp.js';
import { registerPageRoutes, type PageDeps } from '../pages/routes.js';
import { registerBadgeRoutes } from '../pages/badge-routes.js';
import { notFound, wantsHtml } from '../pages/not-found.js';
import { API_REFERENCE_PATH } from '../pages/api-reference-page.js';
import type { BadgeCache } from '../pages/badge-answer.js';
import { EXPOSE_HEADERS, preflightResponse } from './cors.js';
import { detailResponse, errorResponse, validationResponse, zodIssues } from './errors.js';
import { methodsAllowedFor } from './routes.js';
import { registerApiDocumentRoutes } from './api-document-routes.js';
import { methodLabel, routeLabel, type RequestMetrics } from './request-metrics.js';
import { bodyCap } from './body-cap.js';
import { bodyTooLargeSentence, DISPUTE_LIMIT_BYTES, SUBMISSION_LIMIT_BYTES } from '../api/body.js';
import type { RateLimiter } from '../limits/limiter.js';
import { rateLimit } from './rate-limit.js';
import { HTML_SECURITY_HEADERS } from './security-headers.js';
import { discardUnreadBody } from './unread-body.js';
import { dataAnswerCaching, ERROR_ANSWER, isDataPath } from './http-caching.js';
import { API_VERSION } from '../domain/api-version.js';

export { API_VERSION };
/** A dispute names one component: a few hundred bytes. */
export const LICENSE_LINK = '<https://creativecommons.org/licenses/by/4.0/>; rel="license"';

export interface AppDeps extends ObserverDeps, PageDeps {
  /** Where unexpected errors go (pino in production). Never a request body, never a client IP. */
  readonly logError: (error: unknown) => void;
  /** The rate limit on every route; absent only in tests that are not about limits. */
  readonly limiter?: RateLimiter;
  /** Set when TENDED_VERDICTS=on: answers carry signed verdicts and the key set is published. */
  readonly verdicts?: VerdictService | null;
  /** The address `serve` binds to; on a loopback address /mcp refuses foreign Host headers (DNS rebinding). */
  readonly listenHost?: string;
  /** TENDED_EXPORT_DIR: the daily dumps /api/v1/exports lists and serves; none when absent. */
  readonly exportDir?: string;
  /** TENDED_DISCOVERY and its daily bound; absent or disabled, no read queues anything. */
  readonly discovery?: DiscoverySettings | null;
  /** The entity answers cache, when the caller shares it with the hot path (hot-path.ts). */
  readonly entityAnswers?: AnswerCache<EntityJson>;
  /** The rendered badges, when the caller shares them with the hot path (hot-badge.ts). */
  readonly badgeAnswers?: BadgeCache;
  /** The log's head as served, when the caller shares it with the hot path (hot-log-head.ts). */
  readonly headAnswers?: HeadAnswers;
  /** Where submissions are parsed (worker threads under a deadline); the process's default pool when absent. */
  readonly parsing?: ParsePool;
  /** Told of every answer by route pattern, method, status and time (the operator's metrics); absent, nothing is. */
  readonly requests?: RequestMetrics;
  /** The followed registries' health for /healthz (TENDED_FOLLOW); absent when none is followed. */
  readonly followers?: () => Promise<FollowerStatus[]>;
  /** TENDED_WEBHOOK_ALLOW_PRIVATE: subscriptions may name loopback and private endpoints; off when absent. */
  readonly allowPrivateWebhooks?: boolean;
}

/** The HTTP application, without listening: tests call `app.request()`, main.ts serves it. */
export function build(deps: AppDeps): OpenAPIHono {
  const app = new OpenAPIHono({
    defaultHook: (result, c) => {
      if (!result.success) return validationResponse(c, zodIssues(result.target, result.error.issues));
      return undefined;
    },
  });

  const limit = deps.limiter ? rateLimit(deps.limiter, deps.store) : null;
  const caching = dataAnswerCaching(() => deps.clock.now());
  // One edge middleware rather than several: each hono middleware is a step on every request.
  const requests = deps.requests;
  app.use('*', async (c, next) => {
    const started = requests ? performance.now() : 0;
    const method = c.req.method;
    if (method === 'OPTIONS' && c.req.header('access-control-request-method')) {
      // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- hono types a middleware context's input as `any`
      requests?.answered(routeLabel(c), 'OPTIONS', 204, (performance.now() - started) / 1000);
      return preflightResponse();
    }
    c.header('Access-Control-Allow-Origin', '*');
    c.header('Access-Control-Expose-Headers', EXPOSE_HEADERS);
    // The rate limit runs inside this step rather than as a middleware of its own; it counts every
    // request but a preflight, malformed ones included.
    // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- hono types a middleware context's input as `any`
    let admitted = limit?.admit(c);
    if (admitted instanceof Promise) admitted = await admitted;
    if (admitted instanceof Response) {
      c.res = admitted;
    } else if ((method === 'GET' || method === 'HEAD' || method === 'DELETE') && hasBody(c.req.raw.headers)) {
      c.res = detailResponse(
        // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- hono types a middleware context's input as `any`
        c,
        400,
        `${method} requests take no body; put parameters in the path or the query string.`,
      );
    } else {
      // Data answers carry their licence in the body and as a Link header (DESIGN §6); error answers
      // drop it again (errors.ts): an error is not licensed data.
      const path = c.req.path;
      if (
        path.startsWith('/api/chain/') ||
        path.startsWith('/v1/') ||
        path.startsWith('/badge/') ||
        (path.startsWith('/api/v1/') && path !== '/api/v1/docs' && path !== API_REFERENCE_PATH)
      )
        c.header('Link', LICENSE_LINK);
      // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- hono types a middleware context's input as `any`
      if (isDataPath(path)) await caching(c, next);
      else await next();
    }
    // A body the answer did not need (refused before it was read) is dropped, so the answer arrives.
    if (method === 'POST' || method === 'PUT' || method === 'PATCH') discardUnreadBody(c.env);
    // Set on the finished answer, so answers that routes build themselves carry them too.
    const headers = c.res.headers;
    if (admitted && !(admitted instanceof Response) && !headers.has('ratelimit')) limit!.finish(headers, admitted);
    // Once, on the finished answer (one header operation rather than a set before and a check after).
    headers.set('X-Content-Type-Options', 'nosniff');
    // An error is never kept by a cache unless its route says so (a page's 404 does).
    if (c.res.status >= 400 && !headers.has('cache-control')) headers.set('cache-control', ERROR_ANSWER);
    if (headers.get('content-type')?.startsWith('text/html')) {
      for (const [name, value] of HTML_SECURITY_HEADERS) if (!headers.has(name)) headers.set(name, value);
    }
    // The time to the answer's headers: a streamed body (an export) goes on after it.
    // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- hono types a middleware context's input as `any`
    requests?.answered(routeLabel(c), methodLabel(method), c.res.status, (performance.now() - started) / 1000);
  });
  // Every POST body has a cap, whatever reads it; the submission routes also cap while streaming.
  const tooLarge = (bytes: number, readsFiles: boolean) => (c: Context) =>
    detailResponse(c, 413, bodyTooLargeSentence(bytes, readsFiles));
  app.on('POST', '/api/v1/dispute', bodyCap(DISPUTE_LIMIT_BYTES, tooLarge(DISPUTE_LIMIT_BYTES, false)));
  // /check's forms are refused on a page, before the JSON cap every other POST has.
  const checkTooLarge = (c: Context) => checkTooLargePage(c, SUBMISSION_LIMIT_BYTES);
  app.on('POST', ['/check', '/check/*'], bodyCap(SUBMISSION_LIMIT_BYTES, checkTooLarge));
  app.on('POST', '*', bodyCap(SUBMISSION_LIMIT_BYTES, tooLarge(SUBMISSION_LIMIT_BYTES, true)));

  registerHealthRoute(app, deps);
  registerEntityRoutes(app, deps);
  registerChainRoutes(app, deps, deps.headAnswers);
  registerTlogRoutes(app, deps);
  registerChangesRoute(app, deps);
  registerExportRoutes(app, deps);
  registerDisputeRoute(app, deps);
  registerSubscriptionRoutes(app, { ...deps, allowPrivateWebhooks: deps.allowPrivateWebhooks ?? false });
  const parsing = deps.parsing ?? sharedParsePool();
  registerSubmissionRoutes(app, { ...deps, parsing });
  registerCheckPageRoutes(app, { ...deps, parsing });
  registerVerdictKeysRoute(app, deps.verdicts);
  registerFactRoutes(app, deps);
  registerMcpRoutes(app, { ...deps, parsing }, { listenHost: deps.listenHost, version: API_VERSION });
  registerPendingRoutes(app);
  registerBadgeRoutes(app, deps, deps.badgeAnswers);
  registerPageRoutes(app, deps);

  registerApiDocumentRoutes(app, deps.publicUrl);

  app.notFound((c) => {
    const allowed = methodsAllowedFor(app.routes, c.req.path);
    if (allowed.length > 0) {
      return detailResponse(c, 405, `${c.req.method} is not allowed on ${c.req.path}; use ${allowed.join(' or ')}.`, {
        Allow: allowed.join(', '),
      });
    }
    const moved = trailingSlashAnswer(c, app.routes);
    if (moved) return moved;
    // A person who followed a link gets a page that says so, with the search box; a program, JSON.
    if (wantsHtml(c)) return notFound(c, { kind: 'no-page', path: c.req.path }, 404);
    return detailResponse(c, 404, `There is nothing at ${c.req.path}. The API is described at /api/v1/docs.`);
  });

  app.onError((error, c) => errorResponse(c, error, deps.logError));
  return app;
}

/**
 * A path that names a route once its trailing slash is dropped (`/healthz/`, `/npm/express/`): a
 * GET or HEAD is sent there with a 308 (query kept); any other method, which a redirect would make
 * the client repeat with its body, gets a 404 naming the address to use. Null for other paths.
 */
function trailingSlashAnswer(c: Context, routes: readonly { method: string; path: string }[]): Response | null {
  const path = c.req.path;
  const bare = trimTrailing(path, '/');
  // `//host/` would become `//host`, an address on another site: never redirected.
  if (bare === path || bare === '' || bare.startsWith('//')) return null;
  const there = methodsAllowedFor(routes, bare);
  if (there.length === 0) return null;
  const method = c.req.method;
  if ((method === 'GET' || method === 'HEAD') && there.includes(method)) {
    const url = new URL(c.req.url);
    c.header('Link', undefined);
    return c.redirect(`${trimTrailing(url.pathname, '/')}${url.search}`, 308);
  }
  return detailResponse(
    c,
    404,
    `There is nothing at ${path}; the address is ${bare}, without the trailing slash, and it takes ${there.join(' or ')}.`,
  );
}

function hasBody(headers: Headers): boolean {
  const length = headers.get('content-length');
  return (length !== null && length !== '0') || headers.has('transfer-encoding');
}
