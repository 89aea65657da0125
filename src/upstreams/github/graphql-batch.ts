/**
 * GitHub repositories read in GraphQL batches (DESIGN §8a): reads made at about the same time are
 * gathered for a few milliseconds, or until 100, into one aliased query whose `rateLimit` says
 * what it cost and what is left. Each repository the answer settles is classified by REST's rules
 * (graphql-reading.ts); what it cannot settle (a `NOT_FOUND`, which may be a rename or a deletion
 * only REST's 301/404 tells apart; a partial error; a field left null) and every batch that failed
 * as a whole (a 5xx, a time-out, a body that is no answer) is read through REST, as without a
 * token. A rate limit, met or foreseen, defers (DESIGN §3): while it holds no batch is sent, and
 * every read is "not sent" until the window resets, so the observer reads it again then.
 */
import type { ComponentRef } from '../../domain/component.js';
import type { EvidenceValue } from '../../domain/observation.js';
import { type HttpClient } from '../http/client.js';
import { NOT_SENT, type Answer } from '../http/answer.js';
import { DEFAULT_BACKOFF_MS } from '../http/rate-limit.js';
import type { Reading } from '../source.js';
import { aliasOf, batchQuery, BATCH_FACTS, MAX_BATCH, type BatchFacts, type RateLimitFacts } from './graphql-answer.js';
import { GITHUB_GRAPHQL_METHODS, graphqlReading } from './graphql-reading.js';

/** How long a read waits for others to share its query: short against a request's round trip. */
export const GATHER_MS = 5;
/**
 * Points no batch spends: GitHub deducts more after a query that timed out, and the token may
 * serve other reads, so a batch that would leave less than this holds back until the reset.
 */
export const RESERVE_POINTS = 25;
/** A window GitHub says resets later than this is read again on a later pass anyway. */
const MAX_HOLD_MS = 24 * 3600_000;

export interface BatchOptions {
  /** The clock holds are measured by (the HTTP client's). */
  now: () => number;
  gatherMs?: number;
  maxBatch?: number;
  reservePoints?: number;
}

/** How the same repository is read without a batch: REST, as without a token. */
export type RestRead = (ref: ComponentRef, today: string) => Promise<Reading>;

interface Pending {
  ref: ComponentRef;
  today: string;
  resolve(reading: Reading): void;
  reject(error: unknown): void;
}

/** Per read: the batch's reading, or why REST reads it. */
type Outcome = { reading: Reading } | { rest: string };

/** What the batches spent, for the operator and the benchmark. */
export interface BatchUsage {
  queries: number;
  repositories: number;
  points: number;
  fallbacks: number;
  last_rate_limit: RateLimitFacts | null;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export class GithubBatches {
  private queue: Pending[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private heldUntil = 0;
  private heldBy: Record<string, EvidenceValue> = {};
  private readonly url: string;
  private readonly max: number;
  readonly usage: BatchUsage = { queries: 0, repositories: 0, points: 0, fallbacks: 0, last_rate_limit: null };

  constructor(
    private readonly client: HttpClient,
    base: string,
    private readonly rest: RestRead,
    private readonly options: BatchOptions,
  ) {
    this.url = `${base}/graphql`;
    this.max = Math.min(MAX_BATCH, Math.max(1, options.maxBatch ?? MAX_BATCH));
  }

  read(ref: ComponentRef, today: string): Promise<Reading> {
    const held = this.held();
    if (held) return Promise.resolve(held);
    return new Promise<Reading>((resolve, reject) => {
      this.queue.push({ ref, today, resolve, reject });
      if (this.queue.length >= this.max) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.options.gatherMs ?? GATHER_MS);
    });
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.queue.length > 0) void this.run(this.queue.splice(0, this.max));
  }

  private async run(batch: Pending[]): Promise<void> {
    let outcomes: Outcome[];
    try {
      outcomes = await this.ask(batch);
    } catch (error) {
      // A fault of ours (never an upstream's: the client does not throw for those) still leaves REST.
      outcomes = batch.map(() => ({ rest: `the batch could not be read: ${String(error).slice(0, 200)}` }));
    }
    await Promise.all(
      batch.map(async (p, i) => {
        const outcome = outcomes[i] ?? { rest: 'the batch said nothing of it' };
        try {
          p.resolve('reading' in outcome ? outcome.reading : await this.fallback(p, outcome.rest));
        } catch (error) {
          p.reject(error);
        }
      }),
    );
  }

  private async fallback(p: Pending, why: string): Promise<Reading> {
    this.usage.fallbacks++;
    const reading = await this.rest(p.ref, p.today);
    return { ...reading, evidence: { ...reading.evidence, graphql_fallback: why } };
  }

