import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utcDateOf } from '../src/domain/calendar.js';
import { normaliseComponent } from '../src/domain/component.js';
import { classify } from '../src/domain/state.js';
import { FOLLOWED_REGISTRIES, type FollowedRegistry } from '../src/upstreams/following/follower.js';
import type { PackageFacts } from '../src/simulator/registries/registry.js';
import { startSimulator, type Simulator } from '../src/simulator/server.js';
import { MemoryConditionalCache } from '../src/upstreams/http/memory-cache.js';
import { createSources } from '../src/upstreams/sources.js';
import type { Sources } from '../src/upstreams/source.js';

/**
 * A generated registry's packages, read by the real readers of src/upstreams/ over loopback: what
 * the reader makes of a package (its latest publication, its deprecation, its deletion) is what
 * the seed says, the same facts the feeds are drawn from.
 */
const NOW = new Date('2026-05-20T12:00:00Z');
const SCALES: Record<FollowedRegistry, number> = {
  npm: 0.001,
  pypi: 0.005,
  cargo: 0.02,
  golang: 0.002,
  nuget: 0.008,
  gem: 0.02,
  composer: 0.01,
};

let sim: Simulator;
let sources: Sources;
beforeAll(async () => {
  sim = await startSimulator({
    scenario: { components: {} },
    clock: () => NOW,
    registries: { seed: 26, scale: SCALES },
  });
  sources = createSources({
    urls: sim.urls,
    githubToken: null,
    userAgent: 'tended-test/0.1.0 (+simulator)',
    timeoutMs: 5_000,
    concurrency: 4,
    cache: new MemoryConditionalCache(),
  });
});
afterAll(() => sim.close());

/** The first package of each kind the seed made: deleted, deprecated, and one changed since the start. */
function samples(registry: FollowedRegistry): Record<'deleted' | 'deprecated' | 'changed', PackageFacts | undefined> {
  const reg = sim.registries!.get(registry)!;
  const out: Record<'deleted' | 'deprecated' | 'changed', PackageFacts | undefined> = {
    deleted: undefined,
    deprecated: undefined,
    changed: undefined,
  };
  for (let i = 0; i < reg.packagesBy(NOW.getTime()); i++) {
    const f = reg.facts(i, NOW.getTime())!;
    if (f.deletedAt !== null) out.deleted ??= f;
    else if (f.deprecatedAt !== null) out.deprecated ??= f;
    else if (f.changes.some((c) => c.kind === 'publish')) out.changed ??= f;
  }
  return out;
}

describe('generated registries read by the upstream readers', () => {
  it.each(FOLLOWED_REGISTRIES)('%s: deleted, deprecated and published as the seed says', async (registry) => {
    const today = utcDateOf(NOW);
    const s = samples(registry);
    const read = async (f: PackageFacts) => {
      const reading = await sources[registry].read(normaliseComponent(registry, f.name), today);
      return { reading, state: classify(reading.signals, today) };
    };
    const changed = await read(s.changed!);
    expect(changed.state).toBe('alive');
    const last = s.changed!.versions.at(-1)!.at;
    // Seconds: the crates index writes pubtime without fractions.
    expect(Math.floor(Date.parse(changed.reading.signals.lastActivity!) / 1000)).toBe(Math.floor(last / 1000));
    if (registry === 'gem') expect(s.deprecated).toBeUndefined();
    else expect((await read(s.deprecated!)).state).toBe('archived');
    if (registry === 'golang') expect(s.deleted).toBeUndefined();
    else expect((await read(s.deleted!)).state).toBe('deleted');
  });

  it('answers a name it never generated as the registry answers an unknown package', async () => {
    const reading = await sources.npm.read(normaliseComponent('npm', 'gen-npm-99999999'), utcDateOf(NOW));
    expect(reading.signals).toEqual({ notFound: true });
    expect(reading.evidence['http_status']).toBe(404);
  });
});
