import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/operations/api-keys.js';
import { demoScenario } from '../src/simulator/demo.js';
import { upstreamEnv } from '../src/simulator/env.js';
import { startSimulator, type Simulator } from '../src/simulator/server.js';
import { openSqliteStore } from '../src/storage/sqlite/open.js';
import { jsonOf } from './support/json.js';
import { serveAt, tended, waitFor } from './support/tended-processes.js';

/**
 * The webhook sender where an operator runs it: inside `tended serve` (with the observer) and at
 * the end of `tended observe --once`, as real processes whose clock the test preload sets, against
 * the simulator, delivering to a receiver on loopback (TENDED_WEBHOOK_ALLOW_PRIVATE=on).
 */
const BEFORE = '2026-05-31';
const DAY_D = '2026-06-01';

let dir: string;
let simulator: Simulator;
let today = BEFORE;
let hook: Server;
let hookUrl: string;
const received: { headers: IncomingMessage['headers']; body: string }[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tended-cli-webhooks-'));
  simulator = await startSimulator({ scenario: demoScenario(), clock: () => new Date(`${today}T08:00:00Z`) });
  hook = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  hook.closeAllConnections();
  await new Promise<void>((resolve) => hook.close(() => resolve()));
  await simulator.close();
  rmSync(dir, { recursive: true, force: true });
});

const signed = (secret: string, r: (typeof received)[number]) =>
  r.headers['webhook-signature'] ===
  `v1,${createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
    .update(`${String(r.headers['webhook-id'])}.${String(r.headers['webhook-timestamp'])}.${r.body}`)
    .digest('base64')}`;

async function freshStore(name: string) {
  const env = {
    DATABASE_URL: `sqlite:${join(dir, `${name}.db`)}`,
    TENDED_WEBHOOK_ALLOW_PRIVATE: 'on',
    TENDED_SIGNING_KEY: join(dir, `${name}-key.pem`),
    ...upstreamEnv(simulator.urls),
  };
  today = BEFORE;
  const added = await tended(['watch', 'add', 'github', 'acme/rocket'], env, `${BEFORE} 07:00:00`).exited;
  expect(added.code, added.err).toBe(0);
  const store = await openSqliteStore(join(dir, `${name}.db`));
  const { key } = await createApiKey(store, 'cli webhooks test', new Date());
  await store.close();
  return { env, key };
}

describe('the webhook sender in tended processes', () => {
  it('`tended serve` with the observer delivers the change its pass on day D appended, signed, once', async () => {
    received.length = 0;
    const { env, key } = await freshStore('serve');
    const first = await serveAt({ ...env, TENDED_OBSERVER: 'on' }, `${BEFORE} 08:00:00`);
    const made = await fetch(`${first.url}/api/v1/subscriptions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ endpoint: hookUrl, components: ['github/acme/rocket'] }),
    });
    expect(made.status).toBe(201);
    const { id, secret } = await jsonOf<{ id: string; secret: string }>(made);
    await first.stop();

    today = DAY_D;
    const second = await serveAt({ ...env, TENDED_OBSERVER: 'on' }, `${DAY_D} 08:00:00`);
    try {
      await waitFor(
        'the delivery',
        30_000,
        () => received.length > 0,
        () => second.output().err,
      );
      // Recorded as delivered once the receiver answered: nothing left pending.
      const pending = async () =>
        (
          await jsonOf<{ delivery: { pending: number } }>(
            await fetch(`${second.url}/api/v1/subscriptions/${id}`, { headers: { 'x-api-key': key } }),
          )
        ).delivery.pending;
      await waitFor('the delivery to be recorded', 10_000, async () => (await pending()) === 0);
    } finally {
      await second.stop();
    }
    expect(received).toHaveLength(1);
    expect(signed(secret, received[0]!)).toBe(true);
    expect(JSON.parse(received[0]!.body)).toMatchObject({
      data: { change: { component: 'acme/rocket', to: 'archived', observed: DAY_D } },
    });
  }, 120_000);

  it('`tended observe --once` delivers what its pass appended before it exits', async () => {
    received.length = 0;
    const { env, key } = await freshStore('once');
    const served = await serveAt(env, `${BEFORE} 08:00:00`);
    const made = await fetch(`${served.url}/api/v1/subscriptions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ endpoint: hookUrl, states: ['archived'] }),
    });
    expect(made.status).toBe(201);
    const { secret } = await jsonOf<{ secret: string }>(made);
    await served.stop();
    expect((await tended(['observe', '--once'], env, `${BEFORE} 08:00:00`).exited).code).toBe(0);
    expect(received).toHaveLength(0);
    today = DAY_D;
    const pass = await tended(['observe', '--once'], env, `${DAY_D} 08:00:00`).exited;
    expect(pass.code, pass.err).toBe(0);
    expect(pass.err).toContain('webhooks delivered 1; failed 0');
    expect(received).toHaveLength(1);
    expect(signed(secret, received[0]!)).toBe(true);
  }, 120_000);
});