  /** One query for the batch, and what it settles of each read. */
  private async ask(batch: Pending[]): Promise<Outcome[]> {
    const before = this.held();
    if (before) return batch.map(() => ({ reading: before }));
    const names = [...new Set(batch.map((p) => p.ref.id))];
    const { query, variables } = batchQuery(names);
    const answer = await this.client.get(this.url, {
      accept: 'application/json',
      facts: BATCH_FACTS,
      post: { contentType: 'application/json', body: JSON.stringify({ query, variables }) },
    });
    const whole = this.wholeBatch(answer);
    if (whole) return batch.map(() => whole);
    const facts = (answer as Extract<Answer<BatchFacts>, { kind: 'facts' }>).facts;
    this.usage.queries++;
    this.usage.repositories += names.length;
    // A query refused for a limit says no cost, and spent nothing.
    this.usage.points += facts.rate_limit?.cost ?? 0;
    const refused = facts.errors[0];
    const limited = facts.errors.find((e) => e.type === 'RATE_LIMITED' || /rate limit/i.test(e.message));
    const rate = facts.rate_limit;
    if (limited)
      // The primary limit says when its window resets; a secondary one, with no headers, asks for a minute.
      this.hold(this.untilReset(rate?.remaining === 0 ? rate : null), {
        graphql_error: `${limited.type ?? 'ERROR'}: ${limited.message}`,
        ...(rate ? { graphql_remaining: rate.remaining, graphql_reset_at: rate.reset_at } : {}),
      });
    else this.spend(rate);
    return batch.map((p): Outcome => {
      const found = facts.repositories[aliasOf(names.indexOf(p.ref.id))];
      if (!found) {
        const held = limited ? this.held() : null;
        if (held) return { reading: held };
        return {
          rest: refused ? `the query was refused: ${refused.type ?? 'ERROR'}: ${refused.message}` : 'no answer for it',
        };
      }
      if ('unresolved' in found) return { rest: found.unresolved };
      const reading = graphqlReading(p.ref, found.repo, p.today, this.url);
      return 'unresolved' in reading ? { rest: reading.unresolved } : { reading };
    });
  }

  /** What a failed batch means for every read in it: a hold for a rate limit, else REST. Null for an answer. */
  private wholeBatch(answer: Answer<BatchFacts>): Outcome | null {
    if (answer.kind === 'facts') return null;
    if (answer.kind === 'status')
      return { rest: `the batch was answered HTTP ${answer.status}: ${JSON.stringify(answer.text.slice(0, 200))}` };
    if (answer.reason === 'rate_limited') {
      const e = answer.evidence;
      // A hold the client already kept (nothing was sent), or the 403/429 this batch met.
      const until =
        typeof e['rate_limited_until'] === 'string'
          ? Date.parse(e['rate_limited_until'])
          : this.options.now() +
            (typeof e['rate_limited_for_seconds'] === 'number'
              ? e['rate_limited_for_seconds'] * 1000
              : DEFAULT_BACKOFF_MS);
      const { rate_limited: _why, rate_limited_until: _until, ...met } = e;
      const by = e['rate_limited_by'];
      this.hold(until, typeof by === 'object' && by !== null && !Array.isArray(by) ? by : met);
      const held = this.held();
      if (held) return { reading: held };
    }
    const status =
      typeof answer.evidence['http_status'] === 'number' ? ` (HTTP ${answer.evidence['http_status']})` : '';
    return { rest: `the batch failed: ${answer.reason}${status}` };
  }

  /** Reads what the query cost and what is left; holds back when the next batch could not be paid. */
  private spend(rate: RateLimitFacts | null): void {
    if (!rate) return;
    this.usage.last_rate_limit = rate;
    if (rate.remaining === null) return;
    const next = Math.max(1, rate.cost ?? 1);
    const reserve = this.options.reservePoints ?? RESERVE_POINTS;
    if (rate.remaining >= next + reserve) return;
    this.hold(this.untilReset(rate), {
      graphql_remaining: rate.remaining,
      graphql_cost: rate.cost,
      graphql_reset_at: rate.reset_at,
      rate_limit_rule: `rateLimit.remaining below the next batch's cost and a reserve of ${reserve} points`,
    });
  }

  /** When the points window resets, on our clock; a minute from now when the answer did not say. */
  private untilReset(rate: RateLimitFacts | null): number {
    const now = this.options.now();
    if (rate?.reset_in_seconds != null) return now + rate.reset_in_seconds * 1000;
    const at = Date.parse(rate?.reset_at ?? '');
    return Number.isNaN(at) ? now + DEFAULT_BACKOFF_MS : at;
  }

  private hold(untilMs: number, why: Record<string, EvidenceValue>): void {
    const now = this.options.now();
    const until = Math.min(Math.max(untilMs, now), now + MAX_HOLD_MS);
    if (until > this.heldUntil) {
      this.heldUntil = until;
      this.heldBy = why;
    }
  }

  /** While a hold runs: the reading of a read not sent (heldBackUntil knows it), else null. */
  private held(): Reading | null {
    if (this.options.now() >= this.heldUntil) return null;
    return {
      signals: { unreachable: 'rate_limited' },
      source: this.url,
      evidence: {
        rate_limited: `${NOT_SENT} GitHub's GraphQL rate limit holds every batch back`,
        rate_limited_until: iso(this.heldUntil),
        rate_limited_by: this.heldBy,
        unreachable: 'rate_limited',
      },
      method: GITHUB_GRAPHQL_METHODS.held,
    };
  }
}
