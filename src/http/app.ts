import { OpenAPIHono } from '@hono/zod-openapi';
import { registerChainRoutes } from '../api/chain.js';
import { registerEntityRoutes } from '../api/entity.js';
import { registerHealthRoute } from '../api/health.js';
import { registerPendingRoutes } from '../api/pending.js';
import type { ObserverDeps } from '../operations/observe.js';
import { registerDisputeRoute } from '../api/dispute.js';
import { registerSubmissionRoutes } from '../api/submissions.js';
import { registerPageRoutes, type PageDeps } from '../pages/routes.js';
import { EXPOSE_HEADERS, preflightResponse } from './cors.js';
import { detailResponse, errorResponse, validationResponse, zodIssues } from './errors.js';
import { methodsAllowedFor } from './routes.js';

export const API_VERSION = '0.1.0';
const LICENSE_LINK = '<https://creativecommons.org/licenses/by/4.0/>; rel="license"';

export interface AppDeps extends ObserverDeps, PageDeps {
  /** Where unexpected errors go (pino in production). Never a request body, never a client IP. */
  readonly logError: (error: unknown) => void;
}

/** The HTTP application, without listening: tests call `app.request()`, main.ts serves it. */
export function build(deps: AppDeps): OpenAPIHono {
  const app = new OpenAPIHono({
    defaultHook: (result, c) => {
      if (!result.success) return validationResponse(c, zodIssues(result.target, result.error.issues));
      return undefined;
    },
  });

  // One edge middleware rather than several: each hono middleware is a step on every request.
  app.use('*', async (c, next) => {
    const method = c.req.method;
    if (method === 'OPTIONS' && c.req.header('access-control-request-method')) return preflightResponse();
    c.header('Access-Control-Allow-Origin', '*');
    c.header('Access-Control-Expose-Headers', EXPOSE_HEADERS);
    if ((method === 'GET' || method === 'HEAD' || method === 'DELETE') && hasBody(c.req.raw.headers)) {
      return detailResponse(c, 400, `${method} requests take no body; put parameters in the path or the query string.`);
    }
    // Data answers carry their licence in the body and as a Link header (DESIGN §6); error answers
    // drop it again (errors.ts): an error is not licensed data.
    const path = c.req.path;
    if (path.startsWith('/api/chain/') || (path.startsWith('/api/v1/') && path !== '/api/v1/docs')) c.header('Link', LICENSE_LINK);
    await next();
  });

  registerHealthRoute(app, deps);
  registerEntityRoutes(app, deps);
  registerChainRoutes(app, deps);
  registerDisputeRoute(app, deps);
  registerSubmissionRoutes(app, deps);
  registerPendingRoutes(app);
  registerPageRoutes(app, deps);

  app.doc31('/api/v1/docs', {
    openapi: '3.1.0',
    info: {
      title: 'Tended',
      version: API_VERSION,
      description:
        'A dated, verifiable record of whether software components are still maintained. ' +
        'Every observation has a date, a state and its evidence; a date with no observation is "not observed"; ' +
        'no composite score is offered. Data is CC-BY-4.0.',
      license: { name: 'CC-BY-4.0 (data)', url: 'https://creativecommons.org/licenses/by/4.0/' },
    },
  });

  app.notFound((c) => {
    const allowed = methodsAllowedFor(app.routes, c.req.path);
    if (allowed.length > 0) {
      return detailResponse(c, 405, `${c.req.method} is not allowed on ${c.req.path}; use ${allowed.join(' or ')}.`, { Allow: allowed.join(', ') });
    }
    return detailResponse(c, 404, `There is nothing at ${c.req.path}. The API is described at /api/v1/docs.`);
  });

  app.onError((error, c) => errorResponse(c, error, deps.logError));
  return app;
}

function hasBody(headers: Headers): boolean {
  const length = headers.get('content-length');
  return (length !== null && length !== '0') || headers.has('transfer-encoding');
}
