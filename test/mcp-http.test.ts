import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckAnswer } from '../src/operations/check-components.js';
import { jsonOf, parsedAs, type DetailAnswer } from './support/json.js';
import type { ComponentToolAnswer, RpcAnswer, ToolCallResult } from './support/mcp-answers.js';
import { observedRecord, serveApp, type ObservedRecord, type ServedApp } from './support/mcp-server.js';
import { anyOf, arrayContaining, stringMatching } from './support/matchers.js';

/** What the tests read of initialize's and tools/list's results. */
interface InitializeResult {
  protocolVersion: string;
}
interface ToolsListResult {
  tools: { name: string }[];
}
/** GET /mcp's description of the endpoint. */
interface EndpointDescription {
  endpoint: string;
  protocol_versions: string[];
  tools: { name: string }[];
}

// The transport rules of /mcp over raw HTTP on loopback: what no SDK client would send on its own.

let record: ObservedRecord;
let served: ServedApp;

beforeAll(async () => {
  record = await observedRecord();
  served = await serveApp(record.deps);
});
afterAll(async () => {
  await served.close();
  await record.dispose();
});

const ACCEPT = 'application/json, text/event-stream';
const initialize = (id: number, protocolVersion = '2025-03-26') => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

/** POSTs `body` to /mcp; the answer's body is JSON of the shape `T` (a JSON-RPC answer unless told), or null when empty. */
async function post<T = RpcAnswer>(body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${served.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: (text ? parsedAs<T>(text) : null) as T };
}

describe('POST /mcp', () => {
  it('initialize negotiates the version and mints a fresh Mcp-Session-Id, exposed to browsers', async () => {
    const a = await post<RpcAnswer<InitializeResult>>(initialize(1));
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toContain('application/json');
    expect(a.body).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { protocolVersion: '2025-03-26', serverInfo: { name: 'tended' }, capabilities: { tools: {} } },
    });
    const b = await post<RpcAnswer<InitializeResult>>(initialize(2, '2025-06-18'));
    expect(b.body.result!.protocolVersion).toBe('2025-06-18');
    expect(a.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers.get('mcp-session-id')).not.toBe(a.headers.get('mcp-session-id'));
    expect(a.headers.get('access-control-allow-origin')).toBe('*');
    expect(a.headers.get('access-control-expose-headers')).toMatch(/Mcp-Session-Id/);
    expect(a.headers.get('access-control-expose-headers')).toMatch(/MCP-Protocol-Version/);
    // A version the server does not speak gets its latest, as the handshake says.
    expect((await post<RpcAnswer<InitializeResult>>(initialize(3, '2031-01-01'))).body.result!.protocolVersion).toBe(
      '2025-11-25',
    );
    // Only a successful initialize mints an id.
    expect((await post({ jsonrpc: '2.0', id: 4, method: 'ping' })).headers.get('mcp-session-id')).toBeNull();
    const failed = await post({ jsonrpc: '2.0', id: 5, method: 'initialize', params: { capabilities: 'none' } });
    expect(failed.body.error).toBeDefined();
    expect(failed.headers.get('mcp-session-id')).toBeNull();
  });

  it('accepts any session id, or none, after initialize', async () => {
    for (const headers of [
      {},
      { 'mcp-session-id': 'never-issued' },
      { 'mcp-session-id': crypto.randomUUID() },
    ] as Record<string, string>[]) {
      const r = await post<RpcAnswer<ToolsListResult>>({ jsonrpc: '2.0', id: 7, method: 'tools/list' }, headers);
      expect(r.status).toBe(200);
      expect(r.body.result!.tools).toHaveLength(7);
    }
  });

  it('answers a notification alone with 202 and no body', async () => {
    const r = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(r.status).toBe(202);
    expect(r.text).toBe('');
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers a batch with a JSON array, notifications left out, when the version allows batches', async () => {
    const batch = [
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 'b',
        method: 'tools/call',
        params: { name: 'check_component', arguments: { kind: 'github', name: 'acme/rocket' } },
      },
    ];
    for (const headers of [{}, { 'mcp-protocol-version': '2025-03-26' }] as Record<string, string>[]) {
      const r = await post<RpcAnswer<ToolCallResult<ComponentToolAnswer>>[]>(batch, headers);
      expect(r.status).toBe(200);
      expect(Array.isArray(r.body)).toBe(true);
      expect(r.body.map((m) => m.id).sort()).toEqual(['a', 'b']);
      const call = r.body.find((m) => m.id === 'b');
      expect(call!.result!.structuredContent).toMatchObject({
        state: 'archived',
        censoring_status: 'observed-on-date',
        license: 'CC-BY-4.0',
      });
    }
    const onlyNotifications = await post([
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'x' } },
    ]);
    expect(onlyNotifications.status).toBe(202);
    expect(onlyNotifications.text).toBe('');
  });

  it('refuses a batch from a version without batches, an empty batch, and initialize inside a batch', async () => {
    const pair = [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ];
    for (const version of ['2025-06-18', '2025-11-25']) {
      const r = await post(pair, { 'mcp-protocol-version': version });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: stringMatching(/Batches exist only in protocol 2025-03-26/) },
      });
    }
    const empty = await post([]);
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatchObject({ code: -32600, message: stringMatching(/empty/) });
    const withInit = await post([initialize(1), { jsonrpc: '2.0', id: 2, method: 'ping' }]);
    expect(withInit.status).toBe(400);
    expect(withInit.body.error).toMatchObject({
      code: -32600,
      message: stringMatching(/initialize cannot be part of a batch/),
    });
  });

  it('serves single messages under every supported version header, and refuses an unsupported one with 400', async () => {
    for (const version of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']) {
      const r = await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-protocol-version': version });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    }
    const r = await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-protocol-version': '1999-01-01' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: -32600, data: { supported: arrayContaining(['2025-03-26']) } });
    expect(r.body.detail).toMatch(/not supported/);
  });

  it('answers a client that accepts only application/json', async () => {
    const r = await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { accept: 'application/json' });
    expect(r.status).toBe(200);
    expect(r.body.result).toEqual({});
  });

  it('answers malformed JSON with a JSON-RPC parse error, a wrong content type with 415', async () => {
    const broken = await post('{"jsonrpc":"2.0",', {});
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    const scalar = await post('42', {});
    expect(scalar.status).toBe(400);
    expect(scalar.body.error!.code).toBe(-32600);
    const text = await post('{"jsonrpc":"2.0","id":1,"method":"ping"}', { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    expect(text.body.error!.message).toMatch(/application\/json/);
    expect(text.body.detail).toMatch(/application\/json/);
  });

  it('answers an unknown method with -32601 and an unknown tool with -32602', async () => {
    const method = await post({ jsonrpc: '2.0', id: 1, method: 'resources/list' });
    expect(method.body.error!.code).toBe(-32601);
    const tool = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'nope', arguments: {} } });
    expect(tool.status).toBe(200);
    expect(tool.body).toMatchObject({
      id: 2,
      error: { code: -32602, message: stringMatching(/Unknown tool: nope/) },
    });
  });
});

