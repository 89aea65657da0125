import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComponentKind } from '../../domain/component.js';
import { startHarness, type Harness } from '../../simulator/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    today: '2026-03-01',
    scenario: {
      components: {
        'npm:express': [{ from: '2020-01-01', versions: { '5.0.0': '2025-01-01T00:00:00.000Z' }, dependents: 1234 }],
        'npm:@babel/core': [{ from: '2020-01-01', versions: { '7.0.0': '2025-01-01T00:00:00.000Z' }, dependents: 0 }],
        'npm:unindexed': [{ from: '2020-01-01', versions: { '1.0.0': '2025-01-01T00:00:00.000Z' } }],
        'npm:limited': [{ from: '2020-01-01', dependents: 5, dependents_fail: 'rate_limit_429' }],
        'npm:broken': [{ from: '2020-01-01', dependents: 5, dependents_fail: 'server_error' }],
        'npm:hangs': [{ from: '2020-01-01', dependents: 5, dependents_fail: 'timeout' }],
        'pypi:requests': [{ from: '2020-01-01', releases: { '2.0.0': '2025-01-01T00:00:00Z' }, dependents: 70 }],
        'maven:org.slf4j:slf4j-api': [
          { from: '2020-01-01', versions: { '2.0.0': '2025-01-01T00:00:00Z' }, dependents: 60 },
        ],
        'golang:github.com/Masterminds/semver/v3': [{ from: '2020-01-01', dependents: 50 }],
        'cargo:serde': [{ from: '2020-01-01', dependents: 40 }],
        'gem:rails': [{ from: '2020-01-01', dependents: 30 }],
        'composer:monolog/monolog': [{ from: '2020-01-01', dependents: 20, dependents_fail: 'rate_limit_429' }],
        'nuget:newtonsoft.json': [{ from: '2020-01-01', versions: { '13.0.1': '2025-01-01T00:00:00Z' } }],
      },
    },
  });
});
afterAll(() => h.close());

const read = (id: string, kind: ComponentKind = 'npm') => h.newSources().dependents.read({ kind, id });

describe('dependents reader (ecosyste.ms packages API) against the simulator', () => {
  it('reads dependent_packages_count and names the source', async () => {
    const r = await read('express');
    expect(r.dependents).toBe(1234);
    expect(r.source).toBe(`${h.simulator.urls.dependents}/api/v1/registries/npmjs.org/packages/express`);
    expect(r.evidence).toMatchObject({
      http_status: 200,
      registry: 'npmjs.org',
      dependent_packages_count: 1234,
      dependent_repos_count: 3702,
    });
    expect(r.method).toMatch(/dependent_packages_count/);
  });

  it('encodes a scoped name; zero is a count', async () => {
    const r = await read('@babel/core');
    expect(r.dependents).toBe(0);
    expect(r.source).toBe(`${h.simulator.urls.dependents}/api/v1/registries/npmjs.org/packages/%40babel%2Fcore`);
  });

  it.each([
    ['unindexed', { http_status: 404, not_indexed: true }],
    ['limited', { http_status: 429, unreachable: 'rate_limited' }],
    ['broken', { http_status: 500, unreachable: 'server_error' }],
    ['hangs', { unreachable: 'timeout' }],
  ])('%s → null (unknown, never zero)', async (id, evidence) => {
    const r = await read(id);
    expect(r.dependents).toBeNull();
    expect(r.evidence).toMatchObject(evidence);
  });

  it.each([
    ['pypi', 'requests', 'pypi.org', 'requests', 70],
    ['maven', 'org.slf4j:slf4j-api', 'repo1.maven.org', 'org.slf4j%3Aslf4j-api', 60],
    ['golang', 'github.com/Masterminds/semver/v3', 'proxy.golang.org', 'github.com%2FMasterminds%2Fsemver%2Fv3', 50],
    ['cargo', 'serde', 'crates.io', 'serde', 40],
    ['gem', 'rails', 'rubygems.org', 'rails', 30],
  ] as const)('reads a %s package under its registry’s name there', async (kind, id, registry, path, count) => {
    const r = await read(id, kind);
    expect(r.dependents).toBe(count);
    expect(r.source).toBe(`${h.simulator.urls.dependents}/api/v1/registries/${registry}/packages/${path}`);
    expect(r.evidence).toMatchObject({ http_status: 200, registry, dependent_packages_count: count });
  });

  it('a failed read of another registry is null too', async () => {
    const r = await read('monolog/monolog', 'composer');
    expect(r.dependents).toBeNull();
    expect(r.evidence).toMatchObject({ http_status: 429, unreachable: 'rate_limited', registry: 'packagist.org' });
  });

  it.each([
    ['nuget', 'newtonsoft.json'],
    ['github', 'octo/repo'],
    ['docker', 'library/node:22'],
  ] as const)('does not ask about %s components, and says so', async (kind, id) => {
    const before = h.simulator.requests.length;
    const r = await read(id, kind);
    expect(r.dependents).toBeNull();
    expect(r.evidence['not_read']).toContain(kind);
    expect(h.simulator.requests.length).toBe(before);
  });

  it('a second read is a 304 with the same count', async () => {
    const sources = h.newSources();
    const first = await sources.dependents.read({ kind: 'npm', id: 'express' });
    const before = h.simulator.requests.length;
    const second = await sources.dependents.read({ kind: 'npm', id: 'express' });
    expect(h.simulator.requests.slice(before).map((x) => x.status)).toEqual([304]);
    expect(second.dependents).toBe(first.dependents);
  });
});
