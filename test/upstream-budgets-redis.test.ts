import { afterEach, describe, expect, it } from 'vitest';
import { normaliseComponent } from '../src/domain/component.js';
import { RedisBudgetStore } from '../src/limits/upstream-budgets.js';
import { simulatedBudgets } from '../src/simulator/budgets.js';
import { startSimulator, type Simulator } from '../src/simulator/server.js';
import { UpstreamBudgets } from '../src/upstreams/http/budget.js';
import { budgetLimits, type BudgetLimits } from '../src/upstreams/http/budget-limits.js';
import { MemoryConditionalCache } from '../src/upstreams/http/memory-cache.js';
import { heldBackUntil } from '../src/upstreams/reading.js';
import type { Reading, Sources } from '../src/upstreams/source.js';
import { createSources } from '../src/upstreams/sources.js';
import { dropPrefix, freePort, REDIS_URL, throwawayRedis, uniquePrefix, type ThrowawayRedis } from './support/redis.js';

/**
 * With REDIS_URL, every process that reads an upstream spends one budget: here two readers with
 * their own Redis connections and their own budgets (as two `tended` processes have), counted by
 * the simulator against the one budget they share. While Redis is away each goes on from memory,
 * from the count Redis last gave.
 */
const NOW = new Date('2026-01-05T12:00:00Z');
let sim: Simulator;
let redis: ThrowawayRedis | null = null;
const opened: UpstreamBudgets[] = [];
const prefixes: string[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((b) => b.close()));
  await sim?.close();
  await redis?.stop();
  redis = null;
  for (const p of prefixes.splice(0)) await dropPrefix(REDIS_URL, p);
});

async function start(limits: BudgetLimits): Promise<void> {
  sim = await startSimulator({
    scenario: { components: {} },
    clock: () => NOW,
    registries: { seed: 26, scale: { npm: 0.001 } },
    budgets: simulatedBudgets(limits),
  });
}

function budgetsIn(url: string, limits: BudgetLimits, prefix: string): UpstreamBudgets {
  const b = new UpstreamBudgets(limits, { store: new RedisBudgetStore(url, { prefix }), now: () => NOW.getTime() });
  opened.push(b);
  return b;
}

function sources(budgets: UpstreamBudgets): Sources {
  return createSources({
    urls: sim.urls,
    githubToken: null,
    userAgent: 'tended-test/0.1.0 (+simulator)',
    timeoutMs: 10_000,
    concurrency: 16,
    cache: new MemoryConditionalCache(),
    now: () => NOW.getTime(),
    budgets,
  });
}

const names = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => sim.registries!.get('npm')!.nameOf(from + i));
const readAll = (s: Sources, list: string[]) =>
  Promise.all(list.map((n) => s.npm.read(normaliseComponent('npm', n), '2026-01-05')));
const sent = (r: Reading) => heldBackUntil(r) === null && r.signals.unreachable === undefined;
const npmUse = async (b: UpstreamBudgets) => (await b.use()).find((u) => u.upstream === 'npm')!;

describe('upstream budgets shared through Redis', () => {
  it('keeps two processes within one budget a second and one day between them', async () => {
    const limits = budgetLimits(false, { npm: { perSecond: 5, perDay: 24 } });
    await start(limits);
    const prefix = uniquePrefix();
    prefixes.push(prefix);
    const [one, two] = [budgetsIn(REDIS_URL, limits, prefix), budgetsIn(REDIS_URL, limits, prefix)];
    const began = performance.now();
    const [a, b] = await Promise.all([readAll(sources(one), names(15)), readAll(sources(two), names(15, 15))]);
    const took = performance.now() - began;
    // 24 between them, whoever got there first; the other six deferred to the next UTC day.
    expect([...a, ...b].filter(sent)).toHaveLength(24);
    for (const r of [...a, ...b].filter((r) => !sent(r))) expect(heldBackUntil(r)).toBe('2026-01-06T00:00:00Z');
    const npm = sim.traffic.summary()['npm']!;
    expect(npm).toMatchObject({ requests: 24, perDay: { '2026-01-05': 24 }, refused: 0 });
    expect(npm.peakPerSecond).toBeLessThanOrEqual(5);
    expect(sim.traffic.violations).toEqual([]);
    // Five a second between both: 24 requests take over four seconds, not two.
    expect(took).toBeGreaterThan(23 * 200);
    // Either process sees the day's count of both.
    for (const b of [one, two])
      expect(await npmUse(b)).toMatchObject({ used_today: 24, remaining_today: 0, shared_in: 'redis' });
  });

  it('goes on from memory while Redis is away, from the count Redis last gave', async () => {
    const limits = budgetLimits(false, { npm: { perSecond: 20, perDay: 6 } });
    await start(limits);
    redis = await throwawayRedis();
    const budgets = budgetsIn(redis.url, limits, uniquePrefix());
    const s = sources(budgets);
    expect((await readAll(s, names(4))).every(sent)).toBe(true);
    expect(await npmUse(budgets)).toMatchObject({ used_today: 4, shared_in: 'redis' });
    await redis.stop();
    // Redis gone: the day's count does not start again at zero, so two more go and two wait.
    const meanwhile = await readAll(s, names(4, 4));
    expect(meanwhile.filter(sent)).toHaveLength(2);
    expect(await npmUse(budgets)).toMatchObject({ used_today: 6, shared_in: 'memory' });
    expect(sim.traffic.summary()['npm']!.perDay).toEqual({ '2026-01-05': 6 });
    expect(sim.traffic.violations).toEqual([]);
  });

  it('reads from memory when the configured Redis never answers', async () => {
    const limits = budgetLimits(false, { npm: { perSecond: 10, perDay: 100 } });
    await start(limits);
    const budgets = budgetsIn(`redis://127.0.0.1:${await freePort()}`, limits, uniquePrefix());
    const readings = await readAll(sources(budgets), names(12));
    expect(readings.every(sent)).toBe(true);
    expect(sim.traffic.summary()['npm']!.peakPerSecond).toBeLessThanOrEqual(10);
    expect(sim.traffic.violations).toEqual([]);
    expect(await npmUse(budgets)).toMatchObject({ used_today: 12, shared_in: 'memory' });
  });
});
