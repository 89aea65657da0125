import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { build } from '../../src/http/app.js';
import { hotReads } from '../../src/http/hot-path.js';
import { hotProviders } from '../../src/http/hot-providers.js';
import { createRateLimiter, type LimiterOptions, type RateLimiter } from '../../src/limits/limiter.js';
import type { DiscoverySettings } from '../../src/operations/discovery.js';
import { HeadAnswers } from '../../src/operations/read-chain.js';
import { entityAnswerCache } from '../../src/operations/read-entity.js';
import { badgeCache } from '../../src/pages/badge-answer.js';
import { packagePageCache } from '../../src/pages/package-answer.js';
import { closedSources } from './limits.js';
import { recordDeps } from './record.js';
import { REDIS_URL, uniquePrefix } from './redis.js';

/** The app as `tended serve` runs it: the hot path in front of the framework, the real limiter, on loopback. */
export interface LimitedServer {
  url: string;
  limiter: RateLimiter;
  /** The Redis key prefix of its buckets and shares (Redis only). */
  redisPrefix: string | null;
  close(): Promise<void>;
}

/**
 * Serves the app over `deps` on a free loopback port with a real limiter (in-process buckets, or
 * Redis under a prefix of its own). 127.0.0.1 is a trusted proxy, so a test names its clients with
 * X-Forwarded-For as a proxy in front of the service would.
 */
export async function serveLimited(
  deps: ReturnType<typeof recordDeps>,
  options: { buckets: 'memory' | 'redis'; discovery: DiscoverySettings; limits?: Partial<LimiterOptions> },
): Promise<LimitedServer> {
  const redisPrefix = options.buckets === 'redis' ? uniquePrefix() : null;
  const limiter = createRateLimiter({
    free: 60,
    keyed: 600,
    trustProxy: ['127.0.0.1'],
    ...(redisPrefix ? { redisUrl: REDIS_URL, redisPrefix } : {}),
    ...options.limits,
  });
  if (redisPrefix && !(await limiter.waitForShared(3_000)))
    throw new Error(`Redis at ${REDIS_URL} does not answer; the Redis suites need it`);
  const caches = {
    entityAnswers: entityAnswerCache(1024 * 1024),
    badgeAnswers: badgeCache(),
    headAnswers: new HeadAnswers(),
    packagePages: packagePageCache(),
  };
  const app = build({
    ...deps,
    ...caches,
    sources: closedSources(),
    logError: (error) => console.error(error),
    limiter,
    discovery: options.discovery,
  });
  const listener = hotReads({ limiter, providers: hotProviders(deps, caches, { signed: false }) })(
    getRequestListener(app.fetch),
  );
  const server: Server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    limiter,
    redisPrefix,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await limiter.close();
    },
  };
}
