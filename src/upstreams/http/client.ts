/**
 * The one HTTP client every reader uses, one instance per upstream.
 *
 * It owns what must be the same everywhere: the User-Agent, time-outs, a cap on bodies and on
 * requests in flight, conditional requests, manual redirects (so a GitHub 301 is seen), and
 * rate limits. It never throws for upstream trouble: every transport failure, unreadable body
 * or rate limit comes back as an `unreachable` answer with a reason the record can keep.
 */
import type { EvidenceValue } from '../../domain/observation.js';
import type { UnreachableReason } from '../../domain/state.js';
import type { BudgetRefusal, UpstreamBudget } from './budget.js';
import { rateLimitOf, retryAfterMs, spentUntil } from './rate-limit.js';
import { PRIORITY_RANK, readPriority } from './read-priority.js';
import { Pace, Slots } from './request-slots.js';
import { transportFailure } from './transport-failure.js';
import {
  OFF_THREAD_ABOVE_BYTES,
  sharedBigBodyReader,
  type BigBodyOutcome,
  type BigBodyReader,
} from './big-body-reader.js';
import { decodeBody, extractFacts } from './facts-of-body.js';
import { contentType, messageOf, parseJson } from './response-body.js';
import { byteLengthOf, readCappedChunks } from '../../domain/capped-stream.js';
import type { ConditionalCache, UpstreamOutcome, UpstreamWatcher } from './ports.js';
import { NOT_SENT, type Answer, type Redirect, type RequestSpec } from './answer.js';

export interface HttpClientOptions {
  /** The upstream's name, for evidence. */
  upstream: string;
  /** The configured base URL: a bearer token is only ever sent to its origin. */
  base: string;
  userAgent: string;
  timeoutMs: number;
  concurrency: number;
  cache: ConditionalCache;
  bearerToken?: string | null;
  maxBodyBytes: number;
  /** Local clock for rate-limit waits (tests move it). */
  now?: () => number;
  /**
   * At least this long between the starts of two requests, for an upstream that asks readers to
   * keep to a rate (crates.io's API: one request a second). Measured on the real clock.
   */
  minIntervalMs?: number;
  /** Told of every answer and every hold, for the operator's metrics; nothing else reads it. */
  watcher?: UpstreamWatcher;
  /**
   * The host's request budget (budget.ts), shared with every other client of the host: each
   * request, redirects included, waits for its turn, at the priority of the read it is made for.
   */
  budget?: UpstreamBudget;
  /** 200 bodies above this many bytes are read off the main thread (default OFF_THREAD_ABOVE_BYTES). */
  offThreadAboveBytes?: number;
  /** The threads that read them (default: the process's one reader, shared by every client). */
  bigBodies?: BigBodyReader;
}

const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A usable cache entry: validators to send, and the facts a 304 re-confirms. */
interface CachedFacts {
  etag: string | null;
  last_modified: string | null;
  facts: EvidenceValue;
}

/** Reads a big 200 body, given as the chunks it arrived in, on another thread. */
type BigBodyRead = (chunks: Uint8Array[], headers: Headers) => Promise<BigBodyOutcome>;

type Exchange =
  | {
      ok: true;
      status: number;
      headers: Headers;
      text: string;
      bytes: Uint8Array;
      /** A big 200 as read on another thread (then text and bytes are empty). */
      big?: BigBodyOutcome;
    }
  | { ok: false; reason: UnreachableReason; evidence: Record<string, EvidenceValue> };

export class HttpClient {
  private readonly slots: Slots;
  private readonly now: () => number;
  private readonly baseOrigin: string;
  /** Set when the upstream said "rate limited until T": no request goes out before T. */
  private blockedUntil = 0;
  private blockedBy: Record<string, EvidenceValue> = {};
  private readonly pace: Pace;
  private readonly offThreadAbove: number;
  private readonly bigBodies: BigBodyReader;

