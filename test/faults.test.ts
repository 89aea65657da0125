import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { ComponentRef } from '../src/domain/component.js';
import { upstreamEnv } from '../src/simulator/env.js';
import { generatedScenario } from '../src/simulator/generated-scenario.js';
import { scenarioComponents, type Scenario } from '../src/simulator/scenario.js';
import { startSimulator, type Simulator } from '../src/simulator/server.js';
import { openPostgresStore } from '../src/storage/postgres/open.js';
import { jsonOf } from './support/json.js';
import { postgresTestStore } from './support/record.js';
import { freePort, throwawayRedis } from './support/redis.js';
import {
  expectExactlyOnePerComponent,
  expectLogVerifies,
  load,
  serveAt,
  tended,
  waitFor,
  type Answer,
  type TendedProcess,
} from './support/tended-processes.js';
import { throwawayPostgres } from './support/throwaway-postgres.js';

/**
 * Issue 9, faults past one machine: real `tended` processes (serve, observe workers) on PostgreSQL,
 * with a worker killed, PostgreSQL restarted, Redis stopped and the upstreams gone. Each test ends
 * by checking that no observation was lost or doubled and that the log verifies.
 */
const D = '2026-03-10';
const AT = `${D} 08:00:00`;
const simulatedNow = () => new Date(`${D}T08:00:00Z`);

// Cleanups of the running test, newest first, whatever way it ended.
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

function keyFile(): string {
  const path = join(tmpdir(), `tended-faults-${process.pid}-${Math.random().toString(36).slice(2)}.pem`);
  cleanups.push(() => Promise.resolve(rmSync(path, { force: true })));
  return path;
}

async function simulator(scenario: Scenario, port?: number): Promise<Simulator> {
  const s = await startSimulator({ scenario, clock: simulatedNow, port });
  cleanups.push(() => s.close());
  return s;
}

function run(args: string[], env: Record<string, string>, at = AT): TendedProcess {
  const p = tended(args, env, at);
  cleanups.push(() => p.stop());
  return p;
}

const entityPath = (components: ComponentRef[]) => `/api/v1/entity/${components.find((c) => c.kind === 'github')!.id}`;

it(
  'a worker killed with SIGKILL in the middle of a pass: the others and the next pass finish, nothing doubled',
  { timeout: 180_000 },
  async () => {
    const t = await postgresTestStore();
    cleanups.push(() => t.dispose());
    const scenario = generatedScenario(900, 29);
    const components = scenarioComponents(scenario);
    const sim = await simulator(scenario);
    // Each worker keeps to 10 reads a second per upstream (its own budgets: no Redis), so every
    // worker's pass takes several claims of 200 and seconds each: the kill lands mid-pass, never
    // after a worker has already read its share and left.
    const slow = Object.fromEntries(
      ['GITHUB', 'NPM', 'PYPI', 'DOCKERHUB', 'ENDOFLIFE'].map((u) => [`TENDED_BUDGET_${u}`, '10/1000000']),
    );
    const env = { DATABASE_URL: t.url, TENDED_SIGNING_KEY: keyFile(), ...upstreamEnv(sim.urls), ...slow };
    await t.store.watchAdd(components, `${D}T00:00:00.000Z`);

    const workers = [0, 1, 2].map(() => run(['observe', '--once'], env));
    // Killed as soon as the log starts growing: the workers are mid-pass, their appends in flight.
    await waitFor(
      'the first appends',
      60_000,
      async () => (await t.store.treeSize()) > 0,
      () => workers[0]!.output().err,
    );
    workers[0]!.kill('SIGKILL');
    const [killed, ...survivors] = await Promise.all(workers.map((w) => w.exited));
    expect(killed!.signal).toBe('SIGKILL');
    for (const s of survivors) expect(s.code, s.err).toBe(0);

    // The killed worker's claims lapse after their lease (2 min, no longer renewed); a pass after that, the same day,
    // reads what it left. the clock preload moves the clock there.
    const recovery = await run(['observe', '--once'], env, `${D} 08:30:00`).exited;
    expect(recovery.code, recovery.err).toBe(0);
    await expectExactlyOnePerComponent(t.store, components, D);
    await expectLogVerifies(env, `${D} 08:31:00`);
  },
);

