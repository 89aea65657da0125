import { OpenAPIHono } from '@hono/zod-openapi';
import { cors } from 'hono/cors';
import { registerChainRoutes } from '../api/chain.js';
import { registerEntityRoutes } from '../api/entity.js';
import { registerHealthRoute } from '../api/health.js';
import { registerPendingRoutes } from '../api/pending.js';
import type { RecordDeps } from '../operations/deps.js';
import { detailResponse, errorResponse, validationResponse, zodIssues } from './errors.js';
import { methodsAllowedFor } from './routes.js';

export const API_VERSION = '0.1.0';
const LICENSE_LINK = '<https://creativecommons.org/licenses/by/4.0/>; rel="license"';

export interface AppDeps extends RecordDeps {
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

  app.use(
    '*',
    cors({
      origin: '*',
      allowMethods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
      allowHeaders: ['Content-Type', 'Accept', 'X-API-Key', 'MCP-Protocol-Version', 'Mcp-Session-Id', 'Last-Event-ID'],
      exposeHeaders: ['Mcp-Session-Id', 'Link', 'Retry-After', 'RateLimit', 'RateLimit-Policy'],
      maxAge: 86400,
    }),
  );

  app.use('*', async (c, next) => {
    const method = c.req.method;
    if ((method === 'GET' || method === 'HEAD' || method === 'DELETE') && hasBody(c.req.raw.headers)) {
      return detailResponse(c, 400, `${method} requests take no body; put parameters in the path or the query string.`);
    }
    await next();
  });

  // Data answers carry their licence in the body and as a Link header (DESIGN §6).
  for (const prefix of ['/api/v1/*', '/api/chain/*']) {
    app.use(prefix, async (c, next) => {
      await next();
      if (c.res.status < 400) c.res.headers.set('Link', LICENSE_LINK);
    });
  }

  registerHealthRoute(app, deps);
  registerEntityRoutes(app, deps);
  registerChainRoutes(app, deps);
  registerPendingRoutes(app);

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