describe('check_sbom with a hostile SBOM near the 4 MB body limit', () => {
  it('answers a whole, bounded result: two million non-components are counted, not listed', async () => {
    // ~3.9 MB of `0,` entries: each names no component. Listed whole, the answer was 483 MB.
    const content = `{"bomFormat":"CycloneDX","specVersion":"1.5","components":[${'0,'.repeat(1_950_000)}0]}`;
    const request = JSON.stringify({
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name: 'check_sbom', arguments: { content } },
    });
    expect(request.length).toBeLessThan(4 * 1024 * 1024);
    const started = performance.now();
    const r = await post<RpcAnswer<ToolCallResult<CheckAnswer>>>(request);
    const ms = performance.now() - started;
    console.log(
      `MCP check_sbom: ${(request.length / 1e6).toFixed(2)} MB request → ${(r.text.length / 1e6).toFixed(3)} MB answer in ${ms.toFixed(0)} ms`,
    );
    expect(r.status).toBe(200);
    expect(r.text.length).toBeLessThan(request.length);
    const answer = r.body.result!.structuredContent;
    expect(answer.unresolved_count).toBe(1_950_001);
    expect(answer.unresolved).toHaveLength(1_000);
    expect(answer.unresolved_omitted).toBe(1_949_001);
    expect(Object.values(answer.unresolved_by_reason as Record<string, number>)).toEqual([1_950_001]);
  });
});

