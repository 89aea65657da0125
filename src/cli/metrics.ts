import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { Clock } from '../operations/deps.js';
import type { FollowerStatus } from '../operations/follow.js';
import { READ_REASONS } from '../domain/follow-schedule.js';
import type { PassReport } from '../operations/observe.js';
import type { ParsePool } from '../operations/parse-pool.js';
import type { Store } from '../storage/store.js';
import type { QueueFigures } from '../storage/watch-records.js';
import type { BudgetUse, UpstreamBudgets } from '../upstreams/http/budget.js';
import { READ_PRIORITIES } from '../upstreams/http/read-priority.js';
import type { UpstreamOutcome, UpstreamWatcher } from '../upstreams/http/ports.js';
import { RequestHistogram } from './request-histogram.js';

/**
 * The operator's metrics in Prometheus' text format (docs/operating.md#metrics says what each
 * means). Made by `serve` and handed down as deps: the edge and the hot path tell of each answer
 * (request-histogram.ts), the upstream clients of each read and hold, the observer of each pass.
 * What the caches, the parse pool and the store hold is read when scraped, not counted on the
 * way, so a cache hit on the hot path costs an increment and nothing else. No label ever holds a
 * path, an address, a key, a name asked about or a body: routes are patterns, the rest are short
 * fixed lists.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly requests = new RequestHistogram();
  readonly upstreams: UpstreamWatcher;
  private readonly holds = new Map<string, number>();
  private readonly reads: Counter<'outcome'>;
  private readonly passes: Counter<'result'>;

  constructor() {
    const registry = this.registry;
    // Process figures (CPU, memory, event-loop delay, GC) under their usual names, for the usual dashboards.
    collectDefaultMetrics({ register: registry });
    const upstream = new Counter({
      name: 'tended_upstream_requests_total',
      help: 'Reads of the upstreams by upstream and outcome (ok, not_modified, not_found, other_status, held: not sent during a hold, rate_limited, timeout, network, server_error, unparsable, unauthorized…).',
      labelNames: ['upstream', 'outcome'] as const,
      registers: [registry],
    });
    const holds = this.holds;
    this.upstreams = {
      answer: (name: string, outcome: UpstreamOutcome) => upstream.inc({ upstream: name, outcome }),
      hold: (name: string, untilMs: number) => holds.set(name, untilMs),
    };
    new Gauge({
      name: 'tended_upstream_hold_seconds',
      help: 'Seconds left of the hold an upstream asked for (Retry-After, a spent rate limit); 0 when none runs.',
      labelNames: ['upstream'] as const,
      registers: [registry],
      collect() {
        const now = Date.now();
        for (const [name, until] of holds) this.set({ upstream: name }, Math.max(0, (until - now) / 1000));
      },
    });
    this.reads = new Counter({
      name: 'tended_observer_reads_total',
      help: 'Components the observer read, by outcome: the state recorded, or deferred (held back, read later), dropped, unconfirmed, skipped, failed.',
      labelNames: ['outcome'] as const,
      registers: [registry],
    });
    this.passes = new Counter({
      name: 'tended_observer_passes_total',
      help: 'Observer passes in this process, by result (ok, failed).',
      labelNames: ['result'] as const,
      registers: [registry],
    });
  }

  /** Everything, in Prometheus' text format: the registry's figures and the request histogram. */
  async text(): Promise<string> {
    const registered = await this.registry.metrics();
    return `${registered}${registered.endsWith('\n') || registered === '' ? '' : '\n'}${this.requests.text()}`;
  }

  /** One observer pass's report, as serve's schedule hands it over. */
  pass(report: PassReport): void {
    this.passes.inc({ result: 'ok' });
    for (const [state, n] of Object.entries(report.states)) if (n) this.reads.inc({ outcome: state }, n);
    for (const outcome of ['deferred', 'dropped', 'unconfirmed', 'skipped', 'failed'] as const)
      if (report[outcome] > 0) this.reads.inc({ outcome }, report[outcome]);
  }

  passFailed(): void {
    this.passes.inc({ result: 'failed' });
  }

  /** The figures read when scraped: the caches, the parse pool, and the store's queue and log. */
  watch(sources: {
    store: Store;
    clock: Clock;
    caches: Record<'entity' | 'badge' | 'page', CountedCache>;
    parsing: ParsePool;
    discoveryDaily: number;
  }): void {
    const registry = this.registry;
    const { caches, parsing } = sources;
    new Counter({
      name: 'tended_cache_lookups_total',
      help: 'Lookups in the in-memory answer caches (entity answers, badges, package pages) by result (hit, miss).',
      labelNames: ['cache', 'result'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const [name, cache] of Object.entries(caches)) {
          this.inc({ cache: name, result: 'hit' }, cache.hits);
          this.inc({ cache: name, result: 'miss' }, cache.misses);
        }
      },
    });
    new Gauge({
      name: 'tended_cache_entries',
      help: 'Answers each in-memory cache holds.',
      labelNames: ['cache'] as const,
      registers: [registry],
      collect() {
        for (const [name, cache] of Object.entries(caches)) this.set({ cache: name }, cache.size.entries);
      },
    });
    new Gauge({
      name: 'tended_cache_bytes',
      help: 'Bytes the entity answers cache holds (bounded by TENDED_ANSWER_CACHE_BYTES).',
      registers: [registry],
      collect() {
        this.set(caches.entity.size.bytes);
      },
    });
    new Counter({
      name: 'tended_parses_total',
      help: 'Submissions the parse pool took, by outcome: parsed, too_complex (422, past the deadline or heap), busy (503), refused (malformed input), failed (a fault).',
      labelNames: ['outcome'] as const,
      registers: [registry],
      collect() {
        this.reset();
        const c = parsing.counts;
        this.inc({ outcome: 'parsed' }, c.parsed);
        this.inc({ outcome: 'too_complex' }, c.tooComplex);
        this.inc({ outcome: 'busy' }, c.busy);
        this.inc({ outcome: 'refused' }, c.refused);
        this.inc({ outcome: 'failed' }, c.failed);
      },
    });
    const readGauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read());
        },
      });
    readGauge('tended_parse_workers_busy', 'Parse workers parsing now.', () => parsing.load.busy);
    readGauge('tended_parse_waiting', 'Submissions waiting for a free parse worker.', () => parsing.load.waiting);
    readGauge('tended_parse_threads', 'Parse workers at most (TENDED_PARSE_THREADS).', () => parsing.load.threads);

    const store = storeFigures(sources.store, sources.clock);
    const storeGauge = (name: string, help: string, read: (f: StoreFigures) => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        async collect() {
          const figures = await store();
          // A store that does not answer says so in tended_store_up; its figures are left out, not zero.
          if (figures === null) this.reset();
          else this.set(read(figures));
        },
      });
    new Gauge({
      name: 'tended_store_up',
      help: '1 when the store answered this scrape’s reads, 0 when it did not.',
      registers: [registry],
      async collect() {
        this.set((await store()) === null ? 0 : 1);
      },
    });
    storeGauge(
      'tended_watch_components',
      'Components on the watch list (watched or discovered).',
      (f) => f.queue.watched,
    );
    storeGauge('tended_due_components', 'Components due and not claimed: the observer’s backlog.', (f) => f.queue.due);
    storeGauge('tended_claimed_components', 'Components claimed by a worker whose lease runs.', (f) => f.queue.claimed);
    storeGauge(
      'tended_discovery_unconfirmed_components',
      'Discovered names no read has shown public yet (nothing of them is published).',
      (f) => f.queue.unconfirmed,
    );
    storeGauge(
      'tended_discovery_queued_today',
      'Names discovery queued this UTC day, counted against TENDED_DISCOVERY_DAILY.',
      (f) => f.queue.discoveredToday,
    );
    readGauge('tended_discovery_daily_bound', 'TENDED_DISCOVERY_DAILY: names discovery may queue a UTC day.', () => {
      return sources.discoveryDaily;
    });
    storeGauge('tended_log_leaves', 'Leaves in the log (its tree size).', (f) => f.treeSize);
    storeGauge(
      'tended_log_head_age_seconds',
      'Seconds since the log’s latest head was sealed: how long nothing was appended.',
      (f) => f.headAgeSeconds,
    );
  }
}

