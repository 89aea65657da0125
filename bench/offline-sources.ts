import { MemoryConditionalCache } from '../src/upstreams/memory-cache.js';
import type { Sources } from '../src/upstreams/source.js';
import { createSources } from '../src/upstreams/sources.js';

/** Readers pointed at a closed port: the benchmarked reads never reach an upstream, and this makes sure. */
export function offlineSources(): Sources {
  const nowhere = 'http://127.0.0.1:9';
  return createSources({
    urls: {
      github: nowhere,
      npm: nowhere,
      pypi: nowhere,
      endoflife: nowhere,
      dockerhub: nowhere,
      dependents: nowhere,
      dependentsRegistry: 'npmjs.org',
      maven: nowhere,
      goproxy: nowhere,
      rubygems: nowhere,
      packagist: nowhere,
      crates: nowhere,
      cratesIndex: nowhere,
      nuget: nowhere,
    },
    githubToken: null,
    userAgent: 'tended-bench',
    timeoutMs: 1000,
    concurrency: 1,
    cache: new MemoryConditionalCache(),
  });
}
