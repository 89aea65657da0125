import { describe, expect, it } from 'vitest';
import { FOLLOWED_REGISTRIES } from '../../upstreams/following/follower.js';
import { GeneratedRegistry } from './registry.js';
import { REGISTRY_SHAPES, CREATE_EVERY } from './sizes.js';

const START = '2026-01-01T00:00:00Z';
const DAY = 86_400_000;
const registry = (r: (typeof FOLLOWED_REGISTRIES)[number], scale: number, seed = 7) =>
  new GeneratedRegistry({ registry: r, seed, scale, start: START });

describe('a registry generated from (seed, scale)', () => {
  it('is drawn at the real sizes times the scale, and answers at full size without building anything per package', () => {
    const t0 = performance.now();
    const npm = registry('npm', 1);
    expect(npm.initialPackages).toBe(REGISTRY_SHAPES.npm.packages);
    // The 4,000,000th package's facts, a year on: a few multiplications, not a table.
    const facts = npm.facts(4_000_001, Date.parse(START) + 365 * DAY);
    expect(facts?.name).toBe('gen-npm-04000001');
    expect(performance.now() - t0).toBeLessThan(200);
    expect(registry('pypi', 0.01).initialPackages).toBe(Math.round(REGISTRY_SHAPES.pypi.packages * 0.01));
  });

  it('gives the same registry for the same seed, and another for another seed', () => {
    const now = Date.parse(START) + 90 * DAY;
    const a = registry('nuget', 0.002, 7);
    const b = registry('nuget', 0.002, 7);
    const c = registry('nuget', 0.002, 8);
    const sample = (r: GeneratedRegistry) => [10, 200, 999].map((i) => JSON.stringify(r.facts(i, now)));
    expect(sample(a)).toEqual(sample(b));
    expect(sample(a)).not.toEqual(sample(c));
  });

  it.each(FOLLOWED_REGISTRIES)('%s: every event names a package whose own history holds it, and back', (name) => {
    const reg = registry(name, 0.003);
    const now = Date.parse(START) + 75 * DAY;
    const events = reg.eventsBy(now);
    // Past two rounds: every changing package has changed twice.
    expect(events).toBeGreaterThan(2 * reg.changing * reg.shape.burst);
    const slotsSeen = new Map<number, number>();
    for (let k = 0; k < events; k++) {
      const e = reg.eventAt(k);
      if (!e) continue;
      expect(reg.burstOf(e)).toContain(k);
      if (e.kind === 'create') {
        expect(e.package).toBe(reg.initialPackages + Math.floor(k / CREATE_EVERY));
        expect(reg.facts(e.package, now)?.versions[0]?.at).toBe(e.at);
        continue;
      }
      if (e.burstPosition > 0) continue;
      const facts = reg.facts(e.package, now)!;
      expect(facts.changes.map((c) => c.index)).toContain(k);
      if (e.kind === 'publish') expect(facts.versions.map((v) => v.version)).toContain(e.version);
      // A changing package changes once a round.
      slotsSeen.set(e.package * 1000 + e.round, (slotsSeen.get(e.package * 1000 + e.round) ?? 0) + 1);
    }
    expect(Math.max(...slotsSeen.values())).toBe(1);
  });

  it('deprecates and deletes a share of packages, each through a feed event, and a deleted one never changes again', () => {
    const reg = registry('npm', 0.01);
    const now = Date.parse(START) + 200 * DAY;
    let deprecated = 0;
    let deleted = 0;
    for (let i = 0; i < reg.initialPackages; i += 7) {
      const f = reg.facts(i, now)!;
      if (f.deletedAt !== null) {
        deleted++;
        expect(f.changes.at(-1)?.kind).toBe('delete');
        expect(f.changes.at(-1)?.at).toBe(f.deletedAt);
      }
      if (f.deprecatedAt !== null) deprecated++;
    }
    expect(deleted).toBeGreaterThan(0);
    // Deprecated at the start (3 %) or by a round's change.
    expect(deprecated / (reg.initialPackages / 7)).toBeGreaterThan(0.02);
  });

  it('spreads the initial packages over the registry’s life, so ages run from days to years', () => {
    const reg = registry('pypi', 0.01);
    const start = Date.parse(START);
    const ages = [0, 0.25, 0.5, 0.999].map((q) => {
      const f = reg.facts(Math.floor(q * reg.initialPackages), start)!;
      return (start - f.versions.at(-1)!.at) / DAY;
    });
    expect(ages[0]).toBeGreaterThan(365 * 15);
    expect(ages[3]).toBeLessThan(30);
  });

  it('names packages in each registry’s own shape, and finds a package by its name', () => {
    const names = Object.fromEntries(FOLLOWED_REGISTRIES.map((r) => [r, registry(r, 0.001).nameOf(13)]));
    expect(names).toEqual({
      npm: '@gen-scope13/pkg-00000013',
      pypi: 'gen-py-00000013',
      cargo: 'gen-crate-00000013',
      golang: 'example.com/gen/m00000013',
      nuget: 'Gen.Package00000013',
      gem: 'gen-gem-00000013',
      composer: 'gen-vendor/package-00000013',
    });
    expect(registry('nuget', 0.001).indexOf('gen.package00000013')).toBe(13);
    expect(registry('npm', 0.001).indexOf('gen-npm-00000013')).toBeNull();
  });
});
