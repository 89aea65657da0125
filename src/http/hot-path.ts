import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { datedRead, type DatedRead } from '../domain/as-of.js';
import { ValidationError } from '../domain/errors.js';
import { rateLimitValue, type Take } from '../limits/bucket.js';
import type { RateLimiter } from '../limits/limiter.js';
import { LICENSE_LINK } from './app.js';
import { addressOf } from './client-address.js';
import { EXPOSE_HEADERS } from './cors.js';
import { noneMatch } from './http-caching.js';
import { policyHeaderOf, SPENT } from './rate-limit.js';
import type { RequestMetrics } from './request-metrics.js';

/** A Node request listener: the framework's, which the hot path hands every request it does not answer. */
export type Listener = (req: IncomingMessage, res: ServerResponse) => unknown;

/** The one query a dated read takes; any other query is the framework's to read (and to explain). */
const AS_OF_QUERY = /^as_of=\d{4}-\d{2}-\d{2}$/;

/**
 * The read's date from its query, read at `now` by the one as_of parser: no query or `as_of=` a date
 * alone. Undefined for any other query and for a date the parser refuses (not a date, or after
 * today): the framework reads those (and explains).
 */
export function datedQuery(query: string, now: Date): DatedRead | undefined {
  if (query !== '' && !AS_OF_QUERY.test(query)) return undefined;
  try {
    return datedRead(query === '' ? undefined : query.slice('as_of='.length), now);
  } catch (error) {
    if (error instanceof ValidationError) return undefined;
    throw error;
  }
}

/**
 * A Host the framework's adapter takes as it is (the fast test of @hono/node-server's buildUrl).
 * Any other — missing, upper case, a port it checks further, one it refuses with 400 — goes to the
 * framework, which decides.
 */
