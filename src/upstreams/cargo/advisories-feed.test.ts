import { afterEach, describe, expect, it } from 'vitest';
import { parseScenario, type Scenario } from '../../simulator/scenario.js';
import { startSimulator, type Simulator } from '../../simulator/server.js';
import { createFeedClient, isUnreachable } from '../following/feed-client.js';
import { createCratesListing, type CratesPosition } from './list.js';
import {
  advance,
  followAdvisories,
  initialPosition,
  LATE_WINDOW_MS,
  MAX_SEEN,
  parseModifiedIds,
  pendingEntries,
  RECORDS_PER_STEP,
  type AdvisoriesPosition,
  type ModifiedEntry,
} from './advisories-feed.js';

/**
 * OSV's export of crates.io as a feed: modified_id.csv's lines (`<modified>,<ID>`, newest first,
 * as OSV's exporter writes them) parsed in one pass with hostile lines passed over, and the
 * position (the newest instant read, the entries read in the window behind it) that says what is
 * still to read, oldest first, however the export orders or delays its entries.
 */
const ms = (iso: string) => Date.parse(iso);
const entry = (at: string, id: string): ModifiedEntry => ({ at: ms(at), id });

describe('modified_id.csv', () => {
  it('reads `<modified>,<ID>` lines, fractions, CRLF and blank lines', () => {
    const csv = [
      '2026-03-15T09:12:44.123456Z,RUSTSEC-2026-0031',
      '2026-03-14T22:00:00Z,GHSA-4grx-2x9w-596c',
      '',
      '2024-02-10T15:57:43Z,RUSTSEC-2020-0036\r',
      '',
    ].join('\n');
    expect(parseModifiedIds(csv)).toEqual({
      entries: [
        { at: ms('2026-03-15T09:12:44.123Z'), id: 'RUSTSEC-2026-0031' },
        entry('2026-03-14T22:00:00Z', 'GHSA-4grx-2x9w-596c'),
        entry('2024-02-10T15:57:43Z', 'RUSTSEC-2020-0036'),
      ],
      skipped: 0,
    });
    expect(parseModifiedIds('')).toEqual({ entries: [], skipped: 0 });
  });

  it('passes over hostile lines, and calls a body with no good line no modified_id.csv', () => {
    const hostile = [
      'RUSTSEC-2020-0036',
      '2024-13-45T99:00:00Z,RUSTSEC-2020-0036',
      'yesterday,RUSTSEC-2020-0036',
      '2024-02-10T15:57:43Z,../../crates.io/modified_id',
      '2024-02-10T15:57:43Z,RUSTSEC-2020-0036?alt=media',
      '2024-02-10T15:57:43Z,RUSTSEC-2020-0036/../../x',
      '2024-02-10T15:57:43Z,RUSTSEC 2020 0036',
      '2024-02-10T15:57:43Z,RUSTSEC-2020-0036,extra',
      '2024-02-10T15:57:43Z,',
      `2024-02-10T15:57:43Z,RUSTSEC-2020-${'0'.repeat(500)}`,
      '2024-02-10T15:57:43Z,%52USTSEC-2020-0036',
    ];
    const parsed = parseModifiedIds([...hostile, '2020-05-02T12:00:00Z,RUSTSEC-2020-0016'].join('\n'));
    expect(parsed).toEqual({ entries: [entry('2020-05-02T12:00:00Z', 'RUSTSEC-2020-0016')], skipped: hostile.length });
    expect(parseModifiedIds(hostile.join('\n'))).toMatch(/^not a modified_id\.csv: none of its 11 lines/);
    expect(parseModifiedIds('<?xml version="1.0"?><Error><Code>AccessDenied</Code></Error>')).toMatch(/not a modified/);
    expect(parseModifiedIds({ vulns: [] })).toMatch(/no text/);
  });

  it('reads a large hostile body in one linear pass', () => {
    // 8 MB: one line of commas, then a million short lines of nothing useful.
    const body = `${','.repeat(4_000_000)}\n${'2026-01-01T00:00:00Z,\n'.repeat(180_000)}`;
    const began = performance.now();
    expect(parseModifiedIds(body)).toMatch(/none of its 180001 lines/);
    expect(performance.now() - began).toBeLessThan(2_000);
  });
});

