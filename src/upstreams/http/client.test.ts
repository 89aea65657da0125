import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, type HttpClientOptions } from './client.js';
import type { FactsSpec } from './facts-spec.js';
import { MemoryConditionalCache } from './memory-cache.js';
import type { ConditionalCache } from './ports.js';

/** A plain server whose answers each test sets, to reach the client's corners directly. */
type Route = (req: IncomingMessage, res: ServerResponse) => void;
let server: Server;
let base: string;
let other: Server;
let otherBase: string;
const routes = new Map<string, Route>();
const seen: { path: string; headers: IncomingMessage['headers'] }[] = [];
let inFlight = 0;
let maxInFlight = 0;

async function listen(s: Server): Promise<string> {
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    const route = routes.get((req.url ?? '').split('?')[0]!.replace(/^\/base/, ''));
    if (route) route(req, res);
    else {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"message":"Not Found"}');
    }
  });
  other = createServer((req, res) => {
    seen.push({ path: `other:${req.url}`, headers: req.headers });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
  base = `${await listen(server)}/base`;
  otherBase = await listen(other);
});
afterAll(async () => {
  server.closeAllConnections();
  other.closeAllConnections();
  await Promise.all([new Promise((r) => server.close(r)), new Promise((r) => other.close(r))]);
});

const OK: FactsSpec<{ ok: boolean }> = {
  version: 'test/1',
  from: import.meta.url,
  extract: (body) =>
    typeof body === 'object' && body !== null && 'ok' in body ? { ok: body.ok === true } : 'no ok field',
};

