import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { ErrorDetail, json } from './schemas.js';

/**
 * Routes of the interface spec that this version describes but does not serve yet. Each answers
 * 501 with a sentence saying so, rather than pretending to work; each moves to its own module
 * when it is built, and leaves this list.
 */
const pending: { method: 'get' | 'post' | 'delete'; path: string; summary: string }[] = [
  { method: 'get', path: '/v1/trust_score/{kind}/{id}', summary: 'The dated facts a trust decision rests on; no score is computed' },
  { method: 'get', path: '/v1/schema_history/{kind}/{id}', summary: 'The dated history of a component’s declared interface facts' },
  { method: 'get', path: '/v1/dependency_risk/{kind}/{id}', summary: 'The held state of each direct dependency, one dated result each' },
  { method: 'post', path: '/mcp', summary: 'MCP over streamable HTTP (JSON-RPC, stateless)' },
  { method: 'get', path: '/mcp', summary: 'Describes the MCP endpoint' },
  { method: 'delete', path: '/mcp', summary: 'Acknowledges a session end (the endpoint is stateless)' },
];

export function registerPendingRoutes(app: OpenAPIHono): void {
  for (const route of pending) {
    const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const definition = createRoute({
      method: route.method,
      path: route.path,
      summary: route.summary,
      description: 'Part of the interface; not served by this version yet (answers 501).',
      ...(params.length > 0
        ? { request: { params: z.object(Object.fromEntries(params.map((p) => [p, z.string().openapi({ param: { name: p, in: 'path' } })]))) } }
        : {}),
      responses: { 501: json(ErrorDetail, 'Not built in this version yet.') },
    });
    app.openapi(definition, (c) =>
      c.json({ detail: `${route.method.toUpperCase()} ${route.path} is part of Tended's interface but is not served by this version yet.` }, 501),
    );
  }
}
