/**
 * Recognising a rate-limit answer and how long it asks us to stay away.
 *
 * The first three steps of the 403/429 classifier (research/upstreams.md §1.4) hold for every
 * upstream: Retry-After, a spent `x-ratelimit-remaining` (or Docker Hub's `X-Retry-After`), or a
 * message that says "rate limit". What a 403 that is none of these means (a block, a permission
 * problem) is upstream-specific and left to the reader.
 */
import type { EvidenceValue } from '../../domain/observation.js';

/** GitHub: "with no headers wait at least 60 s"; used for every limit that names no time. */
export const DEFAULT_BACKOFF_MS = 60_000;
/** An upstream that asks for more than a day is read again on a later day anyway. */
const MAX_BACKOFF_MS = 24 * 3600_000;

export interface RateLimit {
  /** How long, from the moment the answer was read, no request should go to this upstream. */
  waitMs: number;
  /** The headers and message that said so, for the record. */
  evidence: Record<string, EvidenceValue>;
}

/** Reads an integer header; anything else (absent, "1.5", "soon") is null. */
function intHeader(headers: Headers, name: string): number | null {
  const raw = headers.get(name);
  if (raw === null || !/^\s*\d{1,15}\s*$/.test(raw)) return null;
  return Number(raw.trim());
}

/** The upstream's idea of "now": its Date header, so a skewed local clock does not shorten a wait. */
function serverNowMs(headers: Headers, localNowMs: number): number {
  const date = headers.get('date');
  const t = date ? Date.parse(date) : Number.NaN;
  return Number.isNaN(t) ? localNowMs : t;
}

function clampWait(ms: number): number {
  return Math.min(Math.max(0, Math.ceil(ms)), MAX_BACKOFF_MS);
}

/**
 * Retry-After as seconds or as an HTTP date, measured against the answer's own Date header.
 * null when absent or unreadable.
 */
export function retryAfterMs(headers: Headers, localNowMs: number): number | null {
  const raw = headers.get('retry-after')?.trim();
  if (!raw) return null;
  if (/^\d{1,15}$/.test(raw)) return clampWait(Number(raw) * 1000);
  const at = Date.parse(raw);
  if (Number.isNaN(at)) return null;
  return clampWait(at - serverNowMs(headers, localNowMs));
}

function untilUnixMs(headers: Headers, unixSeconds: number, localNowMs: number): number {
  return clampWait(unixSeconds * 1000 - serverNowMs(headers, localNowMs));
}

function messageOf(body: unknown, text: string): string {
  if (typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string') {
    return (body as { message: string }).message;
  }
  return text.slice(0, 300);
}

/**
 * Whether a 403 or 429 answer is a rate limit (steps 1–3, plus: every 429 is one) and until
 * when. Any other status, or a 403 that is not a rate limit, gives null.
 */
export function rateLimitOf(
  status: number,
  headers: Headers,
  body: unknown,
  text: string,
  localNowMs: number,
): RateLimit | null {
  if (status !== 403 && status !== 429) return null;
  const evidence: Record<string, EvidenceValue> = { http_status: status };
  const remaining = intHeader(headers, 'x-ratelimit-remaining');
  const reset = intHeader(headers, 'x-ratelimit-reset');
  const limit = intHeader(headers, 'x-ratelimit-limit');
  const xRetryAfter = intHeader(headers, 'x-retry-after');
  const resource = headers.get('x-ratelimit-resource');
  const retryAfterRaw = headers.get('retry-after');
  if (remaining !== null) evidence['ratelimit_remaining'] = remaining;
  if (reset !== null) evidence['ratelimit_reset'] = reset;
  if (limit !== null) evidence['ratelimit_limit'] = limit;
  if (resource) evidence['ratelimit_resource'] = resource.slice(0, 40);
  if (xRetryAfter !== null) evidence['x_retry_after'] = xRetryAfter;
  if (retryAfterRaw)
    evidence['retry_after'] = /^\s*\d+\s*$/.test(retryAfterRaw)
      ? Number(retryAfterRaw.trim())
      : retryAfterRaw.slice(0, 40);
  const message = messageOf(body, text);
  if (message) evidence['message'] = message.slice(0, 300);

  // 1. Retry-After.
  const retry = retryAfterMs(headers, localNowMs);
  if (retry !== null) return { waitMs: retry, evidence: { ...evidence, rate_limit_rule: 'retry-after' } };
  // 2. A spent primary limit: wait for its reset. Docker Hub says the same with X-Retry-After (unix time).
  if (remaining === 0) {
    const waitMs = reset !== null ? untilUnixMs(headers, reset, localNowMs) : DEFAULT_BACKOFF_MS;
    return { waitMs, evidence: { ...evidence, rate_limit_rule: 'x-ratelimit-remaining' } };
  }
  if (xRetryAfter !== null) {
    return {
      waitMs: untilUnixMs(headers, xRetryAfter, localNowMs),
      evidence: { ...evidence, rate_limit_rule: 'x-retry-after' },
    };
  }
  // 3. The message says so (GitHub's secondary limits often come with no headers at all).
  if (/rate limit/i.test(message))
    return { waitMs: DEFAULT_BACKOFF_MS, evidence: { ...evidence, rate_limit_rule: 'message' } };
  if (status === 429) return { waitMs: DEFAULT_BACKOFF_MS, evidence: { ...evidence, rate_limit_rule: 'status 429' } };
  return null;
}

/**
 * A successful answer that spends the last request of the window (`x-ratelimit-remaining: 0`
 * with a reset): the next request would only earn a 403, so none is sent before the reset.
 */
export function spentUntil(headers: Headers, localNowMs: number): RateLimit | null {
  const remaining = intHeader(headers, 'x-ratelimit-remaining');
  const reset = intHeader(headers, 'x-ratelimit-reset');
  if (remaining !== 0 || reset === null) return null;
  return {
    waitMs: untilUnixMs(headers, reset, localNowMs),
    evidence: { ratelimit_remaining: 0, ratelimit_reset: reset, rate_limit_rule: 'spent by the previous answer' },
  };
}
