import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/operations/api-keys.js';
import type { CheckAnswer } from '../src/operations/check-components.js';
import type { DiscoverySettings } from '../src/operations/discovery.js';
import type { EntityAnswer } from '../src/operations/read-entity.js';
import { databaseText } from './support/database-text.js';
import { parsedAs } from './support/json.js';
import { serveLimited, type LimitedServer } from './support/limited-server.js';
import type { ComponentToolAnswer, RpcAnswer, ToolCallResult } from './support/mcp-answers.js';
import { githubObservation, recordDeps, sqliteTestStore, type TestStore } from './support/record.js';
import { dropPrefix, REDIS_URL } from './support/redis.js';

/**
 * What one client may spend (DESIGN §8c), over real HTTP with the real limiter, in-process and in
 * Redis, the hot path in front as `tended serve` runs it: an MCP batch spends a token per message,
 * discovery is shared per client per day, and an answer about queueing never tells one client
 * what another asked about. Clients are told apart as a trusted proxy tells them (X-Forwarded-For),
 * or by API key.
 */
const TODAY = '2026-11-22';
// A day's window: the budget refills one token every 24 minutes, so nothing refills during a test.
const WINDOW_MS = 24 * 60 * 60 * 1000;
const SECONDS_PER_TOKEN = WINDOW_MS / 60 / 1000;

let t: TestStore;
let deps: ReturnType<typeof recordDeps>;
let served: LimitedServer | null = null;

beforeEach(async () => {
  t = await sqliteTestStore();
  deps = recordDeps(t.store, `${TODAY}T12:00:00Z`);
  await t.store.initialiseLog(deps.notary.seal);
  await t.store.appendObservations([githubObservation('acme/held', '2026-11-01', 'alive')], deps.notary.seal);
});
afterEach(async () => {
  await served?.close();
  if (served?.redisPrefix) await dropPrefix(REDIS_URL, served.redisPrefix);
  served = null;
  await t.dispose();
});

/** The request as sent by client `from` (an address behind the trusted proxy, or an API key). */
const as = (from: string): Record<string, string> =>
  from.startsWith('tnd_') ? { 'x-api-key': from } : { 'x-forwarded-for': from };
