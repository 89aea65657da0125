import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemoRecord, type DemoRecord } from '../scripts/demo-record.js';
import { TENDED_MAIN as MAIN } from './support/tended-bin.js';

/**
 * The record `npm run demo` shows, built the way the demo builds it (scripts/demo-record.ts: real
 * `tended` processes whose clocks the test preload sets, against the simulator), then read back
 * as anyone reads it: its export. No observation may rest on evidence dated after the moment it
 * was read: an upload, a push or a release from the future is a reading no upstream could give.
 */
/** Evidence dates that look ahead by nature: an end-of-life listing's declared end dates. */
const FORWARD = new Set(['eol_from', 'eoes_from']);

interface Leaf {
  _type: string;
  kind?: string;
  id?: string;
  observed_at?: string;
  observation_date?: string;
  state?: string;
  evidence?: Record<string, unknown>;
}

let dir: string;
let demo: DemoRecord | null = null;
let leaves: Leaf[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tended-demo-record-'));
  demo = await buildDemoRecord(dir, MAIN, () => {}, []);
  const file = join(dir, 'export.jsonl');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, 'export', '--out', file], { env: demo!.env });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`export exited with ${code}`))));
  });
  leaves = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => JSON.parse(line) as Leaf);
}, 240_000);
afterAll(async () => {
  await demo?.simulator.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every dated string in the evidence, with its path, but for the listing's declared end dates. */
function evidenceDates(value: unknown, path: string): [string, string][] {
  if (typeof value === 'string') return /^\d{4}-\d{2}-\d{2}/.test(value) ? [[path, value]] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => evidenceDates(v, `${path}[${i}]`));
  if (typeof value === 'object' && value !== null)
    return Object.entries(value)
      .filter(([key]) => !FORWARD.has(key))
      .flatMap(([key, v]) => evidenceDates(v, `${path}.${key}`));
  return [];
}

describe('the demo record', () => {
  it('holds no evidence dated after the observation that read it', () => {
    const observations = leaves.filter((l) => l._type === 'tended/observation/v1');
    expect(observations.length).toBeGreaterThan(100);
    const future = observations.flatMap((o) =>
      evidenceDates(o.evidence, 'evidence')
        // A bare date is a day: later than the observation only when its day is.
        .filter(([, d]) => (d.length === 10 ? d > o.observation_date! : Date.parse(d) > Date.parse(o.observed_at!)))
        .map(([path, d]) => `${o.kind}:${o.id} observed ${o.observed_at}: ${path} ${d}`),
    );
    expect(future).toEqual([]);
    expect(observations.filter((o) => o.evidence?.['activity_in_future'] !== undefined)).toEqual([]);
  });

  it('reads tiny-parser and node:18-alpine on 2025-01-15 as they stood that day', () => {
    const first = (id: string) => leaves.find((l) => l.id === id && l.observation_date === '2025-01-15');
    expect(first('tiny-parser')).toMatchObject({
      state: 'alive',
      evidence: { last_upload: '2024-09-01T12:00:00.000000Z' },
    });
    expect(first('docker.io/library/node:18-alpine')).toMatchObject({
      evidence: { tag_last_pushed: '2024-12-20T18:07:12.123456Z' },
    });
  });
});
