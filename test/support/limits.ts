import { build } from '../../src/http/app.js';
import { createRateLimiter, type LimiterOptions, type RateLimiter } from '../../src/limits/limiter.js';
import { MemoryConditionalCache } from '../../src/upstreams/http/memory-cache.js';
import { everyUpstreamAt, type Sources } from '../../src/upstreams/source.js';
import { createSources } from '../../src/upstreams/sources.js';
import type { Store } from '../../src/storage/store.js';
import { recordDeps } from './record.js';

/** Upstream readers pointed at a closed port: the rate-limit suites never read an upstream. */
export function closedSources(): Sources {
  const nowhere = 'http://127.0.0.1:9';
  return createSources({
    urls: everyUpstreamAt(nowhere),
    githubToken: null,
    userAgent: 'tended-test',
    timeoutMs: 1000,
    concurrency: 1,
    cache: new MemoryConditionalCache(),
  });
}

/** The real app over `store` with a real limiter; the caller closes the limiter. */
export function limitedApp(
  store: Store,
  options: Partial<LimiterOptions> = {},
): { app: ReturnType<typeof build>; limiter: RateLimiter } {
  const limiter = createRateLimiter({ free: 60, keyed: 600, ...options });
  const app = build({ ...recordDeps(store), sources: closedSources(), logError: () => {}, limiter });
  return { app, limiter };
}
