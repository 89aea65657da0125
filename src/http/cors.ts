const ALLOW_METHODS = 'GET, POST, DELETE, OPTIONS';
const ALLOW_HEADERS =
  'Content-Type, Accept, X-API-Key, MCP-Protocol-Version, Mcp-Session-Id, Last-Event-ID, Mcp-Method, Mcp-Name';
export const EXPOSE_HEADERS =
  'Mcp-Session-Id, MCP-Protocol-Version, Link, ETag, Retry-After, RateLimit, RateLimit-Policy';

/**
 * Open cross-origin access (spec §5). Every answer carries `Access-Control-Allow-Origin: *` (set
 * with c.header by the edge middleware: hono's cors middleware writes to c.res before the handler
 * runs, which makes hono rebuild every response on its slow path); a preflight is answered here.
 */
export function preflightResponse(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': ALLOW_METHODS,
      'Access-Control-Allow-Headers': ALLOW_HEADERS,
      'Access-Control-Expose-Headers': EXPOSE_HEADERS,
      'Access-Control-Max-Age': '86400',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
