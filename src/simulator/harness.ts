/**
 * The simulator with the real readers pointed at it over loopback: what the reader tests, the
 * fault-injection test, the demo and the benchmark all start from.
 */
import { MemoryConditionalCache } from '../upstreams/http/memory-cache.js';
import type { Sources } from '../upstreams/source.js';
import { createSources } from '../upstreams/sources.js';
import type { Scenario } from './scenario.js';
import { startSimulator, type Simulator } from './server.js';

export interface Harness {
  simulator: Simulator;
  sources: Sources;
  cache: MemoryConditionalCache;
  /** Fresh readers (no rate-limit memory) sharing the same cache. */
  newSources(options?: { githubToken?: string | null }): Sources;
  close(): Promise<void>;
}

export async function startHarness(options: {
  scenario: Scenario;
  /** The simulated date, YYYY-MM-DD (the simulator answers as of noon UTC that day). */
  today: string;
  chaos?: { rate: number; seed: number };
  timeoutMs?: number;
  concurrency?: number;
  githubToken?: string | null;
}): Promise<Harness> {
  const simulator = await startSimulator({
    scenario: options.scenario,
    clock: () => new Date(`${options.today}T12:00:00Z`),
    ...(options.chaos ? { chaos: options.chaos } : {}),
    hangMs: 5_000,
  });
  const cache = new MemoryConditionalCache();
  const newSources = (o: { githubToken?: string | null } = {}) =>
    createSources({
      urls: simulator.urls,
      githubToken: o.githubToken ?? options.githubToken ?? null,
      userAgent: 'tended-test/0.1.0 (+simulator)',
      // Long enough for a first request on a loaded 2-core machine (300 ms timed some out), short
      // enough that a scenario's hanging upstream costs a test a second.
      timeoutMs: options.timeoutMs ?? 1_000,
      concurrency: options.concurrency ?? 4,
      cache,
    });
  return { simulator, sources: newSources(), cache, newSources, close: () => simulator.close() };
}