  constructor(private readonly options: HttpClientOptions) {
    this.offThreadAbove = options.offThreadAboveBytes ?? OFF_THREAD_ABOVE_BYTES;
    this.bigBodies = options.bigBodies ?? sharedBigBodyReader();
    this.slots = new Slots(Math.max(1, Math.floor(options.concurrency)));
    this.pace = new Pace(options.minIntervalMs ?? 0);
    this.now = options.now ?? Date.now;
    this.baseOrigin = new URL(options.base).origin;
  }

  /** GETs a JSON resource, following redirects by hand and re-validating cached facts. */
  async get<F extends EvidenceValue>(url: string, spec: RequestSpec<F>): Promise<Answer<F>> {
    const answer = await this.follow<F>(url, spec);
    this.options.watcher?.answer(this.options.upstream, outcomeOf(answer));
    return answer;
  }

  private async follow<F extends EvidenceValue>(url: string, spec: RequestSpec<F>): Promise<Answer<F>> {
    const redirects: Redirect[] = [];
    let current = url;
    for (;;) {
      const cached = spec.post || spec.uncached ? null : await this.cached(current, spec.facts.version);
      const readBig: BigBodyRead = (chunks, headers) =>
        this.bigBodies.read(spec.facts, spec.body ?? 'json', chunks, headers);
      const x = await this.exchange(current, this.headersFor(current, spec, cached), spec.post, readBig);
      if (!x.ok) return { kind: 'unreachable', url: current, reason: x.reason, evidence: x.evidence, redirects };
      if (REDIRECTS.has(x.status)) {
        const location = x.headers.get('location');
        const next = location ? safeUrl(location, current) : null;
        if (!next || redirects.length >= MAX_REDIRECTS) {
          const why = next ? `more than ${MAX_REDIRECTS} redirects` : `a ${x.status} without a usable Location`;
          return this.unreachable(current, 'unparsable', { http_status: x.status, error: why }, redirects);
        }
        redirects.push({ status: x.status, from: current, to: next });
        current = next;
        continue;
      }
      return this.interpret<F>(current, x, spec, cached, redirects);
    }
  }

  private async interpret<F extends EvidenceValue>(
    url: string,
    x: Extract<Exchange, { ok: true }>,
    spec: RequestSpec<F>,
    cached: CachedFacts | null,
    redirects: Redirect[],
  ): Promise<Answer<F>> {
    // Even a good answer (a 304 too) can say it spent the window; the next request would be refused.
    const spent = spentUntil(x.headers, this.now());
    if (spent) this.block(spent.waitMs, { ...spent.evidence, url });
    if (x.status === 304) {
      if (cached) return { kind: 'facts', url, status: 304, facts: cached.facts as F, redirects };
      return this.unreachable(
        url,
        'unparsable',
        { http_status: 304, error: 'a 304 to a request that sent no validators' },
        redirects,
      );
    }
    // A big 200 was decoded, parsed and read on another thread: the event loop never held it whole.
    if (x.big) return this.settle(url, x.headers, spec, x.big, redirects);
    const asText = spec.body === 'text' || spec.body === 'bytes';
    // A text 200 (XML, go.mod, an index file) goes to its extractor as it is; error bodies may still be JSON.
    const body = asText && x.status === 200 ? undefined : parseJson(x.text);
    const limit = rateLimitOf(x.status, x.headers, body, x.text, this.now());
    if (limit) {
      this.block(limit.waitMs, { ...limit.evidence, url });
      return this.unreachable(
        url,
        'rate_limited',
        { ...limit.evidence, rate_limited_for_seconds: Math.ceil(limit.waitMs / 1000) },
        redirects,
      );
    }
    if (x.status >= 500) {
      // A 503 that says when to come back is honoured like a rate limit, without calling it one.
      const wait = retryAfterMs(x.headers, this.now());
      if (wait !== null)
        this.block(wait, { http_status: x.status, url, retry_after: x.headers.get('retry-after') ?? '' });
      return this.unreachable(url, 'server_error', { http_status: x.status }, redirects);
    }
    if (x.status === 401)
      return this.unreachable(url, 'unauthorized', { http_status: 401, message: messageOf(body, x.text) }, redirects);
    if (x.status !== 200)
      return { kind: 'status', url, status: x.status, body, text: x.text, headers: x.headers, redirects };
    if (!asText && body === undefined) return this.settle(url, x.headers, spec, { notJson: true }, redirects);
    const facts = extractFacts(spec.facts, spec.body === 'bytes' ? x.bytes : asText ? x.text : body, x.headers);
    return this.settle(url, x.headers, spec, typeof facts === 'string' ? { error: facts } : { facts }, redirects);
  }