describe('the advisories position', () => {
  const csv = [
    entry('2026-03-10T08:00:00Z', 'RUSTSEC-2026-0010'),
    entry('2026-03-14T08:00:00Z', 'RUSTSEC-2026-0014'),
    entry('2026-03-14T08:00:00Z', 'GHSA-aaaa-bbbb-cccc'),
    entry('2025-01-01T00:00:00Z', 'RUSTSEC-2024-0001'),
  ];

  it('starts at the newest entry with nothing pending', () => {
    const start = initialPosition(csv);
    expect(start.since).toBe(ms('2026-03-14T08:00:00Z'));
    expect(start.from).toBe(start.since - LATE_WINDOW_MS);
    expect(start.seen.sort()).toEqual([
      'GHSA-aaaa-bbbb-cccc@2026-03-14T08:00:00.000Z',
      'RUSTSEC-2026-0010@2026-03-10T08:00:00.000Z',
      'RUSTSEC-2026-0014@2026-03-14T08:00:00.000Z',
    ]);
    expect(pendingEntries(csv, start)).toEqual([]);
    expect(initialPosition([])).toEqual({ since: 0, from: 0, seen: [] });
  });

  it('reads what is new oldest first: a later entry, one at the same instant, one late inside the window, a record modified again', () => {
    const start = initialPosition(csv);
    const later = [
      entry('2026-03-15T10:00:00Z', 'RUSTSEC-2026-0020'),
      entry('2026-03-14T08:00:00Z', 'RUSTSEC-2026-0015'),
      // Modified three days before the newest read, exported only now: late, not lost.
      entry('2026-03-11T00:00:00Z', 'RUSTSEC-2026-0012'),
      // Modified again: a new line for the same id.
      entry('2026-03-15T09:00:00Z', 'RUSTSEC-2026-0010'),
      // Older than the window: a record the crates' usual reads see, no longer the feed's to hint.
      entry('2026-03-01T00:00:00Z', 'RUSTSEC-2026-0001'),
      ...csv.filter((e) => e.id !== 'RUSTSEC-2026-0010'),
    ];
    const pending = pendingEntries(later, start);
    expect(pending.map((e) => e.id)).toEqual([
      'RUSTSEC-2026-0012',
      'RUSTSEC-2026-0015',
      'RUSTSEC-2026-0010',
      'RUSTSEC-2026-0020',
    ]);
    // Read two of them: the other two are still pending, and nothing read comes back.
    const next = advance(start, pending.slice(0, 2));
    expect(next.since).toBe(start.since);
    expect(pendingEntries(later, next).map((e) => e.id)).toEqual(['RUSTSEC-2026-0010', 'RUSTSEC-2026-0020']);
    const done = advance(next, pendingEntries(later, next));
    expect(done.since).toBe(ms('2026-03-15T10:00:00Z'));
    expect(pendingEntries(later, done)).toEqual([]);
    // Entries leave the position once they leave the window.
    expect(done.seen.every((k) => Date.parse(k.slice(k.indexOf('@') + 1)) >= done.from)).toBe(true);
  });

  it('stays bounded through a rewrite of the whole ecosystem, and never reads an entry twice', () => {
    const at = ms('2026-03-14T00:00:00Z');
    const rewrite = Array.from({ length: MAX_SEEN + 1_500 }, (_, i) => ({
      at: at + i * 1000,
      id: `RUSTSEC-2020-${i}`,
    }));
    let position: AdvisoriesPosition = initialPosition([]);
    const read = new Set<string>();
    for (let step = 0; step < 100; step++) {
      const batch = pendingEntries(rewrite, position).slice(0, RECORDS_PER_STEP);
      if (batch.length === 0) break;
      for (const e of batch) {
        expect(read.has(e.id)).toBe(false);
        read.add(e.id);
      }
      position = advance(position, batch);
      expect(position.seen.length).toBeLessThanOrEqual(MAX_SEEN);
    }
    expect(read.size).toBe(rewrite.length);
    expect(JSON.stringify(position).length).toBeLessThan(300_000);
  });
});

