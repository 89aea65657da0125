import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckAnswer } from '../src/operations/check-components.js';
import { demoScenario } from '../src/simulator/demo.js';
import { upstreamEnv } from '../src/simulator/env.js';
import { startSimulator, type Simulator } from '../src/simulator/server.js';
import { clockedNode } from './support/clock.js';
import { parsedAs } from './support/json.js';
import { anyOf } from './support/matchers.js';
import { TENDED_MAIN as MAIN } from './support/tended-bin.js';

/**
 * `tended check FILE --observe` on an empty local store: every component of the file is read
 * now from the (simulated) upstreams through the observer's append path, then answered. A name
 * the record never held is recorded only once a read shows it public (discovery's rule).
 */
const AT = '2026-03-15 12:00:00';

let dir: string;
let simulator: Simulator;
let now = new Date('2026-03-15T12:00:00Z');
let env: Record<string, string>;

function tended(args: string[], at = AT, store = env): Promise<{ code: number | null; out: string; err: string }> {
  const clock = clockedNode(at);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...clock.args, MAIN, ...args], {
      env: { ...process.env, TENDED_OBSERVER: 'off', TZ: 'UTC', ...store, ...clock.env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

/** The components the log of `store` holds an observation of, from its export. */
async function logged(store: Record<string, string>): Promise<string[]> {
  const file = join(dir, `export-${Math.random().toString(36).slice(2)}.jsonl`);
  expect((await tended(['export', '--out', file], AT, store)).code).toBe(0);
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => JSON.parse(line) as { _type: string; kind: string; id: string })
    .filter((l) => l._type === 'tended/observation/v1')
    .map((l) => `${l.kind}:${l.id}`);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tended-check-observe-'));
  simulator = await startSimulator({ scenario: demoScenario(), clock: () => now });
  env = { DATABASE_URL: `sqlite:${join(dir, 'tended.db')}`, ...upstreamEnv(simulator.urls) };
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      dependencies: { 'left-padded': '^1.1.0', '@acme/widgets': '^2.0.0', 'evil-pkg': '*', '@private/internal': '^1' },
    }),
  );
});
afterAll(async () => {
  await simulator.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('tended check --observe', () => {
  it('reads what the empty local record lacks, records only what a read shows public, and gates on it', async () => {
    const file = join(dir, 'package.json');
    const plain = await tended(['check', file, '--format', 'json']);
    expect(plain.code, plain.err).toBe(0);
    expect(parsedAs<CheckAnswer>(plain.out).states).toEqual({ not_observed: 4 });

    const observed = await tended(['check', file, '--format', 'json', '--observe']);
    expect(observed.code, observed.err).toBe(1); // left-padded is archived
    const answer = parsedAs<CheckAnswer>(observed.out);
    const states = Object.fromEntries(answer.results.map((r) => [r.input.name, [r.state, r.observation_date]]));
    // A private scoped package (404) and a name npm holds as a security placeholder were never
    // shown public: nothing is recorded, they answer "not checked", and they fail no gate.
    expect(states).toEqual({
      'left-padded': ['archived', '2026-03-15'],
      '@acme/widgets': [anyOf(String), '2026-03-15'],
      'evil-pkg': ['not_observed', null],
      '@private/internal': ['not_observed', null],
    });
    expect(states['@acme/widgets']![0]).not.toBe('not_observed');
    expect(answer.discovery?.note).toMatch(
      /^Not shown public by a first read .*: npm:evil-pkg, npm:@private\/internal\.$/,
    );
    expect((await logged(env)).sort()).toEqual(['npm:@acme/widgets', 'npm:left-padded']);
    // Off a terminal it says what it is doing before it does it, and how it went.
    expect(observed.err).toMatch(/^observe: reading 4 components the local record holds no observation of today\n/);
    expect(observed.err).toMatch(/\nobserve: 4 components in \d+\.\d s/);
    // The gate's sentence names what failed it, nothing else.
    expect(observed.err).toMatch(
      /\ntended: the check fails: 1 of 4 components as of 2026-03-15 is in a state that fails it \(by default abandoned, archived, deleted, eol; --fail-on chooses others, or none\): npm:left-padded archived \(observed 2026-03-15, dependencies\.left-padded\)\.\n$/,
    );

    // The same day again: what was recorded is not read again, what was not shown public is.
    const requests = simulator.requests.length;
    const again = await tended(['check', file, '--format', 'json', '--observe']);
    expect(again.code).toBe(1);
    expect(simulator.requests.slice(requests).map((r) => r.path)).toEqual(
      expect.arrayContaining(['/npm/evil-pkg', '/npm/@private%2finternal']),
    );
    expect(simulator.requests.slice(requests).some((r) => r.path.includes('left-padded'))).toBe(false);
  });

  it('keeps the usual rule for a component the record already holds: a not-found is deleted', async () => {
    const store = { ...env, DATABASE_URL: `sqlite:${join(dir, 'held.db')}` };
    const file = join(dir, 'evil.json');
    writeFileSync(file, JSON.stringify({ dependencies: { 'evil-pkg': '*' } }));
    now = new Date('2025-03-01T12:00:00Z');
    const first = await tended(['check', file, '--format', 'json', '--observe'], '2025-03-01 12:00:00', store);
    expect(parsedAs<CheckAnswer>(first.out).results[0]).toMatchObject({
      state: 'alive',
      observation_date: '2025-03-01',
    });
    now = new Date('2026-03-15T12:00:00Z');
    const later = await tended(['check', file, '--format', 'json', '--observe'], AT, store);
    expect(later.code).toBe(1);
    expect(parsedAs<CheckAnswer>(later.out).results[0]).toMatchObject({
      state: 'deleted',
      observation_date: '2026-03-15',
    });
  });

  it('is a usage error with --url: the service decides what it reads', async () => {
    const r = await tended(['check', join(dir, 'package.json'), '--observe', '--url', 'http://127.0.0.1:9']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--observe.*--url|with --url/);
  });
});