const PLAIN_HOST = /^[\d._a-z-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;

/** An answer the framework would send, as bytes with the headers only it carries. */
export interface HotAnswer {
  body: Uint8Array;
  contentType: string;
  etag: string;
  /**
   * Name, value, name, value…: the answer's own headers (Cache-Control, Last-Modified, a CSP),
   * sent on its 304 as on its 200, as the framework's answers carry them on both.
   */
  headers: string[];
  /**
   * Name, value, name, value…: headers the framework sends with the body only. It adds the HTML
   * security headers to an answer whose Content-Type is HTML, and its 304 carries no Content-Type.
   */
  bodyHeaders?: string[];
  /**
   * Whether the answer is licensed data, which carries the licence Link (app.ts sets it on the data
   * paths); a human page does not.
   */
  licensed: boolean;
  /** The framework's pattern for the route this answer stands in for: one metrics label for both. */
  route: string;
}

/** The read a provider makes once the request's token is spent; undefined hands the request over. */
export type HotRead = () => Promise<HotAnswer | undefined>;

/**
 * One kind of answer the hot path serves (hot-entity.ts, hot-badge.ts, hot-log-head.ts,
 * hot-page.ts). `match` reads the path after `prefix` and the query, with no I/O, and returns the
 * read to make, or undefined for anything it does not answer exactly as the framework would: that
 * request goes to the framework untouched, which spends its token. `encrypted` says whether the
 * request came over TLS, which the framework's request URL (and so its origin) is built from.
 */
export interface HotProvider {
  readonly prefix: string;
  match(path: string, query: string, headers: IncomingHttpHeaders, encrypted: boolean): HotRead | undefined;
}

/**
 * High-volume reads whose answer is cheap to hold, written from node:http before the framework:
 * cached bytes and a flat header list, with no Request/Response translation and no fetch Headers
 * (which cost as much as the read itself). The answer is the one the framework would send, header
 * for header: the providers give the bytes and their own headers; what every answer carries is
 * here, once: rate limit (same buckets, same spend), CORS, licence link, ETag/304, nosniff.
 * Anything else — a miss, an error to explain, an API key, a refusal, a request with a body, an
 * encoded path, another query — goes to the framework, carrying the token already spent for it.
 */
export function hotReads(options: {
  limiter: RateLimiter;
  providers: readonly HotProvider[];
  /** Told of every answer written here, as the framework's edge tells of its own. */
  requests?: RequestMetrics;
}): (framework: Listener) => Listener {
  const { limiter, providers, requests } = options;
  const policyHeader = policyHeaderOf(limiter);
  const trustProxy = limiter.trustProxy;

  const write = (req: IncomingMessage, res: ServerResponse, answer: HotAnswer, take: Take, started: number) => {
    const headers = [
      'access-control-allow-origin',
      '*',
      'access-control-expose-headers',
      EXPOSE_HEADERS,
      'ratelimit-policy',
      policyHeader(take.policy),
      'ratelimit',
      rateLimitValue(take),
      'etag',
      answer.etag,
      'x-content-type-options',
      'nosniff',
    ];
    // Data carries its licence (app.ts); a page does not.
    if (answer.licensed) headers.push('link', LICENSE_LINK);
    for (const value of answer.headers) headers.push(value);
    if (noneMatch(req.headers['if-none-match'], answer.etag)) {
      res.writeHead(304, headers);
      res.end();
      requests?.answered(answer.route, 'GET', 304, (performance.now() - started) / 1000);
      return;
    }
    headers.push('content-type', answer.contentType, 'content-length', String(answer.body.byteLength));
    if (answer.bodyHeaders) for (const value of answer.bodyHeaders) headers.push(value);
    res.writeHead(200, headers);
    res.end(answer.body);
    requests?.answered(answer.route, 'GET', 200, (performance.now() - started) / 1000);
  };

  return (framework) => (req, res) => {
    const url = req.url;
    if (req.method !== 'GET' || url === undefined) return framework(req, res);
    let provider: HotProvider | undefined;
    for (const p of providers) {
      if (url.startsWith(p.prefix)) {
        provider = p;
        break;
      }
    }
    if (provider === undefined) return framework(req, res);
    const h = req.headers;
    if (
      h.host === undefined ||
      !PLAIN_HOST.test(h.host) ||
      h['x-api-key'] !== undefined ||
      h['transfer-encoding'] !== undefined ||
      (h['content-length'] !== undefined && h['content-length'] !== '0')
    )
      return framework(req, res);
    const q = url.indexOf('?');
    const start = provider.prefix.length;
    const read = provider.match(
      q === -1 ? url.slice(start) : url.slice(start, q),
      q === -1 ? '' : url.slice(q + 1),
      h,
      (req.socket as { encrypted?: boolean }).encrypted === true,
    );
    if (read === undefined) return framework(req, res);
    // Measured from here, as the framework's edge measures from its first step.
    const started = requests ? performance.now() : 0;

    const client = addressOf(req.socket.remoteAddress, trustProxy, () => {
      const forwarded = h['x-forwarded-for'];
      return Array.isArray(forwarded) ? forwarded.join(', ') : forwarded;
    });
    const handOver = (take: Take) => {
      (req as unknown as Record<symbol, Take>)[SPENT] = take;
      return framework(req, res);
    };
    const answer = (take: Take) => {
      if (!take.allowed) return handOver(take);
      return read().then(
        (found) => (found ? write(req, res, found, take, started) : handOver(take)),
        // The framework meets the same fault, logs it and answers it (a 503 for a store away).
        () => handOver(take),
      );
    };
    const taken = limiter.take(`ip:${client}`, limiter.free);
    return taken instanceof Promise ? taken.then(answer, () => framework(req, res)) : answer(taken);
  };
}

/**
 * A path the framework reads as written: no percent-encoding, dot segment, empty segment or
 * character the URL parser would rewrite (@hono/node-server re-parses such paths). An id may hold
 * "/", ".", ":" and "@" (library/node:22, @scope/name), so the check is by character, not by shape.
 */
export function plainPath(path: string): boolean {
  if (path.includes('//') || path.includes('/.') || path.startsWith('.')) return false;
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    const plain =
      (c >= 0x61 && c <= 0x7a) || // a-z
      (c >= 0x40 && c <= 0x5a) || // @ A-Z
      (c >= 0x2d && c <= 0x3a) || // - . / 0-9 :
      c === 0x5f || // _
      c === 0x7e || // ~
      c === 0x2b; // +
    if (!plain) return false;
  }
  return true;
}
