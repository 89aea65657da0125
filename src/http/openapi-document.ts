import type { OpenAPIHono } from '@hono/zod-openapi';

type Document = ReturnType<OpenAPIHono['getOpenAPI31Document']>;
type Responses = Record<string, unknown>;

/** The security scheme's name in the document: the optional key that raises a client's rate limit. */
export const API_KEY_SCHEME = 'ApiKey';

const ERROR = { $ref: '#/components/schemas/Error' } as const;
const detail = (description: string, headers?: Record<string, unknown>) => ({
  description,
  content: { 'application/json': { schema: ERROR } },
  ...(headers ? { headers } : {}),
});
const header = (description: string, type: 'string' | 'integer' = 'string') => ({ description, schema: { type } });
const LIMIT_HEADERS = {
  'RateLimit-Policy': header(
    'The policy spent from (IETF httpapi ratelimit-headers): "free" or "key", its quota and window.',
  ),
  RateLimit: header('What is left of the policy’s quota, and when it is full again.'),
};

/**
 * Answers the edge (app.ts) can give before any route runs, so every operation can give them:
 * the rate limit (429), an unknown or revoked X-API-Key (401), the database away while a key is
 * checked or the route reads (503), and a GET, HEAD or DELETE that carries a body (400). Added to
 * the document here, where the edge is, rather than restated by each route; a route's own answer
 * for the same status (its 503 with a health body, say) is kept.
 */
function edgeAnswers(method: string): Responses {
  return {
    ...(method === 'get' || method === 'head' || method === 'delete'
      ? {
          400: detail(`A ${method.toUpperCase()} request that carries a body; parameters go in the path or the query.`),
        }
      : {}),
    401: detail('The X-API-Key is unknown or revoked. Without a key the free limit applies.'),
    429: detail('The rate limit is spent; nothing was done.', {
      'Retry-After': header('Seconds until a request is admitted again.', 'integer'),
      ...LIMIT_HEADERS,
    }),
    503: detail('The database does not answer just now; nothing is wrong with the request.', {
      'Retry-After': header('Seconds to wait before trying again.', 'integer'),
    }),
  };
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * The OpenAPI 3.1 document GET /api/v1/docs serves: the routes' own descriptions, plus the
 * optional key as a security scheme and the edge's answers on every operation. Its `servers` is
 * the caller's to set per request (app.ts).
 */
export function openApiDocument(
  app: OpenAPIHono,
  options: { version: string; info: { title: string; description: string } },
): Document {
  const document = app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      ...options.info,
      version: options.version,
      license: { name: 'CC-BY-4.0 (data)', url: 'https://creativecommons.org/licenses/by/4.0/' },
    },
    // Either no key (the free limit) or a key: every operation answers both.
    security: [{}, { [API_KEY_SCHEME]: [] }],
  });
  document.components ??= {};
  document.components.securitySchemes = {
    [API_KEY_SCHEME]: {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
      description:
        'Optional. Issued by the operator (`tended keys create`); raises the rate limit from the free one to the keyed one. Nothing is refused for lack of a key.',
    },
  };
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      operation.responses = { ...edgeAnswers(method), ...operation.responses };
    }
  }
  return document;
}
