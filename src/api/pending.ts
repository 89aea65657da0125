import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { ErrorDetail, json } from './schemas.js';

/**
 * Routes of the interface spec that this version describes but does not serve yet. Each answers
 * 501 with a sentence saying so, rather than pretending to work; each moves to its own module
 * when it is built, and leaves this list.
 */
const pending: { method: 'get' | 'post' | 'delete'; path: string; summary: string }[] = [];

export function registerPendingRoutes(app: OpenAPIHono): void {
  for (const route of pending) {
    const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const definition = createRoute({
      method: route.method,
      path: route.path,
      summary: route.summary,
      description: 'Part of the interface; not served by this version yet (answers 501).',
      ...(params.length > 0
        ? {
            request: {
              params: z.object(
                Object.fromEntries(params.map((p) => [p, z.string().openapi({ param: { name: p, in: 'path' } })])),
              ),
            },
          }
        : {}),
      responses: { 501: json(ErrorDetail, 'Not built in this version yet.') },
    });
    app.openapi(definition, (c) =>
      c.json(
        {
          detail: `${route.method.toUpperCase()} ${route.path} is part of Tended's interface but is not served by this version yet.`,
        },
        501,
      ),
    );
  }
}