/**
 * Each upstream host's request budget and today's use (upstreams/budget.ts), read once a scrape:
 * with REDIS_URL the day's counts are every process's, the requests counter this process's.
 */
export function watchBudgets(metrics: ServiceMetrics, budgets: UpstreamBudgets): void {
  const registers = [metrics.registry];
  const use = oncePerScrape(() => budgets.use());
  const gauge = (name: string, help: string, value: (u: BudgetUse) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['upstream'] as const,
      registers,
      async collect() {
        for (const u of await use()) this.set({ upstream: u.upstream }, value(u));
      },
    });
  gauge(
    'tended_upstream_budget_per_second',
    'Requests a second Tended keeps to on each upstream host (TENDED_BUDGET_*).',
    (u) => u.per_second,
  );
  gauge(
    'tended_upstream_budget_per_day',
    'Requests a UTC day Tended keeps to on each upstream host (TENDED_BUDGET_*).',
    (u) => u.per_day,
  );
  gauge(
    'tended_upstream_budget_used_today',
    'Requests sent to each upstream host this UTC day (by every process sharing the budget through Redis).',
    (u) => u.used_today,
  );
  gauge(
    'tended_upstream_budget_remaining_today',
    'Requests left of each upstream host’s budget this UTC day.',
    (u) => u.remaining_today,
  );
  new Counter({
    name: 'tended_upstream_budget_requests_total',
    help: 'Requests this process asked its upstream budgets for, by upstream, priority (interactive, event, threshold, backfill, sweep) and outcome (sent, refused: the day had no room left at that priority; the read is deferred to the next day).',
    labelNames: ['upstream', 'priority', 'outcome'] as const,
    registers,
    async collect() {
      this.reset();
      for (const u of await use())
        for (const priority of READ_PRIORITIES) {
          if (u.sent[priority] > 0) this.inc({ upstream: u.upstream, priority, outcome: 'sent' }, u.sent[priority]);
          if (u.refused[priority] > 0)
            this.inc({ upstream: u.upstream, priority, outcome: 'refused' }, u.refused[priority]);
        }
    },
  });
}