  /** A 200 read on either thread, as the answer: the same evidence wherever it was read. */
  private async settle<F extends EvidenceValue>(
    url: string,
    headers: Headers,
    spec: RequestSpec<F>,
    outcome: BigBodyOutcome,
    redirects: Redirect[],
  ): Promise<Answer<F>> {
    if ('notJson' in outcome) {
      const evidence = { http_status: 200, error: 'the body is not JSON', content_type: contentType(headers) };
      return this.unreachable(url, 'unparsable', evidence, redirects);
    }
    // A reading thread that failed (out of memory, stopped) read nothing: the body could not be read.
    const error =
      'failed' in outcome ? `the body could not be read: ${outcome.failed}` : 'error' in outcome ? outcome.error : null;
    if (error !== null)
      return this.unreachable(url, 'unparsable', { http_status: 200, error: error.slice(0, 300) }, redirects);
    const facts = (outcome as { facts: EvidenceValue }).facts as F;
    if (!spec.post && !spec.uncached) await this.remember(url, headers, spec.facts.version, facts);
    return { kind: 'facts', url, status: 200, facts, redirects };
  }

  private headersFor<F extends EvidenceValue>(
    url: string,
    spec: RequestSpec<F>,
    cached: CachedFacts | null,
  ): Record<string, string> {
    const headers: Record<string, string> = {
      'user-agent': this.options.userAgent,
      accept: spec.accept,
      ...spec.headers,
    };
    // Only to the configured origin: a redirect to another host must never carry the token.
    if (this.options.bearerToken && new URL(url).origin === this.baseOrigin)
      headers['authorization'] = `Bearer ${this.options.bearerToken}`;
    if (cached?.etag) headers['if-none-match'] = cached.etag;
    else if (cached?.last_modified) headers['if-modified-since'] = cached.last_modified;
    return headers;
  }

  /** The cache entry for `url` when it holds facts in this format and a validator to send. */
  private async cached(url: string, format: string): Promise<CachedFacts | null> {
    let entry;
    try {
      entry = await this.options.cache.get(url);
    } catch {
      // The cache only saves requests; when it cannot be read, ask for the full answer.
      return null;
    }
    if (!entry || (!entry.etag && !entry.last_modified)) return null;
    const f = entry.facts;
    if (typeof f !== 'object' || f === null || Array.isArray(f) || f['format'] !== format || !('facts' in f))
      return null;
    return { etag: entry.etag, last_modified: entry.last_modified, facts: f['facts'] ?? null };
  }

  private async remember(url: string, headers: Headers, format: string, facts: EvidenceValue): Promise<void> {
    const etag = headers.get('etag');
    const lastModified = headers.get('last-modified');
    // Without a validator there is nothing to re-confirm, so nothing is worth keeping.
    if (!etag && !lastModified) return;
    try {
      await this.options.cache.set(url, { etag, last_modified: lastModified, facts: { format, facts } });
    } catch {
      // Losing validators costs one full answer next time, not a reading.
    }
  }

  private block(waitMs: number, why: Record<string, EvidenceValue>): void {
    const until = this.now() + waitMs;
    if (until > this.blockedUntil) {
      this.blockedUntil = until;
      this.blockedBy = why;
      this.options.watcher?.hold(this.options.upstream, until);
    }
  }

  /** Non-null while the upstream's last rate limit runs: the request is not sent. */
  private deferred(): Exchange | null {
    if (this.now() >= this.blockedUntil) return null;
    return {
      ok: false,
      reason: 'rate_limited',
      evidence: {
        rate_limited: `${NOT_SENT} ${this.options.upstream} asked us to wait`,
        rate_limited_until: new Date(this.blockedUntil).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        rate_limited_by: this.blockedBy,
      },
    };
  }

