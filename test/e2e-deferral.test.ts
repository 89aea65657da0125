import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { normaliseComponent } from '../src/domain/component.js';
import { upstreamEnv } from '../src/simulator/env.js';
import { parseScenario } from '../src/simulator/scenario.js';
import { startSimulator, type Simulator } from '../src/simulator/server.js';
import { clockedNode } from './support/clock.js';
import { postgresTestStore, sqliteTestStore, type TestStore, endToEndBackends } from './support/record.js';
import { TENDED_MAIN as MAIN } from './support/tended-bin.js';

/**
 * DESIGN §3 "Rate limits defer", end to end through the real CLI as cron would run it: one
 * `tended observe --once` process per pass, each with its clock set by the test preload. GitHub
 * answers one repository with its primary-limit 403 (or 429), reset ten minutes on.
 */
const DAY = '2026-03-15';
const others = ['acme/two', 'acme/three', 'acme/four'];
const alive = {
  from: '2025-01-01',
  created_at: '2021-01-01T00:00:00Z',
  pushed_at: '2026-03-01T10:00:00Z',
  last_commit: '2026-03-01T10:00:00Z',
};

describe.each(
  endToEndBackends([
    ['sqlite', 'rate_limit_403', sqliteTestStore],
    ['postgres', 'rate_limit_403', postgresTestStore],
    ['sqlite', 'rate_limit_429', sqliteTestStore],
    ['postgres', 'rate_limit_429', postgresTestStore],
  ] as const),
)('observe --once under a GitHub limit, on %s, %s', (_backend, fail, open) => {
  let t: TestStore;
  let simulator: Simulator;
  let simulated = `${DAY}T12:00:00Z`;
  let dir: string;
  let env: Record<string, string>;

  beforeEach(async () => {
    t = await open();
    dir = mkdtempSync(join(tmpdir(), 'tended-deferral-'));
    simulated = `${DAY}T12:00:00Z`;
    simulator = await startSimulator({
      scenario: parseScenario({
        components: {
          'github:acme/one': [{ from: '2025-01-01', fail }],
          ...Object.fromEntries(others.map((r) => [`github:${r}`, [alive]])),
        },
      }),
      clock: () => new Date(simulated),
    });
    env = {
      DATABASE_URL: t.url,
      TENDED_SIGNING_KEY: join(dir, 'checkpoint-key.pem'),
      TENDED_OBSERVER: 'off',
      ...upstreamEnv(simulator.urls),
    };
  });
  afterEach(async () => {
    await simulator.close();
    await t.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  function tended(at: string, args: string[]): Promise<{ code: number | null; out: string; err: string }> {
    simulated = `${at.replace(' ', 'T')}Z`;
    const clock = clockedNode(at);
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [...clock.args, MAIN, ...args], {
        env: { ...process.env, TZ: 'UTC', ...env, ...clock.env },
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.on('exit', (code) => resolve({ code, out, err }));
    });
  }

  it('records only the read that met the limit; the next cron run after the hold reads the rest that date', async () => {
    const all = ['acme/one', ...others];
    const added = await tended(`${DAY} 00:00:00`, ['watch', 'add', ...all.flatMap((r) => ['github', r])]);
    expect(added.code, added.err).toBe(0);

    const noon = await tended(`${DAY} 12:00:00`, ['observe', '--once']);
    expect(noon.code, noon.err).toBe(0);
    const deferred = Number(/deferred (\d+)/.exec(noon.out)?.[1] ?? 0);
    expect(deferred, noon.out).toBeGreaterThan(0);

    const requests = simulator.requests.length;
    const early = await tended(`${DAY} 12:05:00`, ['observe', '--once']);
    expect(early.out).toMatch(/^observed 0\b/);
    expect(simulator.requests.length, 'nothing is sent to GitHub before the hold ends').toBe(requests);

    const later = await tended(`${DAY} 15:00:00`, ['observe', '--once']);
    expect(later.code, later.err).toBe(0);
    expect(later.out).toMatch(new RegExp(`^observed ${deferred}\\b`));

    const met = await t.store.observationsOf(normaliseComponent('github', 'acme/one'));
    expect(met.map((o) => [o.observation_date, o.state])).toEqual([[DAY, 'not_observed']]);
    expect(met[0]!.evidence).toMatchObject({ unreachable: 'rate_limited' });
    for (const r of others) {
      const list = await t.store.observationsOf(normaliseComponent('github', r));
      expect(
        list.map((o) => [o.observation_date, o.state]),
        r,
      ).toEqual([[DAY, 'alive']]);
    }
    // Four `tended` processes start one after another: on a loaded two-core machine each takes seconds.
  }, 120_000);
});
