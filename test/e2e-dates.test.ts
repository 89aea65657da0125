import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateSigningKey } from '../src/config/signing-key.js';
import { build } from '../src/http/app.js';
import { logNotary } from '../src/operations/deps.js';
import type { EntityAnswer } from '../src/operations/read-entity.js';
import { auditLog, storeLogSource } from '../src/operations/audit-log.js';
import { demoScenario } from '../src/simulator/demo.js';
import { upstreamEnv } from '../src/simulator/env.js';
import { startSimulator, type Simulator } from '../src/simulator/server.js';
import { openSqliteStore } from '../src/storage/sqlite/open.js';
import type { Store } from '../src/storage/store.js';
import { MemoryConditionalCache } from '../src/upstreams/http/memory-cache.js';
import { createSources } from '../src/upstreams/sources.js';
import { clockedNode } from './support/clock.js';
import { jsonOf } from './support/json.js';
import { fixedClock } from './support/record.js';
import { TENDED_MAIN as MAIN } from './support/tended-bin.js';

/**
 * End to end, as an operator would run it: `tended watch add` and `tended observe --once` as real
 * processes whose clock a test-only preload sets (the only way to read on another date: Tended itself has no option for
 * it), against the simulator answering as of the same date; then the answers over HTTP.
 */
const DATES = ['2025-02-01', '2025-05-01', '2025-10-15', '2026-02-15', '2026-07-01'];
const scenario = demoScenario();

let dir: string;
let simulator: Simulator;
let simulatedDate = DATES[0]!;
let env: Record<string, string>;

function tendedOn(
  date: string,
  args: string[],
  time = '08:00:00',
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const clock = clockedNode(`${date} ${time}`);
    const child = spawn(process.execPath, [...clock.args, MAIN, ...args], {
      env: { ...process.env, ...env, ...clock.env, TZ: 'UTC' },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tended-e2e-'));
  // At the instant each pass's clock starts (tendedOn's 08:00): never later than the observer, so
  // nothing it serves is activity after the observation that reads it.
  simulator = await startSimulator({ scenario, clock: () => new Date(`${simulatedDate}T08:00:00Z`) });
  env = {
    DATABASE_URL: `sqlite:${join(dir, 'tended.db')}`,
    TENDED_OBSERVER: 'off',
    ...upstreamEnv(simulator.urls),
  };
  const added = await tendedOn(
    DATES[0]!,
    ['watch', 'add', 'github', 'acme/rocket', 'github', 'acme/vanishing', 'npm', '@acme/widgets', 'pypi', 'yanky'],
    '07:00:00',
  );
  expect(added.err).not.toMatch(/error/i);
  expect(added.code).toBe(0);
  for (const date of DATES) {
    simulatedDate = date;
    const pass = await tendedOn(date, ['observe', '--once']);
    expect(pass.code, pass.err).toBe(0);
    expect(pass.out).toMatch(/^observed 4 /);
  }
}, 120_000);

afterAll(async () => {
  await simulator.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a record observed on five dates', () => {
  let store: Store;
  let app: ReturnType<typeof build>;

  beforeAll(async () => {
    store = await openSqliteStore(join(dir, 'tended.db'));
    const key = loadOrCreateSigningKey(join(dir, 'checkpoint-key.pem'));
    const sources = createSources({
      urls: simulator.urls,
      githubToken: null,
      userAgent: 'test',
      timeoutMs: 500,
      concurrency: 1,
      cache: new MemoryConditionalCache(),
    });
    app = build({
      store,
      notary: logNotary('tended.local/log/v1', key.privateKey, key.publicKey),
      clock: fixedClock('2026-07-02T12:00:00Z'),
      sources,
      logError: () => {},
    });
  });
  afterAll(async () => store.close());

  const entity = async (path: string) => jsonOf<EntityAnswer>(await app.request(path));

  it('dates every observation on the day it was read, one per date', async () => {
    const rocket = await store.observationsOf({ kind: 'github', id: 'acme/rocket' });
    expect(rocket.map((o) => o.observation_date)).toEqual(DATES);
    expect(rocket.every((o) => o.observed_at.startsWith(o.observation_date))).toBe(true);
    const head = (await store.latestHead())!;
    expect(head.tree_size).toBe(20);
    const key = loadOrCreateSigningKey(join(dir, 'checkpoint-key.pem'));
    const notary = logNotary('tended.local/log/v1', key.privateKey, key.publicKey);
    expect((await auditLog(storeLogSource(store, head), notary.verifier, notary.origin)).tree_size).toBe(20);
  });

  it('answers as_of with the real date and censoring status, never a guess', async () => {
    expect(await entity('/api/v1/entity/acme/rocket?as_of=2025-01-15')).toMatchObject({
      state: 'not_observed',
      censoring_status: 'not-observed-at-date',
      observation_date: null,
    });
    expect(await entity('/api/v1/entity/acme/rocket?as_of=2025-05-01')).toMatchObject({
      state: 'alive',
      censoring_status: 'observed-on-date',
      observation_date: '2025-05-01',
    });
    expect(await entity('/api/v1/entity/acme/rocket?as_of=2025-06-30')).toMatchObject({
      state: 'alive',
      censoring_status: 'interval-censored',
      observation_date: '2025-05-01',
    });
    expect(await entity('/api/v1/entity/acme/rocket?as_of=2026-07-01')).toMatchObject({
      state: 'archived',
      censoring_status: 'observed-on-date',
    });
  });

  it('keeps the mutation history with interval dating, and the age boundaries of the spec', async () => {
    const vanishing = await entity('/api/v1/entity/acme/vanishing?as_of=2026-07-01');
    expect(vanishing.series.map((s) => s.state)).toEqual(['alive', 'alive', 'dormant', 'deleted', 'deleted']);
    expect(vanishing.mutations).toEqual([
      expect.objectContaining({
        from: 'alive',
        to: 'dormant',
        observed: '2025-10-15',
        interval: { after: '2025-05-01', on_or_before: '2025-10-15' },
      }),
      expect.objectContaining({
        from: 'dormant',
        to: 'deleted',
        observed: '2026-02-15',
        interval: { after: '2025-10-15', on_or_before: '2026-02-15' },
      }),
    ]);
    expect(vanishing.state_changes).toBe(2);
    const rocket = await entity('/api/v1/entity/acme/rocket');
    expect(rocket.mutations).toEqual([
      expect.objectContaining({
        from: 'alive',
        to: 'archived',
        observed: '2026-07-01',
        interval: { after: '2026-02-15', on_or_before: '2026-07-01' },
      }),
    ]);
  });

  it('reads npm and PyPI by their own rules on each date', async () => {
    const widgets = await store.observationsOf({ kind: 'npm', id: '@acme/widgets' });
    expect(widgets.map((o) => o.state)).toEqual(['alive', 'alive', 'alive', 'dormant', 'alive']);
    const yanky = await store.observationsOf({ kind: 'pypi', id: 'yanky' });
    // Every file yanked is the maintainers' declaration (archived), never a deletion: PyPI answered 200.
    expect(yanky.map((o) => o.state)).toEqual(['alive', 'alive', 'dormant', 'archived', 'archived']);
  });
});
