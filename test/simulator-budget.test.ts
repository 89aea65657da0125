import { afterEach, describe, expect, it } from 'vitest';
import { pass, startFollowed, type Followed } from './support/followed-registries.js';

/**
 * The simulator counts every client's requests per upstream and fails loudly past a budget: a 429
 * with the rate-limit headers a client reads, and a violation a test or a benchmark asserts on.
 */
let f: Followed;
afterEach(() => f.close());

describe('the simulator’s request budgets', () => {
  it('refuses a client hammering an upstream past its budget a second, and records the violation', async () => {
    f = await startFollowed({
      at: '2026-01-05T12:00:00Z',
      scales: { npm: 0.0005 },
      budgets: { replicate: { perSecond: 5 } },
    });
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        fetch(`${f.sim.feeds.npm}/registry/`).then(async (r) => ({ r, body: await r.text() })),
      ),
    );
    const refused = answers.filter((a) => a.r.status === 429);
    // However the 40 requests fall across seconds, at most 5 are let through in each.
    expect(refused.length).toBeGreaterThanOrEqual(40 - 5 * 2);
    const headers = refused[0]!.r.headers;
    expect(headers.get('retry-after')).toBe('1');
    expect(headers.get('x-ratelimit-limit')).toBe('5');
    expect(headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 1);
    expect(f.sim.traffic.violations[0]).toMatchObject({ upstream: 'replicate', window: 'second', budget: 5 });
    const summary = f.sim.traffic.summary()['replicate']!;
    expect(summary).toMatchObject({ requests: 40, refused: refused.length, perDay: { '2026-01-05': 40 } });
    expect(summary.peakPerSecond).toBeGreaterThan(5);
  });

  it('stops a follower past its day’s budget without moving its cursor, and says so', async () => {
    f = await startFollowed({
      at: '2026-01-05T12:00:00Z',
      scales: { composer: 0.002 },
      budgets: { packagistorg: { perDay: 4 } },
    });
    const follower = f.follower('composer');
    const cursor = { value: null as string | null };
    // The backfill takes three requests (the starting timestamp, the list, a first step), the next pass a fourth.
    await pass(follower, cursor);
    f.now.at = new Date('2026-01-05T13:00:00Z');
    const first = await pass(follower, cursor);
    expect(first.flatMap((b) => b.faults)).toEqual([]);
    const committed = cursor.value;
    f.now.at = new Date('2026-01-05T14:00:00Z');
    const refused = await pass(follower, cursor);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ contiguous: false, hints: [], caught_up: true });
    expect(refused[0]!.faults[0]).toMatchObject({ kind: 'unreachable' });
    expect(refused[0]!.faults[0]!.detail).toContain('rate_limited');
    expect(cursor.value).toBe(committed);
    expect(f.sim.traffic.violations).toEqual([
      expect.objectContaining({ upstream: 'packagistorg', window: 'day', at: '2026-01-05', budget: 4, count: 5 }),
    ]);
  });
});
