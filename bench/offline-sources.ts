import { MemoryConditionalCache } from '../src/upstreams/http/memory-cache.js';
import { everyUpstreamAt, type Sources } from '../src/upstreams/source.js';
import { createSources } from '../src/upstreams/sources.js';

/** Readers pointed at a closed port: the benchmarked reads never reach an upstream, and this makes sure. */
export function offlineSources(): Sources {
  const nowhere = 'http://127.0.0.1:9';
  return createSources({
    urls: everyUpstreamAt(nowhere),
    githubToken: null,
    userAgent: 'tended-bench',
    timeoutMs: 1000,
    concurrency: 1,
    cache: new MemoryConditionalCache(),
  });
}
