import { randomUUID } from 'node:crypto';
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { ProtocolError, Server, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { Context } from 'hono';
import { rateLimitValue } from '../limits/bucket.js';
import { clientOf } from '../limits/client.js';
import { BodyTooLargeError, mediaType, readBody } from './body.js';
import { answerBudget } from './check-answer-body.js';
import { callTool, hasTool, TOOL_LIST, type AnswerBytes, type ToolDeps } from './mcp-tools.js';
import { json } from './schemas.js';

/**
 * /mcp: MCP over streamable HTTP, stateless (DESIGN §6, research/anchors-mcp.md). Every POST gets
 * a fresh SDK server and transport in JSON mode; this module owns what the SDK gets wrong for a
 * stateless JSON endpoint: GET (the SDK would hold an empty event stream open, and its client
 * would poll a 200 forever), DELETE, batch rules by protocol version, session-id minting, and the
 * Host check against DNS rebinding.
 */

// Legacy (initialize-handshake) versions only: the 2026 stateless era needs `server/discover`
// and per-request _meta, which this endpoint does not serve; a modern client falls back.
const SUPPORTED_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
// Batches exist only in 2025-03-26, which is also what a request without the header means.
const BATCH_VERSION = '2025-03-26';
const MCP_BODY_LIMIT = 4 * 1024 * 1024;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;
// JSON-RPC leaves -32000 to -32099 to the server; MCP names no code for a rate limit.
const RATE_LIMITED = -32000;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The endpoint described at GET /mcp (and in the OpenAPI document). */
function descriptor(options: McpOptions) {
  return {
    endpoint: '/mcp',
    protocol: 'MCP over streamable HTTP (JSON-RPC 2.0), stateless, JSON responses',
    protocol_versions: SUPPORTED_VERSIONS,
    batches: `accepted when MCP-Protocol-Version is absent or ${BATCH_VERSION}`,
    session: 'initialize mints Mcp-Session-Id; any id, or none, is accepted afterwards',
    server: { name: 'tended', version: options.version },
    tools: TOOL_LIST.map((t) => ({ name: t.name, title: t.title, description: t.description })),
    usage:
      'POST JSON-RPC here with Content-Type: application/json; a server-sent event stream is not offered (GET with Accept: text/event-stream is 405).',
    license: 'CC-BY-4.0',
  };
}

const DescriptorSchema = z
  .object({
    endpoint: z.string(),
    protocol: z.string(),
    tools: z.array(z.object({ name: z.string(), title: z.string(), description: z.string() })),
  })
  .passthrough();

export interface McpOptions {
  /** The address the server is bound to, when it is served: a loopback bind refuses foreign Host headers. */
  listenHost: string | undefined;
  version: string;
}

/** An error as this endpoint answers it: a JSON-RPC error, with `detail` as on every Tended error. */
const RpcError = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.null(),
    error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }),
    detail: z.string(),
  })
  .openapi('JsonRpcError');
const foreignHost = json(RpcError, 'The server listens on a loopback address and the Host is not a loopback name.');