describe('following the simulated export', () => {
  let sim: Simulator | null = null;
  const clock = { now: new Date() };
  afterEach(async () => {
    await sim?.close();
    sim = null;
  });

  /** A RustSec-shaped record (made up for the step's limits; the real ones are test/fixtures/rustsec). */
  const record = (id: string, crate: string, informational: string | null, withdrawn?: string) => ({
    id,
    modified: '2026-03-01T00:00:00Z',
    published: '2026-03-01T00:00:00Z',
    ...(withdrawn ? { withdrawn } : {}),
    affected: [{ package: { ecosystem: 'crates.io', name: crate }, database_specific: { informational } }],
  });

  async function follow(scenario: Scenario, at: string, position: AdvisoriesPosition | null) {
    const now = new Date(at);
    clock.now = now;
    sim ??= await startSimulator({ scenario, clock: () => clock.now });
    sim.setScenario(scenario);
    const base = sim.urls.osvExport;
    const client = createFeedClient('osv-export', base, { userAgent: 'tended-test/0.1.0', timeoutMs: 2_000 });
    return followAdvisories(client, base, position, () => now);
  }

  it('hints each crate a record names unmaintained, withdrawn too, dated by its modified day; reads no GHSA record', async () => {
    const scenario = parseScenario({
      components: {
        'cargo:old-crate': [{ from: '2026-03-01', versions: { '1.0.0': '2025-01-01T00:00:00Z' } }],
        'cargo:quiet': [
          { from: '2026-03-01', versions: { '1.0.0': '2025-01-01T00:00:00Z' } },
          { from: '2026-03-15', advisories: [record('RUSTSEC-2026-0001', 'quiet', 'unmaintained')] },
          {
            from: '2026-03-16',
            advisories: [record('RUSTSEC-2026-0001', 'quiet', 'unmaintained', '2026-03-16T00:00:00Z')],
          },
        ],
        'cargo:unsound': [{ from: '2026-03-15', advisories: [record('RUSTSEC-2026-0002', 'unsound', 'unsound')] }],
        'cargo:vulnerable': [{ from: '2026-03-15', advisories: [record('GHSA-2222-3333-4444', 'vulnerable', null)] }],
      },
    });
    const first = await follow(scenario, '2026-03-14T12:00:00Z', null);
    expect(first).toEqual({ hints: [], next: { since: 0, from: 0, seen: [] }, done: true, notes: [] });
    const started = sim!.requests.length;
    const published = await follow(scenario, '2026-03-15T12:00:00Z', first.next);
    expect(published.hints).toEqual([
      {
        component: { kind: 'cargo', id: 'quiet' },
        changed_on: '2026-03-15',
        marker: 'RUSTSEC-2026-0001@2026-03-15T00:00:00.000Z',
        removal: false,
      },
    ]);
    expect(published.done).toBe(true);
    expect(sim!.requests.slice(started).map((r) => r.path)).toEqual([
      '/osvexport/crates.io/modified_id.csv',
      '/osvexport/crates.io/RUSTSEC-2026-0001.json',
      '/osvexport/crates.io/RUSTSEC-2026-0002.json',
    ]);
    const withdrawn = await follow(scenario, '2026-03-16T12:00:00Z', published.next);
    expect(withdrawn.hints.map((h) => [h.component.id, h.changed_on, h.marker])).toEqual([
      ['quiet', '2026-03-16', 'RUSTSEC-2026-0001@2026-03-16T00:00:00.000Z'],
    ]);
    expect((await follow(scenario, '2026-03-16T13:00:00Z', withdrawn.next)).hints).toEqual([]);
  });

  it('reads at most a step’s worth of records, the rest in the next step', async () => {
    const crates = Object.fromEntries(
      Array.from({ length: RECORDS_PER_STEP + 20 }, (_, i) => [
        `cargo:crate-${i}`,
        [{ from: '2026-03-15', advisories: [record(`RUSTSEC-2026-${1000 + i}`, `crate-${i}`, 'unmaintained')] }],
      ]),
    );
    const scenario = parseScenario({ components: crates });
    const first = await follow(scenario, '2026-03-14T12:00:00Z', null);
    const one = await follow(scenario, '2026-03-15T12:00:00Z', first.next);
    expect([one.hints.length, one.done]).toEqual([RECORDS_PER_STEP, false]);
    const two = await follow(scenario, '2026-03-15T12:00:00Z', one.next);
    expect([two.hints.length, two.done]).toEqual([20, true]);
    expect(new Set([...one.hints, ...two.hints].map((h) => h.component.id)).size).toBe(RECORDS_PER_STEP + 20);
  });

  it('passes over a record the bucket does not hold, and stops at one it cannot reach until it answers', async () => {
    const advisory = { from: '2026-03-15', advisories: [record('RUSTSEC-2026-0001', 'quiet', 'unmaintained')] };
    const healthy = parseScenario({ components: { 'cargo:quiet': [advisory] } });
    const first = await follow(healthy, '2026-03-14T12:00:00Z', null);
    const key = 'RUSTSEC-2026-0001@2026-03-15T00:00:00.000Z';

    // Listed before it was written: passed over (the crate's usual reads still ask OSV's API).
    const missing = parseScenario({ ...healthy, osv_export: [{ from: '2026-03-15', records_fail: 'not_found' }] });
    const passed = await follow(missing, '2026-03-15T12:00:00Z', first.next);
    expect(passed.hints).toEqual([]);
    expect(passed.next?.seen).toEqual([key]);
    expect(passed.notes).toEqual([
      expect.objectContaining({
        kind: 'unreachable',
        detail: expect.stringMatching(/RUSTSEC-2026-0001 passed over: .*HTTP 404/) as unknown,
      }),
    ]);

    // A 5xx or a time-out: the record and everything after it wait for the next pass.
    const failing = parseScenario({ ...healthy, osv_export: [{ from: '2026-03-15', records_fail: 'server_error' }] });
    const stopped = await follow(failing, '2026-03-15T12:00:00Z', first.next);
    expect(stopped).toMatchObject({ hints: [], done: true, next: first.next });
    expect(stopped.notes).toEqual([
      expect.objectContaining({
        kind: 'unreachable',
        detail: expect.stringMatching(/RUSTSEC-2026-0001\.json: server_error/) as unknown,
      }),
    ]);
    const healed = await follow(healthy, '2026-03-15T13:00:00Z', stopped.next);
    expect(healed.hints.map((h) => [h.component.id, h.marker])).toEqual([['quiet', key]]);
  });

  it.each([
    ['server_error', /server_error.*503/],
    ['malformed', /not a modified_id\.csv/],
    ['not_found', /HTTP 404/],
    ['rate_limit_429', /rate_limited/],
  ] as const)('the export failing (%s): the position stays and a note says why', async (fail, why) => {
    const healthy = parseScenario({
      components: {
        'cargo:quiet': [{ from: '2026-03-15', advisories: [record('RUSTSEC-2026-0001', 'quiet', 'unmaintained')] }],
      },
    });
    const first = await follow(healthy, '2026-03-14T12:00:00Z', null);
    const failing = parseScenario({ ...healthy, osv_export: [{ from: '2026-03-15', fail, status: 503 }] });
    const step = await follow(failing, '2026-03-15T12:00:00Z', first.next);
    expect(step).toMatchObject({ hints: [], next: first.next, done: true });
    expect(step.notes).toEqual([
      { kind: 'unreachable', detail: expect.stringMatching(why) as unknown, at: '2026-03-15T12:00:00.000Z' },
    ]);
    // Healthy again: what was published meanwhile is read.
    expect((await follow(healthy, '2026-03-15T13:00:00Z', step.next)).hints.map((h) => h.component.id)).toEqual([
      'quiet',
    ]);
  });

  it('a re-listing after a break resumes the advisories where they were left; a backfill at the head', async () => {
    clock.now = new Date('2026-03-15T12:00:00Z');
    sim = await startSimulator({
      scenario: { components: {} },
      clock: () => clock.now,
      registries: { seed: 37, scale: { cargo: 0.0005 }, registries: ['cargo'] },
    });
    const client = createFeedClient('cargo-feed', sim.feeds.cargo, {
      userAgent: 'tended-test/0.1.0',
      timeoutMs: 5_000,
    });
    const left: CratesPosition = { since: 1, at_since: [], dump: 1, advisories: { since: 5, from: 0, seen: ['A@x'] } };
    const head: CratesPosition = { since: 2, at_since: [], dump: null, advisories: { since: 9, from: 0, seen: [] } };
    const listed = async (changedAfter: CratesPosition | null) => {
      const list = createCratesListing(client, sim!.feeds.cargo);
      for (let at: string | null = null; ;) {
        const page = await list(at, { changedAfter, followFrom: head });
        if (isUnreachable(page)) throw new Error(page.unreachable);
        if (page.next === null) return page.followFrom!.advisories;
        at = page.next;
      }
    };
    expect(await listed(left)).toEqual(left.advisories);
    expect(await listed(null)).toEqual(head.advisories);
  });
});
