import type { Context, MiddlewareHandler } from 'hono';
import { utcDateOf } from '../domain/calendar.js';
import { OBSERVER_PASS_MS } from '../observer/schedule.js';
import { weakTag } from '../operations/answer-cache.js';

/**
 * HTTP caching of the GET data answers (entity, org, facts, the log's head and proofs, the change
 * feed): an ETag with If-None-Match → 304, and a Cache-Control that lets a shared cache (a CDN in
 * front) answer most reads. The one rule for how long: an answer may be kept until the next
 * observation could change it.
 * - An as_of before today reads a date that is over, so the observer adds nothing to it; but a
 *   dispute's correction speaks for the date of the reading it corrects (domain/as-of.ts), so the
 *   answer is settled, not immutable: kept a day and revalidated by its tag.
 * - A proof between two named tree sizes is fixed by the log's append-only rule: immutable.
 * - A current answer (no as_of, or today) can change at the observer's next pass, which runs every
 *   OBSERVER_PASS_MS inside `serve`, and without as_of also at the next UTC midnight (staleness
 *   moves with the calendar); it is kept no longer than the sooner of the two.
 * - An error answer is never stored: the same request may succeed a moment later (a 429, a 503),
 *   and a 422 for an as_of after today becomes a good request tomorrow.
 */
export const IMMUTABLE_ANSWER = 'public, max-age=31536000, immutable';
export const SETTLED_ANSWER = 'public, max-age=86400';
export const ERROR_ANSWER = 'no-store';

/** Cache-Control for a data answer read at `now`, for the as_of the request named (if any). */
export function answerCacheControl(asOf: string | undefined, now: Date): string {
  if (asOf !== undefined && asOf < utcDateOf(now)) return SETTLED_ANSWER;
  return currentAnswerCacheControl(now);
}

/** Cache-Control for an answer about the record as it stands now. */
export function currentAnswerCacheControl(now: Date): string {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  const untilMidnight = Math.ceil((midnight - now.getTime()) / 1000);
  return `public, max-age=${Math.max(0, Math.min(OBSERVER_PASS_MS / 1000, untilMidnight))}`;
}

/**
 * If-None-Match against the answer's tag (RFC 9110 §13.1.2): `*`, or a list of tags compared
 * weakly (W/ ignored on either side).
 */
export function noneMatch(header: string | undefined | null, etag: string): boolean {
  if (header === undefined || header === null) return false;
  if (header === etag) return true;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const part of header.split(',')) {
    const tag = part.trim();
    if (tag === '*' || tag === opaque || (tag.startsWith('W/') && tag.slice(2) === opaque)) return true;
  }
  return false;
}

/** The paths whose GET answers are data (DESIGN §6); pages, assets and /healthz keep their own rules. */
export function isDataPath(path: string): boolean {
  return (
    path.startsWith('/api/v1/entity/') ||
    path.startsWith('/api/v1/org/') ||
    path.startsWith('/v1/') ||
    path.startsWith('/api/chain/') ||
    path === '/api/v1/changes'
  );
}

/**
 * The middleware on the data paths: it runs after the route, so routes only make answers; those
 * that tag their own bytes (the entity answer from its cache, the log's head by its version) are not
 * hashed again.
 */
export function dataAnswerCaching(now: () => Date): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD') return;
    const res = c.res;
    const headers = res.headers;
    // Error answers get theirs at the edge (app.ts), with every other route's.
    if (res.status !== 200 && res.status !== 304) return;
    if (!headers.has('cache-control')) headers.set('cache-control', cacheControlFor(c, now()));
    if (res.status === 304) return;
    let etag = headers.get('etag');
    if (etag === null) {
      const bytes = new Uint8Array(await res.arrayBuffer());
      etag = weakTag(bytes);
      headers.set('etag', etag);
      c.res = new Response(bytes, { status: 200, headers });
    }
    if (noneMatch(c.req.header('if-none-match'), etag)) c.res = notModified(c.res.headers);
  };
}

/** A 304 carries the validators and cache rules of the 200 it stands for, and no body. */
export function notModified(of: Headers): Response {
  const headers = new Headers(of);
  headers.delete('content-type');
  headers.delete('content-length');
  return new Response(null, { status: 304, headers });
}

function cacheControlFor(c: Context, now: Date): string {
  const path = c.req.path;
  // A proof between two named tree sizes is fixed by the log's append-only rule; without a size it
  // is for the current head, which moves.
  if (path === '/api/chain/proof/inclusion' && c.req.query('size') !== undefined) return IMMUTABLE_ANSWER;
  if (path === '/api/chain/proof/consistency' && c.req.query('to') !== undefined) return IMMUTABLE_ANSWER;
  return answerCacheControl(c.req.query('as_of'), now);
}
