import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/operations/api-keys.js';
import { openSqliteStore } from '../src/storage/sqlite/open.js';
import { throwawayRedis, type ThrowawayRedis } from './support/redis.js';
import { TENDED_MAIN as MAIN } from './support/tended-bin.js';

// The server listens on one loopback address; the trusted proxy and a direct client use two others.
const SERVER = '127.0.0.2';
const PROXY = '127.0.0.3';
const DIRECT = '127.0.0.4';
const FORWARDED = ['203.0.113.77', '198.51.100.213', '2001:db8:77::1', '192.0.2.99'];
const ALL_IPS = [PROXY, DIRECT, ...FORWARDED];

/** One request over loopback from `from`, as a real client would send it. */
function send(port: number, from: string, path: string, headers: Record<string, string> = {}, body?: string) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      { host: SERVER, port, path, localAddress: from, method: body ? 'POST' : 'GET', headers },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

let dir: string;
let redis: ThrowawayRedis;
let log = '';
let port = 0;
let key = '';
const statuses: number[] = [];
const afterLoss: number[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tended-noip-'));
  redis = await throwawayRedis();
  const store = await openSqliteStore(join(dir, 'tended.db'));
  key = (await createApiKey(store, 'noip test', new Date())).key;
  await store.close();
  // The service's log (pino, on stdout) and its stderr go to a file, as an operator would keep them.
  const logPath = join(dir, 'service.log');
  const logFd = openSync(logPath, 'w');
  const child = spawn(process.execPath, [MAIN, 'serve'], {
    stdio: ['ignore', logFd, logFd],
    env: {
      ...process.env,
      DATABASE_URL: `sqlite:${join(dir, 'tended.db')}`,
      HOST: SERVER,
      PORT: '0',
      TENDED_OBSERVER: 'off',
      TENDED_TRUST_PROXY: PROXY,
      TENDED_RATE_LIMIT_FREE: '5',
      REDIS_URL: redis.url,
    },
  });
  closeSync(logFd);
  const deadline = Date.now() + 20_000;
  while (!/listening on http:\/\/[^:]+:\d+/.test(log) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    log = readFileSync(logPath, 'utf8');
  }
  port = Number(/listening on http:\/\/[^:]+:(\d+)/.exec(log)?.[1]);
  if (!port) throw new Error(`the server did not start: ${log}`);

  // Clients behind the trusted proxy, each named by X-Forwarded-For; one talking directly and
  // trying to pick its own address with the header; answers of every kind (200, 401, 404, 413, 422, 429).
  for (const ip of FORWARDED.slice(0, 3)) {
    for (const path of [
      '/api/v1/entity/acme/x',
      '/api/v1/entity/acme/x?as_of=2025-02-30',
      '/nowhere',
      '/healthz',
      '/api/chain/head',
      '/api/v1/org/acme',
    ]) {
      statuses.push((await send(port, PROXY, path, { 'X-Forwarded-For': `${FORWARDED[3]}, ${ip}` })).status);
    }
    statuses.push(
      (await send(port, PROXY, '/api/v1/entity/acme/y', { 'X-Forwarded-For': ip, 'X-API-Key': 'definitely-not-a-key' }))
        .status,
    );
    statuses.push(
      (await send(port, PROXY, '/api/v1/entity/acme/y', { 'X-Forwarded-For': ip, 'X-API-Key': key })).status,
    );
    statuses.push(
      (
        await send(
          port,
          PROXY,
          '/api/v1/manifest',
          { 'X-Forwarded-For': ip, 'X-API-Key': key, 'Content-Type': 'application/json' },
          '{"components": [',
        )
      ).status,
    );
  }
  for (let i = 0; i < 7; i++)
    statuses.push((await send(port, DIRECT, '/api/v1/entity/acme/z', { 'X-Forwarded-For': FORWARDED[3]! })).status);
  // Redis goes away and comes back mid-run: the service logs both, still without an address.
  await redis.stop();
  for (let i = 0; i < 3; i++)
    afterLoss.push((await send(port, PROXY, '/healthz', { 'X-Forwarded-For': FORWARDED[0]! })).status);
  await redis.start();
  const back = Date.now() + 5_000;
  while (
    !/"rate_limit":"redis"[^\n]*\n.*"rate_limit":"memory"[^\n]*\n.*"rate_limit":"redis"/s.test(
      readFileSync(logPath, 'utf8'),
    ) &&
    Date.now() < back
  )
    await new Promise((r) => setTimeout(r, 50));
  afterLoss.push((await send(port, PROXY, '/api/v1/entity/acme/x', { 'X-Forwarded-For': FORWARDED[2]! })).status);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  log = readFileSync(logPath, 'utf8');
}, 60_000);

afterAll(async () => {
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('client addresses', () => {
  it('were really used: each forwarded client had its own budget, the direct one could not borrow one', () => {
    expect(statuses).toContain(200);
    expect(statuses).toContain(401);
    expect(statuses).toContain(404);
    expect(statuses).toContain(422);
    expect(statuses).toContain(429);
    // Each forwarded client: 5 free requests, then 429 — separate budgets, not one shared by the proxy.
    for (let c = 0; c < 3; c++) expect(statuses.slice(c * 9, c * 9 + 6)).toEqual([200, 422, 404, 200, 200, 429]);
    // The direct client's X-Forwarded-For is ignored: it spends its own socket address's budget.
    expect(statuses.slice(-7)).toEqual([200, 200, 200, 200, 200, 429, 429]);
  });

  it('appear nowhere in the database files or the log', () => {
    expect(log).toMatch(/tended listening/);
    // The log saw the run: Redis lost (served from memory meanwhile) and found again.
    expect(log).toMatch(/Redis unreachable: rate-limit buckets in this process/);
    expect(log.match(/rate-limit buckets in Redis/g)?.length).toBeGreaterThanOrEqual(2);
    expect(afterLoss).toEqual([200, 200, 200, 200]);
    const files = readdirSync(dir).filter((f) => f.startsWith('tended.db'));
    expect(files).toContain('tended.db');
    const haystacks = [['log', log], ...files.map((f) => [f, readFileSync(join(dir, f)).toString('latin1')])];
    for (const [name, text] of haystacks) {
      for (const ip of ALL_IPS) expect(text!.includes(ip), `${ip} in ${name}`).toBe(false);
    }
  });

  it('appear in Redis only as keyed hashes, each bucket with a TTL', async () => {
    const client = new Redis(redis.url);
    try {
      const keys = (await client.keys('*')).sort();
      // The secret, and the bucket of the one request made since Redis came back (empty) and its
      // discovery share (it read a repository Tended does not hold, which queues it).
      expect(keys.map((k) => k.replace(/:[\w-]{22}$/, ':HASH'))).toEqual([
        'tended:rl:free:HASH',
        'tended:rl:secret',
        expect.stringMatching(/^tended:rl:share:\d{4}-\d{2}-\d{2}:HASH$/),
      ]);
      for (const k of keys) {
        for (const ip of ALL_IPS) expect(k.includes(ip)).toBe(false);
        if (k.endsWith(':secret')) continue;
        expect(await client.pttl(k)).toBeGreaterThan(0);
        const value = (await client.get(k)) ?? '';
        for (const ip of ALL_IPS) expect(value.includes(ip)).toBe(false);
      }
    } finally {
      client.disconnect();
    }
  });
});