export function registerMcpRoutes(app: OpenAPIHono, deps: ToolDeps, options: McpOptions): void {
  const loopbackBind = options.listenHost !== undefined && isLoopbackAddress(options.listenHost);
  for (const route of [
    createRoute({
      method: 'post',
      path: '/mcp',
      operationId: 'mcpMessage',
      summary: 'MCP over streamable HTTP: one JSON-RPC message, or a batch (protocol 2025-03-26)',
      responses: {
        200: json(z.unknown(), 'The JSON-RPC answer (an array for a batch).'),
        202: { description: 'The input held only notifications.' },
        400: json(RpcError, 'Not a JSON-RPC message, an empty batch, or a batch larger than the rate limit allows.'),
        403: foreignHost,
        413: json(RpcError, 'The body is larger than this endpoint reads.'),
        415: json(RpcError, 'The Content-Type is not application/json.'),
      },
    }),
    createRoute({
      method: 'get',
      path: '/mcp',
      operationId: 'describeMcp',
      summary: 'Describes the MCP endpoint and its tools (405 to Accept: text/event-stream)',
      responses: {
        200: json(DescriptorSchema, 'The endpoint and its tools.'),
        403: foreignHost,
        405: json(RpcError, 'Accept asked for an event stream, which this endpoint does not offer.'),
      },
    }),
    createRoute({
      method: 'delete',
      path: '/mcp',
      operationId: 'endMcpSession',
      summary: 'Acknowledges a session end; the endpoint is stateless, so nothing is ended',
      responses: { 200: json(z.object({ detail: z.string() }), 'Acknowledged.'), 403: foreignHost },
    }),
  ]) {
    app.openAPIRegistry.registerPath(route);
  }

  // Against DNS rebinding: a page on a hostile name resolving to 127.0.0.1 must not reach a
  // loopback-bound server. A server bound elsewhere is public on purpose (spec §5: open CORS).
  app.use('/mcp', async (c, next) => {
    if (loopbackBind && !LOOPBACK_HOSTS.has(hostName(c.req.header('host') ?? new URL(c.req.url).host))) {
      return rpcError(
        // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- hono types a middleware context's input as `any`
        c,
        403,
        INVALID_REQUEST,
        'This server listens on a loopback address and answers only Host localhost, 127.0.0.1 or [::1].',
      );
    }
    await next();
  });

  app.get('/mcp', (c) => {
    if (acceptsEventStream(c.req.header('accept'))) {
      return rpcError(
        c,
        405,
        INVALID_REQUEST,
        'This endpoint answers in JSON only and offers no event stream; POST JSON-RPC messages to /mcp.',
        { Allow: 'GET, POST, DELETE' },
      );
    }
    return c.json(descriptor(options), 200);
  });

  app.delete('/mcp', (c) =>
    c.json(
      {
        detail:
          'Acknowledged. The endpoint is stateless: there was no session state to end, and any session id keeps working.',
      },
      200,
    ),
  );

  app.post('/mcp', async (c) => {
    const type = mediaType(c);
    if (type !== 'application/json') {
      return rpcError(
        c,
        415,
        INVALID_REQUEST,
        `Content-Type must be application/json for JSON-RPC; got "${type.slice(0, 60) || 'none'}".`,
      );
    }
    const versionHeader = c.req.header('mcp-protocol-version');
    if (versionHeader !== undefined && !SUPPORTED_VERSIONS.includes(versionHeader)) {
      // -32600 rather than 2026's -32022: a modern client reads -32022 as a modern server and would not fall back to initialize.
      return rpcError(
        c,
        400,
        INVALID_REQUEST,
        `MCP-Protocol-Version "${versionHeader.slice(0, 40)}" is not supported; use one of ${SUPPORTED_VERSIONS.join(', ')}.`,
        {},
        { supported: SUPPORTED_VERSIONS },
      );
    }
    let body: unknown;
    let bodyBytes: number;
    try {
      const bytes = await readBody(c, MCP_BODY_LIMIT);
      bodyBytes = bytes.byteLength;
      body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    } catch (error) {
      if (error instanceof BodyTooLargeError) return rpcError(c, 413, INVALID_REQUEST, error.message);
      return rpcError(
        c,
        400,
        PARSE_ERROR,
        'Parse error: the body is not valid UTF-8 JSON. Send one JSON-RPC 2.0 message (or, with protocol 2025-03-26, an array of them).',
      );
    }
    if (Array.isArray(body)) {
      const version = versionHeader ?? BATCH_VERSION;
      if (version !== BATCH_VERSION)
        return rpcError(
          c,
          400,
          INVALID_REQUEST,
          `Batches exist only in protocol ${BATCH_VERSION}; with ${version}, send one JSON-RPC message per request.`,
        );
      if (body.length === 0)
        return rpcError(c, 400, INVALID_REQUEST, 'The batch is empty; send at least one JSON-RPC message.');
      if (body.some((m) => isMethod(m, 'initialize')))
        return rpcError(c, 400, INVALID_REQUEST, 'initialize cannot be part of a batch; send it alone.');
      const refused = await spendBatch(c, body.length);
      if (refused) return refused;
    } else if (body === null || typeof body !== 'object') {
      return rpcError(
        c,
        400,
        INVALID_REQUEST,
        'The body must be a JSON-RPC 2.0 message (an object) or, with protocol 2025-03-26, an array of them.',
      );
    }
    // The tools that queue unheld components spend the client's discovery share; the answers of
    // every call share one byte bound.
    const answer = await answerRpc({ ...deps, asker: clientOf(c) }, options, c.req.raw, body, {
      remaining: answerBudget(bodyBytes),
    });
    const headers: Record<string, string> = {};
    const contentType = answer.headers.get('content-type');
    if (contentType) headers['content-type'] = contentType;
    // Through c.body, so the edge middleware's CORS headers are on the answer too.
    if (answer.status === 202) return c.body(null, 202, headers);
    const text = await answer.text();
    // A fresh id per successful initialize; stateless, so it is never checked afterwards.
    if (isMethod(body, 'initialize') && answer.status === 200 && isResult(text))
      headers['Mcp-Session-Id'] = randomUUID();
    return c.body(answer.status >= 400 ? withDetail(text) : text, answer.status as 200, headers);
  });
}