it(
  'PostgreSQL restarted under load: 503 JSON during the outage, 200 within 5 s of its return, workers finish the day',
  { timeout: 320_000 },
  async () => {
    const pg = await throwawayPostgres();
    cleanups.push(() => pg.dispose());
    const store = await openPostgresStore(pg.url, { max: 2 });
    cleanups.push(() => store.close());
    const scenario = generatedScenario(600, 31);
    const components = scenarioComponents(scenario);
    const sim = await simulator(scenario);
    const env = { DATABASE_URL: pg.url, TENDED_SIGNING_KEY: keyFile(), ...upstreamEnv(sim.urls) };
    // The log's first head is sealed by whichever process opens it first; serve does, before the workers.
    const server = await serveAt(env, AT);
    cleanups.push(() => server.stop());
    await store.watchAdd(components, `${D}T00:00:00.000Z`);
    // A package page reads the store (its census); the home page may be served from memory meanwhile.
    const storePaths = [
      '/api/chain/head',
      entityPath(components),
      '/healthz',
      `/npm/${components.find((c) => c.kind === 'npm')!.id}`,
    ];
    const traffic = load(server.url, storePaths);
    cleanups.push(() => traffic.stop());

    const workers = [run(['observe'], env), run(['observe'], env)];
    // Both workers past their start (a worker still opening its store when PostgreSQL stops exits,
    // as it should: the outage under test is one that running workers live through).
    await waitFor(
      'both workers on their schedule, and the first appends',
      60_000,
      async () =>
        workers.every((w) => w.output().err.includes('observing on the schedule')) && (await store.treeSize()) > 0,
      () => workers.map((w) => w.output().err).join('\n'),
    );
    const stoppedAt = Date.now();
    await pg.stop();
    // While it is down: every store-backed answer is a 503 with a sentence and Retry-After.
    await waitFor(
      'a 503 from /api/chain/head',
      10_000,
      () => traffic.answers.some((a) => a.at > stoppedAt && a.path === '/api/chain/head' && a.status === 503),
      () =>
        JSON.stringify(
          traffic.answers
            .filter((a) => a.at > stoppedAt)
            .slice(-6)
            .map((a) => [a.path, a.status, a.ms, a.body.slice(0, 150)]),
        ) + server.output().err.slice(-3000),
    );
    await new Promise((r) => setTimeout(r, 3_000));
    const restartAt = Date.now();
    await pg.start();
    const back = Date.now();
    const recoveredIn = await waitFor(
      'a 200 from /api/chain/head after the restart',
      5_000,
      async () => (await fetch(`${server.url}/api/chain/head`)).status === 200,
    );
    const health = await jsonOf(await fetch(`${server.url}/healthz`));
    expect(health).toMatchObject({ status: 'ok', dependencies: { store: 'up' } });

    const during = traffic.answers.filter((a) => a.at > stoppedAt + 500 && a.at + a.ms < restartAt);
    expectOutageAnswers(during, storePaths);
    // Each request was answered (none hung), and nothing was a 500.
    expect(traffic.answers.filter((a) => a.status === 0 || (a.status >= 500 && a.status !== 503))).toEqual([]);

    // The workers lived through it: a failed pass was logged and tried again until the day was read.
    // Most of the day is read within seconds of the restart. A claim whose answer the outage cut
    // off (committed, never received) is not known to its worker: it lapses after its lease
    // (PASS_OPTIONS.leaseMs, 2 min) and the next pass (every 60 s) reads it, hence the long bound.
    let unread = components.length;
    await waitFor(
      'every component observed once',
      200_000,
      async () => {
        unread = 0;
        for (const ref of components) if ((await store.observationsOf(ref)).length === 0) unread++;
        return unread === 0;
      },
      () =>
        `${unread} of ${components.length} unread; workers said:\n${workers.map((w) => w.output().err.slice(-2000)).join('\n---\n')}`,
    );
    for (const w of workers) expect(w.child.exitCode, w.output().err).toBeNull();
    expect(workers.some((w) => w.output().err.includes('observer pass failed'))).toBe(true);
    await traffic.stop();
    for (const w of workers) await w.stop();
    await expectExactlyOnePerComponent(store, components, D);
    await expectLogVerifies(env, `${D} 08:31:00`);
    console.info(
      `PostgreSQL restart: down ${restartAt - stoppedAt} ms, API 200 again ${recoveredIn} ms after it accepted connections (${back - restartAt} ms to start)`,
    );
  },
);