  private async exchange(
    url: string,
    headers: Record<string, string>,
    post?: { contentType: string; body: string },
    readBig?: BigBodyRead,
  ): Promise<Exchange> {
    // Checked before queueing and again after, since a limit may be read while this one waits.
    const early = this.deferred();
    if (early) return early;
    const priority = readPriority();
    await this.slots.acquire(PRIORITY_RANK[priority]);
    try {
      const late = this.deferred();
      if (late) return late;
      await this.pace.turn();
      const turn = this.options.budget ? await this.options.budget.take(priority, this.now()) : null;
      if (turn && !turn.granted) return budgetSpent(turn.refusal);
      // A turn can be long in coming; the upstream may have asked every reader to wait meanwhile.
      const held = this.deferred();
      if (held) {
        turn?.unused();
        return held;
      }
      const signal = AbortSignal.timeout(this.options.timeoutMs);
      let res: Response;
      try {
        // Nothing is awaited between the turn and the send: the budget spaces the next from here.
        turn?.sent();
        res = await fetch(url, {
          method: post ? 'POST' : 'GET',
          headers: post ? { ...headers, 'content-type': post.contentType } : headers,
          ...(post ? { body: post.body } : {}),
          redirect: 'manual',
          signal,
        });
      } catch (error) {
        return transportFailure(error, this.options.timeoutMs);
      }
      if (REDIRECTS.has(res.status) || res.status === 304) {
        await res.body?.cancel().catch(() => undefined);
        return { ok: true, status: res.status, headers: res.headers, text: '', bytes: new Uint8Array(0) };
      }
      try {
        const chunks = await readCappedChunks(res.body, res.headers.get('content-length'), this.options.maxBodyBytes);
        if (chunks === null) {
          return {
            ok: false,
            reason: 'unparsable',
            evidence: { http_status: res.status, error: `the body is larger than ${this.options.maxBodyBytes} bytes` },
          };
        }
        const size = byteLengthOf(chunks);
        // A big 200 is joined, decoded and read on another thread, within this request's slot: the
        // client's concurrency bounds the big bodies waiting for that thread, as it bounds downloads.
        if (res.status === 200 && size > this.offThreadAbove && readBig) {
          const big = await readBig(chunks, res.headers);
          return { ok: true, status: 200, headers: res.headers, text: '', bytes: new Uint8Array(0), big };
        }
        const bytes = Buffer.concat(chunks, size);
        return { ok: true, status: res.status, headers: res.headers, text: decodeBody(bytes), bytes };
      } catch (error) {
        return transportFailure(error, this.options.timeoutMs, res.status);
      }
    } finally {
      this.slots.release();
    }
  }

  private unreachable(
    url: string,
    reason: UnreachableReason,
    evidence: Record<string, EvidenceValue>,
    redirects: Redirect[],
  ): Answer<never> {
    return { kind: 'unreachable', url, reason, evidence, redirects };
  }
}

/**
 * A request Tended's own day's budget had no room for: not sent, like one an upstream's hold
 * keeps back, so heldBackUntil defers the read to the next UTC day rather than record it.
 */
function budgetSpent(r: BudgetRefusal): Exchange {
  return {
    ok: false,
    reason: 'rate_limited',
    evidence: {
      rate_limited: `${NOT_SENT} Tended's own ${r.upstream} budget for ${r.day} is spent`,
      rate_limited_until: r.until,
      rate_limited_by: { budget: r.upstream, priority: r.priority, per_day: r.perDay, stops_at: r.ceiling },
    },
  };
}

function outcomeOf(answer: Answer<unknown>): UpstreamOutcome {
  if (answer.kind === 'facts') return answer.status === 304 ? 'not_modified' : 'ok';
  if (answer.kind === 'status') return answer.status === 404 || answer.status === 410 ? 'not_found' : 'other_status';
  // deferred() marks a request its hold kept from being sent.
  return answer.reason === 'rate_limited' && 'rate_limited_by' in answer.evidence ? 'held' : answer.reason;
}

function safeUrl(location: string, base: string): string | null {
  try {
    const u = new URL(location, base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}
