import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Take } from '../limits/bucket.js';
import type { RateLimiter } from '../limits/limiter.js';
import type { AnswerCache } from '../operations/answer-cache.js';
import type { DiscoveryDeps } from '../operations/discovery.js';
import { heldEntityJson, type EntityJson } from '../operations/read-entity.js';
import { LICENSE_LINK } from './app.js';
import { addressOf } from './client-address.js';
import { EXPOSE_HEADERS } from './cors.js';
import { answerCacheControl, noneMatch } from './http-caching.js';
import { policyHeaderOf, rateLimitValue, SPENT } from './rate-limit.js';

/** A Node request listener: the framework's, which the hot path hands every request it does not answer. */
export type Listener = (req: IncomingMessage, res: ServerResponse) => unknown;

const ENTITY_PREFIX = '/api/v1/entity/';
const AS_OF_QUERY = /^as_of=\d{4}-\d{2}-\d{2}$/;

/**
 * Entity reads whose answer is already in the answer cache, written from node:http before the
 * framework: the cached bytes and a flat header list, with no Request/Response translation and
 * no fetch Headers (which cost as much as the read itself). The answer is the one the framework
 * would send, header for header: rate limit (same buckets, same spend), CORS, licence link,
 * ETag/304, Cache-Control, nosniff. Anything else — a miss, an error to explain, an API key, a
 * refusal, a request with a body, an encoded path, another query — goes to the framework, carrying
 * the token already spent for it.
 */
export function hotEntityReads(options: {
  deps: DiscoveryDeps;
  answers: AnswerCache<EntityJson>;
  limiter: RateLimiter;
}): (framework: Listener) => Listener {
  const { deps, answers, limiter } = options;
  const policyHeader = policyHeaderOf(limiter);
  const trustProxy = limiter.trustProxy;

  const write = (req: IncomingMessage, res: ServerResponse, answer: EntityJson, take: Take, asOf?: string) => {
    const headers = [
      'access-control-allow-origin',
      '*',
      'access-control-expose-headers',
      EXPOSE_HEADERS,
      'ratelimit-policy',
      policyHeader(take.policy),
      'ratelimit',
      rateLimitValue(take),
      'link',
      LICENSE_LINK,
      'etag',
      answer.etag,
      'cache-control',
      answerCacheControl(asOf, deps.clock.now()),
      'x-content-type-options',
      'nosniff',
    ];
    if (noneMatch(req.headers['if-none-match'], answer.etag)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    headers.push('content-type', 'application/json', 'content-length', String(answer.json.byteLength));
    res.writeHead(200, headers);
    res.end(answer.json);
  };

  return (framework) => (req, res) => {
    const url = req.url;
    if (req.method !== 'GET' || url === undefined || !url.startsWith(ENTITY_PREFIX)) return framework(req, res);
    const h = req.headers;
    if (
      h['x-api-key'] !== undefined ||
      h['transfer-encoding'] !== undefined ||
      (h['content-length'] !== undefined && h['content-length'] !== '0')
    )
      return framework(req, res);
    const q = url.indexOf('?');
    const path = q === -1 ? url.slice(ENTITY_PREFIX.length) : url.slice(ENTITY_PREFIX.length, q);
    const query = q === -1 ? '' : url.slice(q + 1);
    const slash = path.indexOf('/');
    // Encoded or odd paths and other queries are the router's to read (and to explain).
    if (slash <= 0 || slash !== path.lastIndexOf('/') || slash === path.length - 1 || path.includes('%'))
      return framework(req, res);
    if (query !== '' && !AS_OF_QUERY.test(query)) return framework(req, res);
    const asOf = query === '' ? undefined : query.slice('as_of='.length);

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
      return heldEntityJson(deps, answers, path.slice(0, slash), path.slice(slash + 1), asOf).then(
        (cached) => (cached ? write(req, res, cached, take, asOf) : handOver(take)),
        // The framework meets the same fault, logs it and answers it (a 503 for a store away).
        () => handOver(take),
      );
    };
    const taken = limiter.take(`ip:${client}`, limiter.free);
    return taken instanceof Promise ? taken.then(answer, () => framework(req, res)) : answer(taken);
  };
}