function client(o: Partial<HttpClientOptions> = {}): HttpClient {
  return new HttpClient({
    upstream: 'test',
    base,
    userAgent: 'tended-test/1',
    timeoutMs: 300,
    concurrency: 4,
    cache: new MemoryConditionalCache(),
    maxBodyBytes: 1024,
    ...o,
  });
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Route {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
}

describe('HttpClient', () => {
  it('sends a User-Agent and the Accept asked for, and keeps the base path', async () => {
    routes.set('/ua', json(200, { ok: true }));
    const before = seen.length;
    const a = await client().get(`${base}/ua`, { accept: 'application/vnd.test+json', facts: OK });
    expect(a).toMatchObject({ kind: 'facts', status: 200, facts: { ok: true } });
    const req = seen[before]!;
    expect(req.path).toBe('/base/ua');
    expect(req.headers['user-agent']).toBe('tended-test/1');
    expect(req.headers['accept']).toBe('application/vnd.test+json');
    expect(req.headers['authorization']).toBeUndefined();
  });

  it('sends the bearer token to its own origin only, never across a redirect to another host', async () => {
    routes.set('/moved', (_req, res) => {
      res.writeHead(302, { location: `${otherBase}/elsewhere` });
      res.end();
    });
    const before = seen.length;
    const a = await client({ bearerToken: 'sekrit' }).get(`${base}/moved`, { accept: 'application/json', facts: OK });
    expect(a).toMatchObject({
      kind: 'facts',
      redirects: [{ status: 302, from: `${base}/moved`, to: `${otherBase}/elsewhere` }],
    });
    expect(seen[before]!.headers['authorization']).toBe('Bearer sekrit');
    expect(seen[before + 1]!.path).toBe('other:/elsewhere');
    expect(seen[before + 1]!.headers['authorization']).toBeUndefined();
  });

  it('gives up on redirect loops and on a redirect without Location', async () => {
    routes.set('/loop', (_req, res) => {
      res.writeHead(301, { location: `${base}/loop` });
      res.end();
    });
    routes.set('/nowhere', (_req, res) => {
      res.writeHead(301);
      res.end();
    });
    expect(await client().get(`${base}/loop`, { accept: 'application/json', facts: OK })).toMatchObject({
      kind: 'unreachable',
      reason: 'unparsable',
      evidence: { error: 'more than 5 redirects' },
    });
    expect(await client().get(`${base}/nowhere`, { accept: 'application/json', facts: OK })).toMatchObject({
      kind: 'unreachable',
      reason: 'unparsable',
    });
  });

  it('caps bodies', async () => {
    routes.set('/big', json(200, { ok: true, pad: 'x'.repeat(5000) }));
    routes.set('/big-chunked', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"ok":true,"pad":"');
      res.write('x'.repeat(3000));
      res.end('"}');
    });
    for (const path of ['/big', '/big-chunked']) {
      const a = await client().get(`${base}${path}`, { accept: 'application/json', facts: OK });
      expect(a).toMatchObject({
        kind: 'unreachable',
        reason: 'unparsable',
        evidence: { error: 'the body is larger than 1024 bytes' },
      });
    }
  });

  it('turns a body the facts cannot be read from into unparsable, not an exception', async () => {
    routes.set('/shape', json(200, { nope: 1 }));
    expect(await client().get(`${base}/shape`, { accept: 'application/json', facts: OK })).toMatchObject({
      kind: 'unreachable',
      reason: 'unparsable',
      evidence: { error: 'no ok field' },
    });
  });

  it('times out a slow body, and maps a refused connection to network', async () => {
    routes.set('/slow-body', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"ok":');
      setTimeout(() => res.end('true}'), 1000).unref();
    });
    expect(await client().get(`${base}/slow-body`, { accept: 'application/json', facts: OK })).toMatchObject({
      kind: 'unreachable',
      reason: 'timeout',
    });
    const closed = createServer();
    const url = await listen(closed);
    await new Promise((r) => closed.close(r));
    const refused = await client({ base: url }).get(`${url}/x`, { accept: 'application/json', facts: OK });
    expect(refused).toMatchObject({ kind: 'unreachable', reason: 'network', evidence: { error_code: 'ECONNREFUSED' } });
  });

  it('never has more than `concurrency` requests in flight to one upstream', async () => {
    routes.set('/slow', (_req, res) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      setTimeout(() => {
        inFlight--;
        json(200, { ok: true })(_req, res);
      }, 30).unref();
    });
    maxInFlight = 0;
    const c = client({ concurrency: 2 });
    const answers = await Promise.all(
      Array.from({ length: 7 }, () => c.get(`${base}/slow`, { accept: 'application/json', facts: OK })),
    );
    expect(answers.every((a) => a.kind === 'facts')).toBe(true);
    expect(maxInFlight).toBe(2);
  });

  it('re-validates with If-None-Match, or If-Modified-Since when there is no ETag', async () => {
    routes.set('/etag', (req, res) => {
      if (req.headers['if-none-match'] === 'W/"v1"') {
        res.writeHead(304, { etag: 'W/"v1"' });
        return res.end();
      }
      json(200, { ok: true }, { etag: 'W/"v1"' })(req, res);
    });
    routes.set('/lm', (req, res) => {
      if (req.headers['if-modified-since'] === 'Tue, 01 Apr 2025 00:00:00 GMT') {
        res.writeHead(304);
        return res.end();
      }
      json(200, { ok: true }, { 'last-modified': 'Tue, 01 Apr 2025 00:00:00 GMT' })(req, res);
    });
    const c = client();
    for (const path of ['/etag', '/lm']) {
      expect(await c.get(`${base}${path}`, { accept: 'application/json', facts: OK })).toMatchObject({
        kind: 'facts',
        status: 200,
      });
      expect(await c.get(`${base}${path}`, { accept: 'application/json', facts: OK })).toMatchObject({
        kind: 'facts',
        status: 304,
        facts: { ok: true },
      });
    }
  });

  it('does not re-confirm facts cached in another format, and survives a failing cache', async () => {
    routes.set('/fmt', (req, res) =>
      json(200, { ok: true, conditional: req.headers['if-none-match'] !== undefined }, { etag: '"x"' })(req, res),
    );
    const cache = new MemoryConditionalCache();
    await cache.set(`${base}/fmt`, {
      etag: '"x"',
      last_modified: null,
      facts: { format: 'older/0', facts: { ok: false } },
    });
    const before = seen.length;
    expect(await client({ cache }).get(`${base}/fmt`, { accept: 'application/json', facts: OK })).toMatchObject({
      kind: 'facts',
      status: 200,
      facts: { ok: true },
    });
    expect(seen[before]!.headers['if-none-match']).toBeUndefined();
    const broken: ConditionalCache = {
      get: () => Promise.reject(new Error('store down')),
      set: () => Promise.reject(new Error('store down')),
    };
    expect(await client({ cache: broken }).get(`${base}/fmt`, { accept: 'application/json', facts: OK })).toMatchObject(
      { kind: 'facts', status: 200 },
    );
  });

  it('a 304 to a request that sent no validators asserts nothing', async () => {
    routes.set('/odd304', (_req, res) => {
      res.writeHead(304);
      res.end();
    });
    expect(await client().get(`${base}/odd304`, { accept: 'application/json', facts: OK })).toMatchObject({
      kind: 'unreachable',
      reason: 'unparsable',
      evidence: { http_status: 304 },
    });
  });
});

