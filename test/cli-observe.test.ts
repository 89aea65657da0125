import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckAnswer } from '../src/operations/check-components.js';
import { demoScenario } from '../src/simulator/demo.js';
import { upstreamEnv } from '../src/simulator/env.js';
import { startSimulator, type Simulator } from '../src/simulator/server.js';
import { clockedNode } from './support/clock.js';
import { parsedAs } from './support/json.js';
import { anyOf } from './support/matchers.js';

/**
 * `tended check FILE --observe` on an empty local store: every component of the file is read
 * now from the (simulated) upstreams through the observer's append path, then answered.
 */
const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const AT = '2026-03-15 12:00:00';

let dir: string;
let simulator: Simulator;
let env: Record<string, string>;

function tended(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const clock = clockedNode(AT);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...clock.args, MAIN, ...args], {
      env: { ...process.env, TENDED_OBSERVER: 'off', TZ: 'UTC', ...env, ...clock.env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tended-check-observe-'));
  simulator = await startSimulator({ scenario: demoScenario(), clock: () => new Date('2026-03-15T12:00:00Z') });
  env = { DATABASE_URL: `sqlite:${join(dir, 'tended.db')}`, ...upstreamEnv(simulator.urls) };
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ dependencies: { 'left-padded': '^1.1.0', '@acme/widgets': '^2.0.0', 'evil-pkg': '*' } }),
  );
});
afterAll(async () => {
  await simulator.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('tended check --observe', () => {
  it('reads what the empty local record lacks, answers with real states, and gates on them', async () => {
    const file = join(dir, 'package.json');
    const plain = await tended(['check', file, '--format', 'json']);
    expect(plain.code, plain.err).toBe(0);
    expect(parsedAs<CheckAnswer>(plain.out).states).toEqual({ not_observed: 3 });

    const observed = await tended(['check', file, '--format', 'json', '--observe']);
    expect(observed.code, observed.err).toBe(1); // archived and deleted fail the gate
    const answer = JSON.parse(observed.out) as {
      results: { input: { name: string }; state: string; observation_date: string }[];
    };
    const states = Object.fromEntries(answer.results.map((r) => [r.input.name, r.state]));
    expect(states).toEqual({ 'left-padded': 'archived', '@acme/widgets': anyOf(String), 'evil-pkg': 'deleted' });
    expect(states['@acme/widgets']).not.toBe('not_observed');
    expect(answer.results.every((r) => r.observation_date === '2026-03-15')).toBe(true);

    // The same day again: nothing new to read, the same answer.
    const requests = simulator.requests.length;
    const again = await tended(['check', file, '--format', 'json', '--observe']);
    expect(again.code).toBe(1);
    expect(simulator.requests.length).toBe(requests);
  });

  it('is a usage error with --url: the service decides what it reads', async () => {
    const r = await tended(['check', join(dir, 'package.json'), '--observe', '--url', 'http://127.0.0.1:9']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--observe.*--url|with --url/);
  });
});
