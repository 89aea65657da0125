import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoScenario } from '../src/simulator/demo.js';
import { upstreamEnv } from '../src/simulator/env.js';
import { startSimulator, type Simulator } from '../src/simulator/server.js';
import { parsePrometheusText, total, type Family } from './support/prometheus-text.js';
import { freePort } from './support/redis.js';
import { serveAt, tended, waitFor, type TendedProcess } from './support/tended-processes.js';

/**
 * `tended serve` as an operator runs it, with TENDED_METRICS_ADDRESS: GET /metrics scraped over
 * HTTP on its own port and read by a strict parser of the text format; an observer pass, requests
 * (on the hot path and through the framework) and parses each move their counters.
 */
const AT = '2026-03-15 12:00:00';
let dir: string;
let simulator: Simulator;
let service: TendedProcess & { url: string };
let metricsUrl: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tended-metrics-'));
  simulator = await startSimulator({ scenario: demoScenario(), clock: () => new Date('2026-03-15T12:00:00Z') });
  const metricsPort = await freePort();
  const env = {
    DATABASE_URL: `sqlite:${join(dir, 'tended.db')}`,
    ...upstreamEnv(simulator.urls),
    TENDED_METRICS_ADDRESS: `127.0.0.1:${metricsPort}`,
    TENDED_OBSERVER: 'on',
  };
  const watched = await tended(['watch', 'add', 'github', 'acme/rocket', 'npm', 'left-padded'], env, AT).exited;
  expect(watched.code, watched.err).toBe(0);
  service = await serveAt(env, AT);
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
}, 90_000);
afterAll(async () => {
  await service?.stop();
  await simulator?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function scrape(): Promise<{ families: Map<string, Family>; text: string }> {
  const res = await fetch(metricsUrl);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  return { families: parsePrometheusText(text), text };
}

const requests = (f: Map<string, Family>, labels: Record<string, string>) =>
  total(f, 'tended_http_request_duration_seconds_count', labels);

describe('GET /metrics', () => {
  it('counts an observer pass: reads by outcome, upstream requests, the log and the queue', async () => {
    await waitFor('the first observer pass', 30_000, async () => {
      const { families } = await scrape();
      return total(families, 'tended_observer_reads_total') >= 2;
    });
    const { families } = await scrape();
    expect(total(families, 'tended_observer_passes_total', { result: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(total(families, 'tended_upstream_requests_total', { upstream: 'github' })).toBeGreaterThan(0);
    expect(total(families, 'tended_upstream_requests_total', { upstream: 'npm', outcome: 'ok' })).toBeGreaterThan(0);
    expect(total(families, 'tended_log_leaves')).toBeGreaterThanOrEqual(2);
    expect(total(families, 'tended_log_head_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(total(families, 'tended_watch_components')).toBe(2);
    expect(total(families, 'tended_due_components')).toBe(0);
    expect(total(families, 'tended_store_up')).toBe(1);
    expect(total(families, 'tended_discovery_daily_bound')).toBe(100_000);
    expect(families.get('tended_upstream_hold_seconds')?.type).toBe('gauge');
    // Each host's budget (the documented defaults here) and what the pass spent of it today.
    expect(total(families, 'tended_upstream_budget_per_day', { upstream: 'crates' })).toBe(50_000);
    expect(total(families, 'tended_upstream_budget_per_second', { upstream: 'crates' })).toBe(1);
    const npmToday = total(families, 'tended_upstream_budget_used_today', { upstream: 'npm' });
    expect(npmToday).toBeGreaterThan(0);
    expect(total(families, 'tended_upstream_budget_remaining_today', { upstream: 'npm' })).toBe(1_500_000 - npmToday);
    expect(
      total(families, 'tended_upstream_budget_requests_total', {
        upstream: 'npm',
        priority: 'interactive',
        outcome: 'sent',
      }),
    ).toBe(npmToday);
    // Process figures come too, under their usual names.
    expect(families.has('process_cpu_user_seconds_total')).toBe(true);
  });

  it('counts requests by route pattern, on the hot path and through the framework alike, and never a path or address', async () => {
    const before = (await scrape()).families;
    const entity = `${service.url}/api/v1/entity/acme/rocket`;
    for (let i = 0; i < 2; i++) expect((await fetch(entity)).status).toBe(200);
    // A key the service does not know: the framework answers (the hot path never takes a key).
    expect((await fetch(entity, { headers: { 'x-api-key': 'not-a-key' } })).status).toBe(401);
    expect((await fetch(`${service.url}/no/such/page-1234`)).status).toBe(404);
    const { families: after, text } = await scrape();
    const route = '/api/v1/entity/:owner/:repo';
    const moved = (labels: Record<string, string>) => requests(after, labels) - requests(before, labels);
    expect(moved({ route, method: 'GET', status: '200' })).toBe(2);
    expect(moved({ route, method: 'GET', status: '401' })).toBe(1);
    expect(moved({ route: 'unmatched', method: 'GET', status: '404' })).toBe(1);
    const hits = (f: Map<string, Family>) => total(f, 'tended_cache_lookups_total', { cache: 'entity', result: 'hit' });
    expect(hits(after) - hits(before)).toBeGreaterThanOrEqual(1);
    for (const secret of ['acme', 'rocket', 'page-1234', 'not-a-key', '127.0.0.1']) expect(text).not.toContain(secret);
  });

  it('counts parses by outcome', async () => {
    const before = (await scrape()).families;
    const manifest = (content: string) =>
      fetch(`${service.url}/api/v1/manifest`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ filename: 'package.json', content }),
      });
    expect((await manifest(JSON.stringify({ dependencies: { 'left-padded': '^1.1.0' } }))).status).toBe(200);
    expect((await manifest('{"dependencies": ')).status).toBeGreaterThanOrEqual(400);
    const after = (await scrape()).families;
    const moved = (outcome: string) =>
      total(after, 'tended_parses_total', { outcome }) - total(before, 'tended_parses_total', { outcome });
    expect(moved('parsed')).toBe(1);
    expect(moved('refused')).toBe(1);
    expect(moved('too_complex')).toBe(0);
    expect(
      requests(after, { route: '/api/v1/manifest', status: '200' }) -
        requests(before, { route: '/api/v1/manifest', status: '200' }),
    ).toBe(1);
    expect(total(after, 'tended_parse_threads')).toBeGreaterThanOrEqual(1);
  });

  it('is served only on its own address', async () => {
    expect((await fetch(metricsUrl.replace('/metrics', '/'))).status).toBe(404);
    expect((await fetch(`${service.url}/metrics`)).status).toBe(404);
  });
});

/**
 * With TENDED_FOLLOW, the followers' health is scraped too: a Packagist generated by the
 * simulator (a few hundred packages) followed by `serve`, its backfill read by the observer.
 */
describe('GET /metrics while following a registry', () => {
  let followDir: string;
  let sim: Simulator;
  let following: TendedProcess & { url: string };
  let url: string;

  beforeAll(async () => {
    followDir = mkdtempSync(join(tmpdir(), 'tended-metrics-follow-'));
    sim = await startSimulator({
      scenario: { components: {} },
      clock: () => new Date('2026-03-15T12:00:00Z'),
      registries: { seed: 28, scale: { composer: 0.001 } },
    });
    const port = await freePort();
    following = await serveAt(
      {
        DATABASE_URL: `sqlite:${join(followDir, 'tended.db')}`,
        ...upstreamEnv(sim.urls),
        TENDED_FEED_COMPOSER_URL: sim.feeds.composer,
        TENDED_FOLLOW: 'composer',
        GITHUB_TOKEN: 'ghp_test',
        // Packagist's default budget (10 a second) would make this backfill take most of a minute.
        TENDED_BUDGET_PACKAGIST: '500/1000000',
        TENDED_METRICS_ADDRESS: `127.0.0.1:${port}`,
        TENDED_OBSERVER: 'on',
      },
      AT,
    );
    url = `http://127.0.0.1:${port}/metrics`;
  }, 90_000);
  afterAll(async () => {
    await following?.stop();
    await sim?.close();
    rmSync(followDir, { recursive: true, force: true });
  });

  it('shows each follower’s held packages, its backfill read, its lag and the day’s reads by reason', async () => {
    const composer = { registry: 'composer' };
    let families = new Map<string, Family>();
    await waitFor(
      'the backfill read',
      60_000,
      async () => {
        families = parsePrometheusText(await (await fetch(url)).text());
        const held = total(families, 'tended_follow_held', composer);
        return held > 0 && total(families, 'tended_follow_read_once', composer) === held;
      },
      () => [...families.keys()].filter((k) => k.startsWith('tended_follow')).join(', '),
    );
    const held = total(families, 'tended_follow_held', composer);
    // Every package the registry lists (a deleted one is not listed, so not held).
    const registry = sim.registries!.get('composer')!;
    const at = Date.parse('2026-03-15T12:00:00Z');
    let live = 0;
    for (let i = 0; i < registry.packagesBy(at); i++) if (registry.facts(i, at)?.deletedAt === null) live++;
    expect(held).toBe(live);
    expect(total(families, 'tended_follow_reads_today', { ...composer, reason: 'backfill' })).toBe(held);
    expect(total(families, 'tended_follow_reads_today', { ...composer, reason: 'sweep' })).toBe(0);
    expect(total(families, 'tended_follow_lag_seconds', composer)).toBeGreaterThanOrEqual(0);
    expect(total(families, 'tended_follow_failing', composer)).toBe(0);
  }, 90_000);
});
