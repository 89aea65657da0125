import { describe, expect, it } from 'vitest';
import { classifyRepoResponse } from '../github/classify-response.js';
import { DEFAULT_BACKOFF_MS, rateLimitOf, retryAfterMs, spentUntil } from './rate-limit.js';
import type { StatusAnswer } from '../reading.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const headers = (h: Record<string, string>) => new Headers({ date: new Date(NOW).toUTCString(), ...h });

/** The five variants of research §1.4, in order; the first three are the client's, the last two the reader's. */
describe('the 403/429 classifier', () => {
  it('1. retry-after → rate limited for that long', () => {
    expect(rateLimitOf(403, headers({ 'retry-after': '60' }), {}, '', NOW)).toMatchObject({
      waitMs: 60_000,
      evidence: { rate_limit_rule: 'retry-after', retry_after: 60 },
    });
  });

  it('2. x-ratelimit-remaining 0 → rate limited until reset', () => {
    const reset = NOW / 1000 + 1234;
    expect(
      rateLimitOf(403, headers({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) }), {}, '', NOW),
    ).toMatchObject({
      waitMs: 1_234_000,
      evidence: { rate_limit_rule: 'x-ratelimit-remaining', ratelimit_remaining: 0, ratelimit_reset: reset },
    });
  });

  it('3. a message matching /rate limit/i → rate limited (at least 60 s)', () => {
    expect(
      rateLimitOf(403, headers({}), { message: 'You have exceeded a secondary rate limit.' }, '', NOW),
    ).toMatchObject({ waitMs: DEFAULT_BACKOFF_MS, evidence: { rate_limit_rule: 'message' } });
  });

  const answer = (status: number, body: unknown): StatusAnswer => ({
    kind: 'status',
    url: 'u',
    status,
    body,
    text: JSON.stringify(body),
    headers: new Headers(),
    redirects: [],
  });

  it('4. a block body → blocked: deleted', () => {
    const body = {
      message: 'Repository access blocked',
      block: { reason: 'tos', created_at: '2021-04-22T17:53:56Z', html_url: 'https://github.com/tos' },
    };
    expect(rateLimitOf(403, headers({}), body, '', NOW)).toBeNull();
    expect(classifyRepoResponse(answer(403, body))).toEqual({
      signals: { notFound: true },
      evidence: {
        http_status: 403,
        message: 'Repository access blocked',
        block_reason: 'tos',
        block_created_at: '2021-04-22T17:53:56Z',
        block_url: 'https://github.com/tos',
      },
    });
  });

  it('5. anything else → a permission problem: not_observed, never a death', () => {
    const body = { message: 'Due to U.S. trade controls law restrictions, this account has been restricted.' };
    expect(rateLimitOf(403, headers({}), body, '', NOW)).toBeNull();
    expect(classifyRepoResponse(answer(403, body)).signals).toEqual({ unreachable: 'unauthorized' });
  });

  it('every 429 is a rate limit, even without headers', () => {
    expect(rateLimitOf(429, headers({}), undefined, '', NOW)).toMatchObject({ waitMs: DEFAULT_BACKOFF_MS });
  });

  it('other statuses are not rate limits', () => {
    expect(rateLimitOf(404, headers({ 'retry-after': '5' }), {}, '', NOW)).toBeNull();
    expect(rateLimitOf(500, headers({ 'x-ratelimit-remaining': '0' }), {}, '', NOW)).toBeNull();
  });

  it('a remaining count that is not spent does not make a 403 a rate limit', () => {
    expect(
      rateLimitOf(403, headers({ 'x-ratelimit-remaining': '4999' }), { message: 'Forbidden' }, '', NOW),
    ).toBeNull();
  });
});

describe('retryAfterMs', () => {
  it.each([
    ['120', 120_000],
    ['0', 0],
    ['Sun, 01 Mar 2026 12:01:00 GMT', 60_000],
    ['Sun, 01 Mar 2026 11:00:00 GMT', 0],
    ['soon', null],
    ['99999999', 24 * 3600_000],
  ])('%s → %s', (value, ms) => {
    expect(retryAfterMs(headers({ 'retry-after': value }), NOW)).toBe(ms);
  });
});

describe('spentUntil', () => {
  it('holds back after an answer that spent the window', () => {
    expect(
      spentUntil(headers({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 60) }), NOW),
    ).toMatchObject({ waitMs: 60_000 });
    expect(
      spentUntil(headers({ 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': String(NOW / 1000 + 60) }), NOW),
    ).toBeNull();
    expect(spentUntil(headers({ 'x-ratelimit-remaining': '0' }), NOW)).toBeNull();
  });
});