async function send<T>(from: string, path: string, body?: unknown) {
  const r = await fetch(`${served!.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      accept: 'application/json',
      ...as(from),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  const json = r.headers.get('content-type')?.startsWith('application/json') === true;
  return { status: r.status, headers: r.headers, text, body: (json ? parsedAs<T>(text) : null) as T };
}
const call = (name: string, args: Record<string, unknown>, id: number | string = 1) => ({
  jsonrpc: '2.0' as const,
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});
const npm = (names: string[]) => ({ components: names.map((name) => ({ name, kind: 'npm' })) });
const watched = async () => (await t.store.watchList()).map((w) => `${w.component.kind}:${w.component.id}`).sort();
/** An answer's text with a name, and the pkg: form of it in a purl, blanked out. */
const blank = (text: string, name: string) =>
  text.replaceAll(name, 'NAME').replaceAll(name.replace('@', '%40'), 'NAME');
const left = (headers: Headers) => Number(/;r=(\d+);/.exec(headers.get('ratelimit') ?? '')?.[1]);

describe.each(['memory', 'redis'] as const)('with %s buckets', (buckets) => {
  const start = (discovery: Partial<DiscoverySettings> = {}) =>
    serveLimited(deps, {
      buckets,
      discovery: { enabled: true, dailyCap: 1_000, clientShare: 100, ...discovery },
      limits: { windowMs: WINDOW_MS },
    }).then((s) => (served = s));

  it('spends a token per message of an MCP batch, and refuses whole, before running any of it, a batch the client cannot afford', async () => {
    await start();
    const from = '203.0.113.10';
    const heads = (n: number) => Array.from({ length: n }, (_, i) => call('get_chain_head', {}, i));
    const ten = await send<RpcAnswer[]>(from, '/mcp', heads(10));
    expect(ten.status).toBe(200);
    expect(ten.body).toHaveLength(10);
    expect(left(ten.headers), 'ten messages, ten tokens').toBe(50);

    // 50 left: the admission spends one, and the other 50 of 51 do not fit. Nothing runs.
    const unheld = Array.from({ length: 51 }, (_, i) => call('check_component', { kind: 'npm', name: `b-${i}` }, i));
    const refused = await send<RpcAnswer>(from, '/mcp', unheld);
    expect(refused.status).toBe(429);
    const retry = Number(refused.headers.get('retry-after'));
    // Two tokens short of the whole batch: two tokens' time, less what refilled meanwhile.
    expect(retry).toBeGreaterThan(2 * SECONDS_PER_TOKEN - 60);
    expect(retry).toBeLessThanOrEqual(2 * SECONDS_PER_TOKEN);
    expect(refused.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    expect(refused.body.detail).toMatch(/holds 51 messages, and each spends a rate-limit token/);
    expect(refused.body.detail).toMatch(/49 of the 60 per 86400 seconds are left.*Nothing in it was run/);
    expect(refused.body.detail).toMatch(/An API key \(X-API-Key\) raises the limit to 600/);
    expect(left(refused.headers)).toBe(49);
    expect(await watched(), 'no call of a refused batch ran').toEqual([]);

    // More messages than the bucket ever holds: told how to split it.
    const huge = await send<RpcAnswer>(from, '/mcp', heads(61));
    expect(huge.status).toBe(400);
    expect(huge.body.detail).toMatch(/the limit is 60 per 86400 seconds, so a batch holds at most 60/);

    // 48 left: a batch of exactly 48 fits, and spends the bucket.
    const fits = await send<RpcAnswer[]>(from, '/mcp', heads(48));
    expect(fits.status).toBe(200);
    expect(left(fits.headers)).toBe(0);
    expect((await send(from, '/healthz')).status).toBe(429);
    // Another client has its own budget.
    expect(left((await send('203.0.113.11', '/mcp', heads(5))).headers)).toBe(55);
  });

  it('spends a token per message of a batch the MCP SDK’s transport sends, and the SDK reads the refusal', async () => {
    await start();
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', served!.url), {
      requestInit: { headers: as('203.0.113.12') },
    });
    const got: JSONRPCMessage[] = [];
    transport.onmessage = (message) => got.push(message);
    await transport.start();
    await transport.send({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'batcher', version: '0' } },
    });
    transport.setProtocolVersion('2025-03-26');
    await transport.send(Array.from({ length: 20 }, (_, i) => call('get_chain_head', {}, i)));
    expect(got).toHaveLength(21);
    // 60 − 1 (initialize) − 20 = 39 left: a batch of 40 is refused whole.
    const forty = Array.from({ length: 40 }, (_, i) => call('check_component', { kind: 'npm', name: `s-${i}` }, i));
    await expect(transport.send(forty as JSONRPCMessage[])).rejects.toMatchObject({
      code: 429,
      message: expect.stringMatching(/holds 40 messages.*38 of the 60 per 86400 seconds are left/) as unknown,
    });
    expect(got).toHaveLength(21);
    expect(await watched()).toEqual([]);
    await transport.close();
  });

  it('queues unheld names from each client’s daily share, whichever route names them, and leaves other clients theirs', async () => {
    await start({ clientShare: 5 });
    const a = '203.0.113.20';
    for (const repo of ['a-0', 'a-1', 'a-2']) {
      const read = await send<EntityAnswer>(a, `/api/v1/entity/acme/${repo}`);
      expect(read.body, repo).toMatchObject({ queued: true });
    }
    expect((await send(a, '/badge/npm/a-badge.svg')).status).toBe(200);
    const manifest = await send<CheckAnswer>(a, '/api/v1/manifest?queue=true', npm(['a-3', 'a-4', 'a-5']));
    expect(manifest.body.discovery).toMatchObject({ unheld: 3, queued: 1, not_queued: 2 });
    expect(manifest.body.discovery!.note).toMatch(
      /One client \(an API key, or an address without one\) may ask to queue 5 names a UTC day, and this one has used its share; 2 were not queued: ask again after midnight UTC/,
    );
    const spent = await send<EntityAnswer>(a, '/api/v1/entity/acme/a-6');
    expect(spent.body.queued).toBeUndefined();
    expect(spent.body.note).toMatch(/did not queue it for observation: today's bound on names queued .* is reached/);
    const tool = await send<RpcAnswer<ToolCallResult<ComponentToolAnswer>>>(
      a,
      '/mcp',
      call('check_component', { kind: 'npm', name: 'a-7' }),
    );
    expect(tool.body.result!.structuredContent.queued).toBeUndefined();
    expect((await send<{ queued?: true }>(a, '/api/v1/org/a-org')).body.queued).toBeUndefined();

    // Another address, and an API key (used from the same address), each have a share of their own.
    const b = await send<CheckAnswer>('203.0.113.21', '/api/v1/manifest?queue=true', npm(['b-0', 'b-1', 'b-2']));
    expect(b.body.discovery).toMatchObject({ queued: 3, not_queued: 0 });
    const { key } = await createApiKey(t.store, 'fair test', new Date());
    expect((await send<EntityAnswer>(key, '/api/v1/entity/acme/k-0')).body.queued).toBe(true);
    expect(await watched()).toEqual(
      [
        'github:acme/a-0',
        'github:acme/a-1',
        'github:acme/a-2',
        'npm:a-badge',
        'npm:a-3',
        'npm:b-0',
        'npm:b-1',
        'npm:b-2',
        'github:acme/k-0',
      ].sort(),
    );
  });

  it('lets one MCP batch of check_manifest {queue: true} queue no more than its client’s share, leaving the day to others', async () => {
    // The red team's batch, scaled down: 50 calls of 20 names would have queued the day's 1,000.
    await start({ dailyCap: 1_000, clientShare: 20 });
    const calls = Array.from({ length: 50 }, (_, i) =>
      call(
        'check_manifest',
        {
          filename: 'package.json',
          content: JSON.stringify({
            dependencies: Object.fromEntries(Array.from({ length: 20 }, (_, j) => [`m-${i}-${j}`, '1'])),
          }),
          queue: true,
        },
        i,
      ),
    );
    const batch = await send<RpcAnswer<ToolCallResult<CheckAnswer>>[]>('203.0.113.30', '/mcp', calls);
    expect(batch.status).toBe(200);
    const queued = batch.body.map((m) => m.result!.structuredContent.discovery!.queued);
    expect(queued.reduce((sum, n) => sum + n, 0)).toBe(20);
    expect((await watched()).length).toBe(20);
    const other = await send<CheckAnswer>('203.0.113.31', '/api/v1/manifest?queue=true', npm(['o-0', 'o-1']));
    expect(other.body.discovery).toMatchObject({ queued: 2, not_queued: 0 });
  });

  it('answers alike whether or not another client asked about a name, before the day’s bound and past it', async () => {
    await start({ dailyCap: 6, clientShare: 100 });
    // Client A asks about its private names: they are queued (2 of the day's 6).
    const a = '203.0.113.40';
    const asked = await send<CheckAnswer>(a, '/api/v1/manifest?queue=true', npm(['@secretco/billing']));
    expect(asked.body.discovery).toMatchObject({ queued: 1 });
    expect((await send<EntityAnswer>(a, '/api/v1/entity/secretco/ledger')).body.queued).toBe(true);

    // Client C cannot tell A's names from names nobody asked about: before the bound (4 more of 6)…
    const c = '203.0.113.41';
    const same = async (
      path: (name: string) => string,
      body: ((name: string) => unknown) | null,
      names: [string, string],
    ) => {
      const answers: string[] = [];
      for (const name of names) {
        const r = await send(c, path(name), body ? body(name) : undefined);
        answers.push(`${r.status} ${blank(r.text, name)}`);
      }
      expect(answers[0]).toBe(answers[1]);
      return answers[0]!;
    };
    const manifest = (name: string) => npm([name]);
    const before = await same(() => '/api/v1/manifest?queue=true', manifest, ['@secretco/billing', '@nobodyco/x']);
    expect(parsedAs<CheckAnswer>(before.slice(4)).discovery).toMatchObject({ queued: 1 });
    const entity = await same((n) => `/api/v1/entity/${n}`, null, ['secretco/ledger', 'nobodyco/y']);
    expect(parsedAs<EntityAnswer>(entity.slice(4)).queued).toBe(true);

    // …and past it, where a name queued before used to answer "queued" and a new one "not queued".
    const past = await same(() => '/api/v1/manifest?queue=true', manifest, ['@secretco/billing', '@nobodyco/z']);
    expect(parsedAs<CheckAnswer>(past.slice(4)).discovery).toMatchObject({ queued: 0, not_queued: 1 });
    const sbom = (name: string) => ({
      bomFormat: 'CycloneDX',
      specVersion: '1.5',
      components: [{ type: 'library', name, purl: `pkg:npm/${name.replace('@', '%40')}@1.0.0` }],
    });
    await same(() => '/api/v1/sbom?queue=true', sbom, ['@secretco/billing', '@nobodyco/w']);
    const pastEntity = await same((n) => `/api/v1/entity/${n}`, null, ['secretco/ledger', 'nobodyco/v']);
    expect(parsedAs<EntityAnswer>(pastEntity.slice(4)).queued).toBeUndefined();

    // Through MCP, with the SDK client: the same.
    const client = new Client({ name: 'curious', version: '0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', served!.url), { requestInit: { headers: as(c) } }),
    );
    const tool = async (name: string) =>
      blank(
        JSON.stringify(
          (await client.callTool({ name: 'check_component', arguments: { kind: 'npm', name } })).structuredContent,
        ),
        name,
      );
    expect(await tool('@secretco/billing')).toBe(await tool('@nobodyco/u'));
    const batch = await client.callTool({
      name: 'check_manifest',
      arguments: {
        filename: 'package.json',
        content: JSON.stringify({ dependencies: { '@secretco/billing': '1' } }),
        queue: true,
      },
    });
    expect((batch.structuredContent as CheckAnswer).results[0]!.queued).toBeUndefined();
    await client.close();
    expect(await watched()).toEqual([
      'github:nobodyco/y',
      'github:secretco/ledger',
      'npm:@nobodyco/x',
      'npm:@secretco/billing',
    ]);
  });

  it('keeps the shares where the buckets are, never a client address in the database', async () => {
    await start({ clientShare: 5 });
    const address = '198.51.100.77';
    for (const name of ['r-0', 'r-1']) await send(address, `/api/v1/entity/acme/${name}`);
    expect(await databaseText(t.url)).not.toContain(address);
    if (buckets === 'memory') return;
    const redis = new Redis(REDIS_URL);
    try {
      const shares = await redis.keys(`${served!.redisPrefix}share:*`);
      expect(shares).toHaveLength(1);
      expect(shares[0]).toMatch(new RegExp(`^${served!.redisPrefix}share:${TODAY}:[\\w-]{22}$`));
      expect(shares[0]).not.toContain(address);
      expect(await redis.get(shares[0]!)).toBe('2');
      const ttl = await redis.pttl(shares[0]!);
      expect(ttl).toBeGreaterThan(24 * 60 * 60 * 1000);
      expect(ttl).toBeLessThanOrEqual(25 * 60 * 60 * 1000);
    } finally {
      redis.disconnect();
    }
  });
});
