import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as s from './support/hot-servers.js';

/**
 * The metrics label an answer by its route pattern, whoever writes it: an answer the hot path
 * writes is counted under the pattern the framework's router gives the same request, so a route's
 * rate and latency do not split (or vanish) by which path answered it.
 */
beforeEach(() => s.start(1000, { pages: true }));
afterEach(() => s.stop());

const HOT_READS = [
  '/api/v1/entity/acme/rocket',
  '/api/v1/entity/acme/rocket?as_of=2026-11-21',
  '/badge/github/acme/rocket.svg',
  '/badge/github/acme/rocket.json',
  '/api/chain/head',
  '/api/chain/checkpoint',
  '/npm/left-padded',
  '/npm/@acme/widgets',
  '/pypi/tiny-parser',
  '/cargo/rocket-rs',
  '/gem/rocket-rb',
  '/maven/org.acme/rocket-core',
  '/composer/acme/rocket-php',
  '/golang/github.com/acme/rocket',
  '/github/acme/rocket',
];

describe('request metrics', () => {
  it.each(HOT_READS)('count %s under the framework’s route pattern when the hot path answers it', async (path) => {
    const viaFramework = await s.get(s.framework, path);
    expect(viaFramework.status).toBe(200);
    const viaHot = await s.get(s.hot, path);
    expect(viaHot.status).toBe(200);
    // The framework's own answer, then the hot path's, each told once.
    expect(s.answered).toHaveLength(2);
    const [framework, hot] = s.answered;
    expect(framework!.via).toBe('framework');
    expect(hot).toEqual({ ...framework, via: 'hot' });
    expect(hot!.route).not.toBe('unmatched');
    expect(hot!.route).not.toContain('acme');
  });

  it('count a 304 the hot path answers, and a request it hands over only once', async () => {
    const first = await s.get(s.hot, '/api/chain/head');
    const etag = first.headers.get('etag')!;
    expect((await s.get(s.hot, '/api/chain/head', { 'if-none-match': etag })).status).toBe(304);
    // A key: the hot path hands the request over, and the framework alone tells of it.
    expect((await s.get(s.hot, '/api/chain/head', { 'x-api-key': 'unknown' })).status).toBe(401);
    expect(s.answered.map((a) => `${a.via} ${a.route} ${a.status}`)).toEqual([
      'hot /api/chain/head 200',
      'hot /api/chain/head 304',
      'framework /api/chain/head 401',
    ]);
  });
});