function expectOutageAnswers(during: Answer[], paths: string[]): void {
  expect(during.length).toBeGreaterThan(4);
  for (const a of during) {
    expect(a.status, `${a.path}: ${a.body.slice(0, 200)}`).toBe(503);
    expect(a.retryAfter).toBe('5');
    if (a.contentType.startsWith('application/json')) {
      const body = JSON.parse(a.body) as { detail?: unknown; dependencies?: unknown };
      expect(typeof body.detail).toBe('string');
      expect(body.detail as string).not.toMatch(/\bat .*\.(ts|js):\d+/);
      if (a.path === '/healthz') expect(body.dependencies).toMatchObject({ store: 'down' });
    } else {
      expect(a.path).toMatch(/^\/npm\//);
      expect(a.contentType).toMatch(/^text\/html/);
    }
  }
  for (const path of paths)
    expect(
      during.some((a) => a.path === path),
      `an answer from ${path} during the outage`,
    ).toBe(true);
}

it(
  'Redis stopped under load: the service keeps serving on in-process buckets, says so, and goes back to Redis',
  { timeout: 180_000 },
  async () => {
    const t = await postgresTestStore();
    cleanups.push(() => t.dispose());
    const redis = await throwawayRedis();
    cleanups.push(() => redis.stop());
    const scenario = generatedScenario(120, 37);
    const components = scenarioComponents(scenario);
    const sim = await simulator(scenario);
    const env = { DATABASE_URL: t.url, TENDED_SIGNING_KEY: keyFile(), ...upstreamEnv(sim.urls) };
    const server = await serveAt({ ...env, REDIS_URL: redis.url, TENDED_RATE_LIMIT_FREE: '100000' }, AT);
    cleanups.push(() => server.stop());
    const healthz = async () =>
      (await fetch(`${server.url}/healthz`)).json() as Promise<{
        dependencies: { redis?: string };
        rate_limit: { buckets: string };
      }>;
    await waitFor('buckets in Redis', 10_000, async () => (await healthz()).rate_limit.buckets === 'redis');
    await t.store.watchAdd(components, `${D}T00:00:00.000Z`);
    const traffic = load(server.url, ['/api/chain/head', entityPath(components), '/healthz']);
    cleanups.push(() => traffic.stop());

    const stoppedAt = Date.now();
    await redis.stop();
    const noticed = await waitFor(
      '/healthz saying Redis is down',
      5_000,
      async () => (await healthz()).dependencies.redis === 'down',
    );
    expect((await healthz()).rate_limit.buckets).toBe('memory');
    // The record goes on being written meanwhile: Redis holds rate limits only.
    const pass = await run(['observe', '--once'], env).exited;
    expect(pass.code, pass.err).toBe(0);
    const restartAt = Date.now();
    await redis.start();
    const backIn = await waitFor(
      'buckets in Redis again',
      5_000,
      async () => (await healthz()).rate_limit.buckets === 'redis',
    );
    expect((await healthz()).dependencies.redis).toBe('up');
    await traffic.stop();

    const during = traffic.answers.filter((a) => a.at > stoppedAt && a.at < restartAt);
    expect(during.length).toBeGreaterThan(4);
    expect(
      traffic.answers.filter((a) => a.status !== 200).map((a) => `${a.path} ${a.status} ${a.body.slice(0, 120)}`),
    ).toEqual([]);
    await expectExactlyOnePerComponent(t.store, components, D);
    await expectLogVerifies(env, `${D} 08:31:00`);
    console.info(`Redis stop: noticed in ${noticed} ms, back on Redis ${backIn} ms after it restarted`);
  },
);

/** Healthy, recently active components: on a day the upstreams answer, every one reads alive. */
function healthyScenario(): Scenario {
  const components: Record<string, unknown[]> = {};
  for (let i = 0; i < 6; i++) {
    components[`github:acme/healthy-${i}`] = [
      {
        from: '2025-01-01',
        created_at: '2020-01-01T00:00:00Z',
        pushed_at: '2026-02-20T10:00:00Z',
        last_commit: '2026-02-20T10:00:00Z',
      },
    ];
    components[`npm:healthy-${i}`] = [
      { from: '2025-01-01', versions: { '1.0.0': '2025-06-01T10:00:00.000Z', '1.1.0': '2026-02-20T10:00:00.000Z' } },
    ];
  }
  return { components } as Scenario;
}

it(
  'the upstreams gone: failures recorded as not_observed (never deleted), and the next day reads normally',
  { timeout: 180_000 },
  async () => {
    const t = await postgresTestStore();
    cleanups.push(() => t.dispose());
    const scenario = healthyScenario();
    const components = scenarioComponents(scenario);
    const port = await freePort();
    const first = await simulator(scenario, port);
    const env = { DATABASE_URL: t.url, TENDED_SIGNING_KEY: keyFile(), ...upstreamEnv(first.urls) };
    await first.close();
    await t.store.watchAdd(components, `${D}T00:00:00.000Z`);
    const server = await serveAt(env, AT);
    cleanups.push(() => server.stop());

    const down = await run(['observe', '--once'], env).exited;
    expect(down.code, down.err).toBe(0);
    for (const ref of components) {
      const [o] = await t.store.observationsOf(ref);
      expect(o, `${ref.kind}:${ref.id}`).toMatchObject({ observation_date: D, state: 'not_observed' });
    }
    // The API serves the failed reads as what they are, not as deaths.
    const answer = await jsonOf(await fetch(`${server.url}${entityPath(components)}`));
    expect(answer).toMatchObject({ state: 'not_observed', observation_date: D });

    await simulator(scenario, port);
    const next = '2026-03-11';
    const up = await run(['observe', '--once'], env, `${next} 08:00:00`).exited;
    expect(up.code, up.err).toBe(0);
    for (const ref of components) {
      const states = (await t.store.observationsOf(ref)).map((o) => `${o.observation_date} ${o.state}`);
      expect(states, `${ref.kind}:${ref.id}`).toEqual([`${D} not_observed`, `${next} alive`]);
    }
    await expectExactlyOnePerComponent(t.store, components, next);
    await expectLogVerifies(env, `${next} 08:31:00`);
  },
);