/** One request, one SDK server and transport: reuse across requests is what the SDK forbids in stateless mode. */
async function answerRpc(
  deps: ToolDeps,
  options: McpOptions,
  raw: Request,
  body: unknown,
  bytes: AnswerBytes,
): Promise<Response> {
  const server = new Server(
    { name: 'tended', title: 'Tended', version: options.version },
    {
      capabilities: { tools: { listChanged: false } },
      supportedProtocolVersions: SUPPORTED_VERSIONS,
      instructions:
        'Tended is a dated, verifiable record of whether software components are still maintained. Every answer carries the observation date, its source, its censoring status and its leaf in the signed log. A component with no observation is "not checked", never "gone"; no score is computed.',
    },
  );
  server.setRequestHandler('tools/list', () => ({ tools: TOOL_LIST }));
  server.setRequestHandler('tools/call', async (request) => {
    const { name, arguments: args } = request.params;
    // An unknown tool is a protocol error (-32602), not a tool result: the agent asked for something not offered.
    if (!hasTool(name))
      throw new ProtocolError(
        INVALID_PARAMS,
        `Unknown tool: ${name.slice(0, 80)}. The tools are ${TOOL_LIST.map((t) => t.name).join(', ')}.`,
      );
    return callTool(deps, name, args, bytes);
  });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    // Only JSON is ever answered, so a client listing just application/json is served too.
    const headers = new Headers(raw.headers);
    headers.set('accept', 'application/json, text/event-stream');
    const request = new Request(raw.url, { method: 'POST', headers });
    return await transport.handleRequest(request, { parsedBody: body });
  } finally {
    await server.close();
  }
}

/**
 * A batch spends a rate-limit token per message, as the messages sent one by one would (DESIGN
 * §8c): the request's admission spent one, and the others are spent here at once, all or none.
 * A batch the client cannot afford whole is refused whole, before any of it runs (429, with
 * Retry-After for when the whole batch fits): a client need not work out which calls ran, every
 * HTTP client and MCP SDK reads a 429, and sending the same batch again later is the whole fix.
 * A batch larger than the bucket itself can never fit, so it is a 400 saying how to split it.
 */
async function spendBatch(c: Context, messages: number): Promise<Response | null> {
  const client = clientOf(c);
  if (client === undefined || messages <= 1) return null;
  const { policy, keyedLimit } = client;
  const each = `This batch holds ${messages} messages, and each spends a rate-limit token, as it would sent alone`;
  const limit = `${policy.limit} per ${policy.windowMs / 1000} seconds`;
  const raise = keyedLimit === null ? '' : ` An API key (X-API-Key) raises the limit to ${keyedLimit}.`;
  if (messages > policy.limit)
    return rpcError(
      c,
      400,
      INVALID_REQUEST,
      `${each}; the limit is ${limit}, so a batch holds at most ${policy.limit}. Nothing in it was run: send it as smaller batches.${raise}`,
    );
  const take = await client.spendMore(messages - 1);
  // The answer tells the budget left after the whole batch, as the edge told it after the request's own token.
  c.header('ratelimit', rateLimitValue(take));
  if (take.allowed) return null;
  return rpcError(
    c,
    429,
    RATE_LIMITED,
    `${each}; ${take.remaining} of the ${limit} are left after the one this request spent, too few for its other ${messages - 1}. Nothing in it was run: send it again in ${take.retryAfterSeconds} s, or as smaller batches.${raise}`,
    { 'Retry-After': String(take.retryAfterSeconds) },
  );
}

function rpcError(
  c: Context,
  status: 400 | 403 | 405 | 413 | 415 | 429,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  data?: unknown,
): Response {
  c.header('Link', undefined);
  // `detail` as on every other Tended error; the rest is the JSON-RPC error MCP clients read.
  return c.json(
    { jsonrpc: '2.0', id: null, error: { code, message, ...(data === undefined ? {} : { data }) }, detail: message },
    status,
    headers,
  );
}

/** An error the SDK transport answered (an invalid message): `detail` added, as on every Tended error. */
function withDetail(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } };
    if (body && typeof body.error?.message === 'string') return JSON.stringify({ ...body, detail: body.error.message });
  } catch {
    // Not JSON: passed on as the SDK wrote it.
  }
  return text;
}

function isResult(text: string): boolean {
  try {
    const message = JSON.parse(text) as { result?: unknown };
    return message !== null && typeof message === 'object' && message.result !== undefined;
  } catch {
    return false;
  }
}

function isMethod(message: unknown, method: string): boolean {
  return message !== null && typeof message === 'object' && (message as { method?: unknown }).method === method;
}

function acceptsEventStream(accept: string | undefined): boolean {
  return (accept ?? '').toLowerCase().includes('text/event-stream');
}

/** The host name of a Host header, without its port; IPv6 keeps its brackets. */
function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  return h.split(':')[0]!;
}

function isLoopbackAddress(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || h === '::1' || h === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(h);
}