describe('GET and DELETE /mcp', () => {
  it('GET with Accept: text/event-stream is 405 (no stream to hold open or poll)', async () => {
    const res = await fetch(`${served.url}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('POST');
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await jsonOf<RpcAnswer>(res)).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32600 },
      detail: stringMatching(/no event stream/),
    });
  });

  it('any other GET is 200 JSON describing the endpoint and its tools', async () => {
    for (const accept of ['application/json', '*/*', '']) {
      const res = await fetch(`${served.url}/mcp`, { headers: accept ? { accept } : {} });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/json');
      const body = await jsonOf<EndpointDescription>(res);
      expect(body).toMatchObject({ endpoint: '/mcp', protocol_versions: arrayContaining(['2025-03-26']) });
      expect(body.tools.map((t) => t.name)).toContain('check_component');
    }
  });

  it('DELETE is 200 JSON, and the id keeps working afterwards (stateless)', async () => {
    const init = await post(initialize(1));
    const id = init.headers.get('mcp-session-id')!;
    const res = await fetch(`${served.url}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': id } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect((await jsonOf<DetailAnswer>(res)).detail).toMatch(/stateless/);
    expect((await post({ jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-session-id': id })).status).toBe(200);
  });

  it('a preflight allows the MCP headers', async () => {
    const res = await fetch(`${served.url}/mcp`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://example.org',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-protocol-version, mcp-session-id',
      },
    });
    expect(res.status).toBe(204);
    const allowed = res.headers.get('access-control-allow-headers')!.toLowerCase();
    for (const h of ['mcp-protocol-version', 'mcp-session-id', 'last-event-id', 'mcp-method', 'mcp-name'])
      expect(allowed).toContain(h);
  });
});

/** A raw request with a chosen Host header (fetch does not let a caller set Host). */
function withHost(url: string, host: string, method = 'POST'): Promise<{ status: number; body: RpcAnswer }> {
  const target = new URL('/mcp', url);
  const payload = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method,
        headers: {
          host,
          'content-type': 'application/json',
          accept: ACCEPT,
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, body: parsedAs<RpcAnswer>(text) }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('DNS rebinding', () => {
  it('a loopback-bound server refuses a Host that is not a loopback name with 403, and serves loopback names on any port', async () => {
    for (const host of [
      'evil.example',
      'evil.example:8080',
      '127.0.0.1.evil.example',
      'localhost.evil.example:80',
      '192.168.1.5',
    ]) {
      const r = await withHost(served.url, host);
      expect(r.status, host).toBe(403);
      expect(r.body.detail).toMatch(/loopback/);
    }
    for (const host of ['localhost', 'localhost:9999', '127.0.0.1:1', '[::1]:8080', '[::1]', 'LOCALHOST']) {
      const r = await withHost(served.url, host);
      expect(r.status, host).toBe(200);
      expect(r.body.result).toEqual({});
    }
  });

  it('a server bound to a public address serves any Host', async () => {
    const open = await serveApp(record.deps, '0.0.0.0');
    try {
      const r = await withHost(open.url, 'tended.example.org');
      expect(r.status).toBe(200);
      expect(r.body.result).toEqual({});
    } finally {
      await open.close();
    }
  });
});

describe('any body', () => {
  it('never gets a 5xx: every JSON value, JSON-RPC-shaped or not, is answered 2xx or 4xx in JSON', async () => {
    const message = fc.record(
      {
        jsonrpc: fc.constantFrom('2.0', '1.0', 2),
        id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
        method: fc.constantFrom(
          'initialize',
          'ping',
          'tools/list',
          'tools/call',
          'notifications/initialized',
          'nope',
          '',
        ),
        params: fc.oneof(
          fc.constant(undefined),
          fc.jsonValue(),
          fc.record(
            {
              name: fc.constantFrom('check_component', 'get_series', 'prove_inclusion', 'x'),
              arguments: fc.jsonValue(),
            },
            { requiredKeys: [] },
          ),
        ),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(message, fc.array(message, { maxLength: 4 }), fc.jsonValue()),
        fc.constantFrom(undefined, '2025-03-26', '2025-11-25'),
        async (body, version) => {
          const r = await post(body, version ? { 'mcp-protocol-version': version } : {});
          expect(r.status < 500, `${r.status} for ${JSON.stringify(body)}`).toBe(true);
          if (r.status !== 202) expect(() => parsedAs(r.text)).not.toThrow();
          if (r.status >= 400) expect(r.body.detail, r.text).toEqual(anyOf(String));
        },
      ),
      { numRuns: 300 },
    );
  });
});
