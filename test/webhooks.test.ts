import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { normaliseComponent } from '../src/domain/component.js';
import { build } from '../src/http/app.js';
import { createRateLimiter, type RateLimiter } from '../src/limits/limiter.js';
import { createApiKey } from '../src/operations/api-keys.js';
import { observeDue, type ObserverDeps } from '../src/operations/observe.js';
import { DELIVERY_DEFAULTS, deliverDue, type DeliverySettings } from '../src/operations/webhook-delivery.js';
import { demoScenario } from '../src/simulator/demo.js';
import { startSimulator, type Simulator } from '../src/simulator/server.js';
import { MemoryConditionalCache } from '../src/upstreams/http/memory-cache.js';
import { createSources } from '../src/upstreams/sources.js';
import { jsonOf } from './support/json.js';
import { githubObservation, postgresTestStore, recordDeps, sqliteTestStore, type TestStore } from './support/record.js';

/**
 * Webhooks end to end (issue 38, DESIGN §8f), over loopback on both backends: a subscription made
 * through the API with a key, the observer reading the simulator on day D, the sender POSTing to a
 * real receiver, which checks the Standard Webhooks signature itself with node:crypto.
 */

const ROCKET = normaliseComponent('github', 'acme/rocket');
const BEFORE = '2026-05-31';
/** The demo scenario archives acme/rocket on this day. */
const DAY_D = '2026-06-01';
const PASS = { batch: 10, concurrency: 2, leaseMs: 60_000 };
const SETTINGS: DeliverySettings = { ...DELIVERY_DEFAULTS, allowPrivate: true, timeoutMs: 2_000, retryBaseMs: 1_000 };

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A webhook receiver: records each POST and answers with `status()` (or holds the request when null). */
async function receiver(status: () => number | null = () => 204, delayMs = 0) {
  const received: Received[] = [];
  const held: ServerResponse[] = [];
  const arrivals: (() => void)[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      arrivals.splice(0).forEach((f) => f());
      const s = status();
      if (s === null) held.push(res);
      else setTimeout(() => res.writeHead(s).end('ok'), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    arrived: () => new Promise<void>((resolve) => arrivals.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        held.forEach((r) => r.destroy());
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Independently of Tended's code: HMAC-SHA256 over "id.timestamp.body" keyed by the secret's bytes. */
function signatureHolds(secret: string, r: Received): boolean {
  const id = String(r.headers['webhook-id']);
  const timestamp = String(r.headers['webhook-timestamp']);
  const expected = createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64'))
    .update(`${id}.${timestamp}.${r.body}`)
    .digest('base64');
  return String(r.headers['webhook-signature']).split(' ').includes(`v1,${expected}`);
}

describe.each([
  ['sqlite', sqliteTestStore],
  ['postgres', postgresTestStore],
] as const)('webhooks end to end on %s', (_backend, open) => {
  let t: TestStore;
  let today = BEFORE;
  let simulator: Simulator;
  let deps: ObserverDeps & { clock: { set(iso: string): void } };
  let limiter: RateLimiter;
  let server: ServerType;
  let base: string;
  let key: string;
  const closers: (() => Promise<void>)[] = [];
  /** The sender's clock: real time (the outbox is dated by it), shifted to let leases lapse. */
  let senderOffsetMs = 0;
  const sender = () => ({
    ...deps,
    clock: { now: () => new Date(Date.now() + senderOffsetMs) },
    publicUrl: 'http://127.0.0.1:8080',
  });

  beforeEach(async () => {
    t = await open();
    today = BEFORE;
    senderOffsetMs = 0;
    simulator = await startSimulator({ scenario: demoScenario(), clock: () => new Date(`${today}T12:00:00Z`) });
    const sources = createSources({
      urls: simulator.urls,
      githubToken: null,
      userAgent: 'tended-test',
      timeoutMs: 2_000,
      concurrency: 4,
      cache: new MemoryConditionalCache(),
    });
    deps = { ...recordDeps(t.store, `${BEFORE}T12:00:00Z`), sources };
    await t.store.initialiseLog(deps.notary.seal);
    limiter = createRateLimiter({ free: 1_000, keyed: 1_000 });
    const app = build({ ...deps, logError: () => {}, limiter, allowPrivateWebhooks: true });
    await new Promise<void>((resolve) => {
      server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
        base = `http://127.0.0.1:${info.port}`;
        resolve();
      });
    });
    key = (await createApiKey(t.store, 'webhooks test', new Date())).key;
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await limiter.close();
    await simulator.close();
    await t.dispose();
  });

  const subscribe = async (body: unknown) => {
    const res = await fetch(`${base}/api/v1/subscriptions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify(body),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return jsonOf<{ id: string; secret: string }>(res);
  };
  const read = async (id: string) =>
    jsonOf<{
      delivery: { paused: boolean; pending: number; last_success_at: string | null; consecutive_failures: number };
    }>(await fetch(`${base}/api/v1/subscriptions/${id}`, { headers: { 'x-api-key': key } }));
  /** The observer's pass on `date`, as `serve` runs it. */
  const passOn = async (date: string) => {
    today = date;
    deps.clock.set(`${date}T12:00:00Z`);
    return observeDue(deps, PASS);
  };

  it('delivers a followed package archived on day D once, signed, within one observer pass; its feed lists it', async () => {
    const hook = await receiver();
    closers.push(hook.close);
    await t.store.watchAdd([ROCKET], `${BEFORE}T00:00:00.000Z`);
    const sub = await subscribe({ endpoint: hook.url, components: ['pkg:github/acme/rocket'] });
    expect(sub.secret).toMatch(/^whsec_/);
    await passOn(BEFORE);
    expect(await deliverDue(sender(), SETTINGS)).toEqual({ delivered: 0, failed: 0 });

    expect(await passOn(DAY_D)).toMatchObject({ observed: 1 });
    expect(await deliverDue(sender(), SETTINGS)).toEqual({ delivered: 1, failed: 0 });
    expect(hook.received).toHaveLength(1);
    const [got] = hook.received as [Received];
    expect(signatureHolds(sub.secret, got)).toBe(true);
    expect(signatureHolds('whsec_' + Buffer.alloc(32).toString('base64'), got)).toBe(false);
    const body = JSON.parse(got.body) as {
      type: string;
      data: { change: Record<string, unknown>; observation: Record<string, unknown>; leaf_index: number };
    };
    const [archived] = (await t.store.observationsOf(ROCKET)).slice(-1);
    expect(body.type).toBe('component.state_changed');
    expect(body.data.change).toMatchObject({
      component: 'acme/rocket',
      kind: 'github',
      to: 'archived',
      observed: DAY_D,
      interval: { after: BEFORE, on_or_before: DAY_D },
    });
    expect(body.data.observation).toMatchObject({
      observation_date: DAY_D,
      state: 'archived',
      source: archived!.source,
      evidence: archived!.evidence,
    });
    expect(body.data.leaf_index).toBe(archived!.leaf_index);
    expect(got.headers['webhook-id']).toBe(`msg_${archived!.leaf_index}_${sub.id}`);
    expect(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);

    // Once: another step and another pass send nothing more.
    expect(await deliverDue(sender(), SETTINGS)).toEqual({ delivered: 0, failed: 0 });
    expect(hook.received).toHaveLength(1);
    expect((await read(sub.id)).delivery).toMatchObject({ pending: 0, paused: false });
    expect((await read(sub.id)).delivery.last_success_at).not.toBeNull();

    const feed = await jsonOf<{ entries: { webhook_id: string; to: string; delivered_at: string | null }[] }>(
      await fetch(`${base}/api/v1/subscriptions/${sub.id}/feed`, { headers: { 'x-api-key': key } }),
    );
    expect(feed.entries).toMatchObject([{ webhook_id: got.headers['webhook-id'], to: 'archived' }]);
    const atom = await fetch(`${base}/api/v1/subscriptions/${sub.id}/feed?format=atom`, {
      headers: { 'x-api-key': key },
    });
    expect(atom.headers.get('content-type')).toMatch(/^application\/atom\+xml/);
    expect(await atom.text()).toContain('acme/rocket (github): dormant → archived');

    // Deleted with its deliveries: nothing of it is left to read.
    const gone = await fetch(`${base}/api/v1/subscriptions/${sub.id}`, {
      method: 'DELETE',
      headers: { 'x-api-key': key },
    });
    expect(gone.status).toBe(204);
    expect(await t.store.subscriptionFeed(sub.id, 0, 10)).toEqual([]);
    expect((await fetch(`${base}/api/v1/subscriptions/${sub.id}`, { headers: { 'x-api-key': key } })).status).toBe(404);
  });

  it('loses nothing when the sender is killed mid-delivery: restarted, it sends the same message again', async () => {
    let hold = true;
    const hook = await receiver(() => (hold ? null : 200));
    closers.push(hook.close);
    await t.store.watchAdd([ROCKET], `${BEFORE}T00:00:00.000Z`);
    const sub = await subscribe({ endpoint: hook.url, states: ['archived'] });
    await passOn(BEFORE);
    await passOn(DAY_D);

    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./support/deliver-process.ts', import.meta.url)), t.url],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    await hook.arrived();
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(hook.received).toHaveLength(1);

    // The dead sender's lease still runs: another sender leaves the row alone until it lapses.
    hold = false;
    expect(await deliverDue(sender(), SETTINGS)).toEqual({ delivered: 0, failed: 0 });
    expect((await read(sub.id)).delivery.pending).toBe(1);
    senderOffsetMs = 2 * 60_000;
    expect(await deliverDue(sender(), SETTINGS)).toEqual({ delivered: 1, failed: 0 });
    expect(hook.received).toHaveLength(2);
    expect(hook.received[1]!.headers['webhook-id']).toBe(hook.received[0]!.headers['webhook-id']);
    expect(hook.received[1]!.body).toBe(hook.received[0]!.body);
    expect(signatureHolds(sub.secret, hook.received[1]!)).toBe(true);
    expect((await read(sub.id)).delivery.pending).toBe(0);
  }, 60_000);

  it('two sender processes racing on one outbox send each delivery once', async () => {
    // A slow receiver keeps each sender's steps long enough for the two to overlap.
    const hook = await receiver(() => 204, 150);
    closers.push(hook.close);
    await subscribe({ endpoint: hook.url, states: ['archived'] });
    const repos = Array.from({ length: 40 }, (_, i) => `acme/r${i}`);
    await t.store.appendObservations(
      repos.map((r) => githubObservation(r, BEFORE, 'alive')),
      deps.notary.seal,
    );
    await t.store.appendObservations(
      repos.map((r) => githubObservation(r, DAY_D, 'archived')),
      deps.notary.seal,
    );
    const run = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          ['--import', 'tsx', fileURLToPath(new URL('./support/deliver-process.ts', import.meta.url)), t.url],
          { stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let out = '';
        let err = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (err += d.toString()));
        child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(err))));
      });
    const reports = (await Promise.all([run(), run()])).map(
      (out) => JSON.parse(out.slice(out.indexOf('{'))) as { delivered: number },
    );
    expect(reports[0]!.delivered + reports[1]!.delivered).toBe(40);
    const ids = hook.received.map((r) => String(r.headers['webhook-id']));
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
  }, 60_000);

  it('retries a failing endpoint with back-off, then pauses it, while another subscription still receives', async () => {
    const failing = await receiver(() => 500);
    const working = await receiver();
    closers.push(failing.close, working.close);
    await t.store.watchAdd([ROCKET], `${BEFORE}T00:00:00.000Z`);
    const bad = await subscribe({ endpoint: failing.url, owners: ['github/acme'] });
    const good = await subscribe({ endpoint: working.url, states: ['archived', 'deleted'] });
    await passOn(BEFORE);
    await passOn(DAY_D);
    const settings = { ...SETTINGS, circuitAfter: 3, circuitOpenMs: 3_600_000 };

    expect(await deliverDue(sender(), settings)).toEqual({ delivered: 1, failed: 1 });
    expect(working.received).toHaveLength(1);
    // Not again before its back-off (at least half of 1 s) has run.
    expect(await deliverDue(sender(), settings)).toEqual({ delivered: 0, failed: 0 });
    for (const attempt of [2, 3]) {
      senderOffsetMs += 10_000 * attempt;
      expect(await deliverDue(sender(), settings)).toEqual({ delivered: 0, failed: 1 });
    }
    expect(failing.received).toHaveLength(3);
    expect(new Set(failing.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect((await read(bad.id)).delivery).toMatchObject({ paused: true, consecutive_failures: 3, pending: 1 });
    // Paused: its retries wait for the circuit; the other endpoint is unaffected.
    senderOffsetMs += 10 * 60_000;
    expect(await deliverDue(sender(), settings)).toEqual({ delivered: 0, failed: 0 });
    expect(failing.received).toHaveLength(3);
    expect((await read(good.id)).delivery).toMatchObject({ paused: false, pending: 0, consecutive_failures: 0 });
  });

  it('refuses, at each send, an endpoint that is no longer allowed (SSRF), sending it nothing', async () => {
    const hook = await receiver();
    closers.push(hook.close);
    await t.store.watchAdd([ROCKET], `${BEFORE}T00:00:00.000Z`);
    const sub = await subscribe({ endpoint: hook.url, components: ['github/acme/rocket'] });
    await passOn(BEFORE);
    await passOn(DAY_D);
    // The operator turned private addresses off after the subscription was made.
    expect(await deliverDue(sender(), { ...SETTINGS, allowPrivate: false })).toEqual({ delivered: 0, failed: 1 });
    expect(hook.received).toHaveLength(0);
    const status = await jsonOf<{ delivery: { last_failure: string } }>(
      await fetch(`${base}/api/v1/subscriptions/${sub.id}`, { headers: { 'x-api-key': key } }),
    );
    expect(status.delivery.last_failure).toMatch(/^refused: .*http: endpoints are not allowed/);
  });
});
