import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUDGETED_UPSTREAMS } from '../src/upstreams/http/budget-limits.js';
import { FOLLOWED_REGISTRIES } from '../src/upstreams/following/follower.js';
import { FEED_BUDGETS, FOLLOW_PASS_MS, FOLLOWING, PACKAGE_REGISTRIES } from '../src/upstreams/registries.js';
import { createSources } from '../src/upstreams/sources.js';
import { everyUpstreamAt } from '../src/upstreams/source.js';
import { MemoryConditionalCache } from '../src/upstreams/http/memory-cache.js';

/**
 * One folder a registry (issue 39): what a newcomer copies to add an eighth. Each package
 * registry's folder holds the same files, exports one descriptor, and the map built from them is
 * the only place readers, followers, periods and feed budgets are read from.
 */
const UPSTREAMS = fileURLToPath(new URL('../src/upstreams/', import.meta.url));
const READER_FILES = ['registry.ts', 'read.ts', 'read.test.ts', 'classify-response.ts', 'facts.ts'];
const FOLLOWER_FILES = ['feed.ts', 'feed.test.ts', 'follow.ts', 'list.ts'];

describe('the package registries, one folder each', () => {
  it.each(Object.values(PACKAGE_REGISTRIES).map((r) => [r.kind, r] as const))(
    '%s: its folder has the files every registry has, and names only budgeted hosts',
    (kind, registry) => {
      const files = [...READER_FILES, ...(registry.following ? FOLLOWER_FILES : [])];
      expect(files.filter((f) => !existsSync(`${UPSTREAMS}${kind}/${f}`))).toEqual([]);
      const budgeted = new Set<string>(BUDGETED_UPSTREAMS);
      expect(registry.readerHosts.filter((h) => !budgeted.has(h))).toEqual([]);
      if (registry.following) {
        expect(registry.following.registry).toBe(kind);
        expect(budgeted.has(registry.following.budget)).toBe(true);
        expect(registry.following.passEveryMs).toBeGreaterThanOrEqual(60_000);
      }
    },
  );

  it('follows exactly the registries whose folders export a following, with their periods and budgets', () => {
    const followed = Object.values(PACKAGE_REGISTRIES)
      .filter((r) => r.following !== null)
      .map((r) => r.kind)
      .sort();
    expect(followed).toEqual([...FOLLOWED_REGISTRIES].sort());
    for (const r of FOLLOWED_REGISTRIES) {
      expect(FOLLOW_PASS_MS[r]).toBe(FOLLOWING[r].passEveryMs);
      expect(FEED_BUDGETS[r]).toBe(FOLLOWING[r].budget);
    }
    // The periods as the follow loop has always kept them (docs/operating.md).
    expect(FOLLOW_PASS_MS).toEqual({
      npm: 60_000,
      pypi: 60_000,
      cargo: 600_000,
      golang: 60_000,
      nuget: 300_000,
      gem: 60_000,
      composer: 60_000,
    });
  });

  it('builds a reader for every package kind from the map, each over only the hosts it names', () => {
    const sources = createSources({
      urls: everyUpstreamAt('http://127.0.0.1:9'),
      githubToken: null,
      userAgent: 'tended-test',
      timeoutMs: 1_000,
      concurrency: 1,
      cache: new MemoryConditionalCache(),
    });
    for (const kind of Object.keys(PACKAGE_REGISTRIES))
      expect(typeof sources[kind as keyof typeof sources]).toBe('object');
  });
});