describe('HttpClient rate limits', () => {
  const serverDate = 'Sun, 01 Mar 2026 12:00:00 GMT';
  const serverNow = Date.parse(serverDate) / 1000;

  it.each([
    ['Retry-After in seconds', 429, { 'retry-after': '120' }, {}, 120],
    ['Retry-After as an HTTP date', 503, { 'retry-after': 'Sun, 01 Mar 2026 12:05:00 GMT' }, {}, 300],
    [
      'x-ratelimit-reset, measured on the server clock',
      403,
      { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(serverNow + 900) },
      { message: 'API rate limit exceeded' },
      900,
    ],
    ['X-Retry-After (unix time)', 429, { 'x-retry-after': String(serverNow + 30) }, {}, 30],
    ['a message alone', 403, {}, { message: 'You have exceeded a secondary rate limit.' }, 60],
  ])('%s holds the upstream back for that long', async (_name, status, headers, body, seconds) => {
    const path = `/limit-${status}-${seconds}`;
    routes.set(path, json(status, body, { date: serverDate, ...headers }));
    routes.set('/fine', json(200, { ok: true }));
    // The local clock is a day off the server's: waits are measured on the server's clock.
    let now = Date.parse('2026-03-02T09:00:00Z');
    const c = client({ now: () => now });
    const first = await c.get(`${base}${path}`, { accept: 'application/json', facts: OK });
    expect(first).toMatchObject({ kind: 'unreachable', reason: status === 503 ? 'server_error' : 'rate_limited' });
    const before = seen.length;
    now += seconds * 1000 - 1000;
    const held = await c.get(`${base}/fine`, { accept: 'application/json', facts: OK });
    expect(held).toMatchObject({
      kind: 'unreachable',
      reason: 'rate_limited',
      evidence: {
        rate_limited_until: new Date(Date.parse('2026-03-02T09:00:00Z') + seconds * 1000)
          .toISOString()
          .replace('.000Z', 'Z'),
      },
    });
    expect(seen.length).toBe(before);
    now += 1000;
    expect(await c.get(`${base}/fine`, { accept: 'application/json', facts: OK })).toMatchObject({ kind: 'facts' });
  });

  it('a 403 that is no rate limit is left to the reader', async () => {
    routes.set('/blocked', json(403, { message: 'Repository access blocked', block: { reason: 'tos' } }));
    expect(await client().get(`${base}/blocked`, { accept: 'application/json', facts: OK })).toMatchObject({
      kind: 'status',
      status: 403,
    });
  });
});

describe('what the followers ask of the client', () => {
  it('sends a POST with its body and content type, and never remembers or revalidates its answer', async () => {
    const bodies: string[] = [];
    routes.set('/rpc', (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        bodies.push(`${req.method} ${req.headers['content-type']} ${body}`);
        res.writeHead(200, { 'content-type': 'application/json', etag: '"same"' });
        res.end('{"ok":true}');
      });
    });
    const cache = new MemoryConditionalCache();
    const c = client({ cache });
    const post = { contentType: 'text/xml', body: '<methodCall/>' };
    expect(await c.get(`${base}/rpc`, { accept: 'application/json', post, facts: OK })).toMatchObject({
      kind: 'facts',
    });
    const before = seen.length;
    await c.get(`${base}/rpc`, { accept: 'application/json', post, facts: OK });
    expect(bodies).toEqual(['POST text/xml <methodCall/>', 'POST text/xml <methodCall/>']);
    expect(seen[before]?.headers['if-none-match']).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('hands a binary body to the extractor as the bytes that came', async () => {
    const bytes = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xff, 0xfe, 0x00, 0x80]);
    routes.set('/file.gz', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/gzip' });
      res.end(bytes);
    });
    const answer = await client().get(`${base}/file.gz`, {
      accept: 'application/gzip',
      body: 'bytes',
      facts: {
        version: 'bytes/1',
        from: import.meta.url,
        extract: (b) => ({ hex: Buffer.from(b as Uint8Array).toString('hex') }),
      },
    });
    expect(answer).toMatchObject({ kind: 'facts', facts: { hex: bytes.toString('hex') } });
  });
});