/**
 * Each followed registry's health (operations/follow.ts followStatus: small rows, read once a
 * scrape): how far behind its feed the record may be, the backfill's progress, the day's reads.
 */
export function watchFollowers(metrics: ServiceMetrics, statuses: () => Promise<FollowerStatus[]>): void {
  const registers = [metrics.registry];
  const read = oncePerScrape(statuses);
  const gauge = (name: string, help: string, value: (f: FollowerStatus) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['registry'] as const,
      registers,
      async collect() {
        for (const f of await read()) this.set({ registry: f.registry }, value(f));
      },
    });
  gauge(
    'tended_follow_lag_seconds',
    'Seconds since each followed registry’s last contiguous read of its feed (-1 before the first): how far behind its feed the record may be.',
    (f) => f.lag_seconds ?? -1,
  );
  gauge(
    'tended_follow_faults_total',
    'Faults each follower met (a cursor that regressed, a window it fell out of, a resync, a page larger than asked for, a cursor that does not move on), since it was first followed.',
    (f) => f.faults_seen,
  );
  gauge('tended_follow_held', 'Packages held for each followed registry.', (f) => f.backfill.listed);
  gauge(
    'tended_follow_read_once',
    'Packages of each followed registry read at least once: the first backfill is done when this equals tended_follow_held.',
    (f) => f.backfill.read_once,
  );
  gauge(
    'tended_follow_failing',
    '1 while a follower is failing (this process’s last pass ended in an error, or its last fault is an answer it refused and no contiguous read came since), else 0.',
    (f) => (f.status === 'failing' ? 1 : 0),
  );
  new Gauge({
    name: 'tended_follow_reads_today',
    help: 'Reads of each followed registry’s packages this UTC day, by reason (event, threshold, backfill, sweep).',
    labelNames: ['registry', 'reason'] as const,
    registers,
    async collect() {
      for (const f of await read())
        for (const reason of READ_REASONS) this.set({ registry: f.registry, reason }, f.reads_today[reason]);
    },
  });
}

/** What the metrics read of an answer cache (operations/answer-cache.ts), whatever it holds. */
interface CountedCache {
  readonly hits: number;
  readonly misses: number;
  readonly size: { entries: number; bytes: number };
}

/**
 * A read shared by every gauge that asks for it in one scrape: the registry collects all gauges at
 * once, so they share the read in flight, and the next scrape (the read settled) reads afresh.
 */
function oncePerScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | null = null;
  return () => {
    if (inFlight) return inFlight;
    const r = read();
    inFlight = r;
    const done = () => {
      inFlight = null;
    };
    r.then(done, done);
    return r;
  };
}

interface StoreFigures {
  queue: QueueFigures;
  treeSize: number;
  headAgeSeconds: number;
}

/**
 * The store's figures, read once however many gauges ask in one scrape: the registry collects
 * every gauge at once, so they share the read in flight, and the next scrape reads afresh. Two
 * queries a scrape; null when the store does not answer.
 */
function storeFigures(store: Store, clock: Clock): () => Promise<StoreFigures | null> {
  return oncePerScrape(() => {
    const now = clock.now();
    return Promise.all([store.queueFigures(now.toISOString()), store.latestHead()]).then(
      ([queue, head]) => ({
        queue,
        treeSize: head?.tree_size ?? 0,
        headAgeSeconds: head ? Math.max(0, (now.getTime() - Date.parse(head.timestamp)) / 1000) : 0,
      }),
      () => null,
    );
  });
}

/**
 * GET /metrics on its own address (TENDED_METRICS_ADDRESS), apart from the public service: no rate
 * limit, no CORS, nothing in the OpenAPI document, and reachable only where the operator binds it.
 */
export function listenMetrics(
  metrics: ServiceMetrics,
  at: { host: string; port: number },
  onListening: (port: number) => void,
): Server {
  const server = createServer((req, res) => {
    const path = req.url?.split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('GET /metrics\n');
      return;
    }
    metrics.text().then(
      (text) => {
        res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('the metrics could not be collected\n');
      },
    );
  });
  server.listen(at.port, at.host, () => onListening((server.address() as AddressInfo).port));
  return server;
}
