import { describe, expect, it } from 'vitest';
import { COMPONENT_KINDS } from '../domain/component.js';
import { classify, type State } from '../domain/state.js';
import { MemoryConditionalCache } from '../upstreams/http/memory-cache.js';
import { createSources } from '../upstreams/sources.js';
import { demoScenario } from './demo.js';
import { generatedScenario } from './generated-scenario.js';
import { parseScenario, phaseAt, scenarioComponents, ScenarioError } from './scenario.js';
import { startSimulator } from './server.js';

const demo = demoScenario;

function problems(input: unknown): string[] {
  try {
    parseScenario(input);
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems;
    throw e;
  }
  return [];
}

describe('parseScenario', () => {
  it('normalises keys the way the record does', () => {
    const s = parseScenario({
      components: {
        'github:Acme/App': [{ from: '2025-01-01' }],
        'docker:node:18': [{ from: '2025-01-01' }],
        'pypi:Foo_Bar': [{ from: '2025-01-01' }],
      },
    });
    expect(Object.keys(s.components).sort()).toEqual([
      'docker:docker.io/library/node:18',
      'github:acme/app',
      'pypi:foo-bar',
    ]);
    expect(scenarioComponents(s)).toContainEqual({ kind: 'docker', id: 'docker.io/library/node:18' });
  });

  it.each<[string, unknown, RegExp]>([
    ['not an object', 42, /^scenario: /],
    ['no components', {}, /scenario\.components/],
    [
      'an unknown kind',
      { components: { 'gitlab:a/b': [{ from: '2025-01-01' }] } },
      /kind:id with kind github, npm, pypi, docker, maven, golang, cargo, nuget, gem, composer or distro/,
    ],
    [
      'a bad id',
      { components: { 'github:not a repo': [{ from: '2025-01-01' }] } },
      /components\["github:not a repo"\]: a github component is named owner\/repo/,
    ],
    ['no phases', { components: { 'npm:a': [] } }, /needs at least one phase/],
    [
      'a bad date',
      { components: { 'npm:a': [{ from: '2025-02-30' }] } },
      /components\["npm:a"\]\[0\]\.from: must be a date written YYYY-MM-DD/,
    ],
    [
      'a bad instant',
      { components: { 'npm:a': [{ from: '2025-01-01', versions: { '1.0.0': 'yesterday' } }] } },
      /\[0\]\.versions\.1\.0\.0: must be an RFC 3339 instant/,
    ],
    [
      'a failure of another upstream',
      { components: { 'npm:a': [{ from: '2025-01-01', fail: 'dmca' }] } },
      /\[0\]\.fail: Invalid option/,
    ],
    [
      'an unknown field',
      { components: { 'pypi:a': [{ from: '2025-01-01', pushed_at: '2025-01-01T00:00:00Z' }] } },
      /Unrecognized key: "pushed_at"/,
    ],
    [
      'phases out of order',
      { components: { 'npm:a': [{ from: '2025-02-01' }, { from: '2025-01-01' }] } },
      /\[1\]\.from: phases must be in ascending date order/,
    ],
    [
      'two keys for one component',
      { components: { 'github:a/b': [{ from: '2025-01-01' }], 'github:A/B': [{ from: '2025-01-01' }] } },
      /the same component as another key/,
    ],
    [
      'an alias used twice',
      {
        components: {},
        endoflife: {
          a: { aliases: ['x'], phases: [{ from: '2025-01-01' }] },
          b: { aliases: ['x'], phases: [{ from: '2025-01-01' }] },
        },
      },
      /"x" is used twice/,
    ],
  ])('refuses %s with a message naming the place', (_name, input, message) => {
    const found = problems(input);
    expect(
      found.some((p) => message.test(p)),
      found.join('\n'),
    ).toBe(true);
  });

  it('reports every problem at once', () => {
    expect(problems({ components: { 'npm:a': [{ from: 'x' }], 'npm:b': [{ from: 'y' }] } })).toHaveLength(2);
  });
});

describe('phaseAt', () => {
  const phases = [
    { from: '2025-01-01', pushed_at: '2025-01-01T00:00:00Z', archived: false },
    { from: '2025-06-01', fail: 'server_error' as const },
    { from: '2025-09-01', archived: true },
  ];
  it('is null before the first phase: the component does not exist yet', () => {
    expect(phaseAt(phases, '2024-12-31')).toBeNull();
  });
  it('merges earlier phases, but a failure holds for its own phase only', () => {
    expect(phaseAt(phases, '2025-06-01')).toEqual({
      from: '2025-06-01',
      pushed_at: '2025-01-01T00:00:00Z',
      archived: false,
      fail: 'server_error',
    });
    expect(phaseAt(phases, '2026-01-01')).toEqual({
      from: '2025-09-01',
      pushed_at: '2025-01-01T00:00:00Z',
      archived: true,
    });
  });
});

describe('the demo scenario', () => {
  it('is a small living record across every kind', () => {
    const s = demo();
    const kinds = new Set(scenarioComponents(s).map((r) => r.kind));
    expect([...kinds].sort()).toEqual([...COMPONENT_KINDS].sort());
    expect(Object.keys(s.components).length).toBeGreaterThanOrEqual(8);
  });

  it('changes states over 2025–2026 when read through the real readers', async () => {
    let now = new Date('2025-02-01T12:00:00Z');
    const sim = await startSimulator({ scenario: demo(), clock: () => now });
    try {
      const series: Record<string, State[]> = {};
      for (const date of ['2025-02-01', '2025-08-15', '2025-12-01', '2026-03-01', '2026-07-01', '2026-11-01']) {
        now = new Date(`${date}T12:00:00Z`);
        const sources = createSources({
          urls: sim.urls,
          githubToken: null,
          userAgent: 'tended-test',
          timeoutMs: 1000,
          concurrency: 4,
          cache: new MemoryConditionalCache(),
        });
        for (const ref of scenarioComponents(demo())) {
          const reading = await sources[ref.kind].read(ref, date);
          (series[`${ref.kind}:${ref.id}`] ??= []).push(classify(reading.signals, date));
        }
      }
      expect(series).toEqual({
        'github:acme/rocket': ['alive', 'alive', 'alive', 'dormant', 'archived', 'archived'],
        'github:acme/old-name': ['alive', 'dormant', 'alive', 'alive', 'dormant', 'abandoned'],
        'github:acme/vanishing': ['alive', 'dormant', 'abandoned', 'deleted', 'deleted', 'deleted'],
        'npm:left-padded': ['alive', 'dormant', 'archived', 'archived', 'archived', 'archived'],
        'npm:@acme/widgets': ['alive', 'alive', 'alive', 'dormant', 'alive', 'dormant'],
        'npm:evil-pkg': ['alive', 'deleted', 'deleted', 'deleted', 'deleted', 'deleted'],
        'pypi:tiny-parser': ['alive', 'dormant', 'dormant', 'archived', 'archived', 'archived'],
        'pypi:yanky': ['alive', 'dormant', 'dormant', 'archived', 'archived', 'archived'],
        'docker:docker.io/library/node:18-alpine': ['alive', 'eol', 'eol', 'eol', 'eol', 'eol'],
        'docker:docker.io/library/python:3.12-slim-bookworm': ['alive', 'alive', 'dormant', 'alive', 'eol', 'eol'],
        'maven:org.acme:rocket-core': ['alive', 'dormant', 'alive', 'alive', 'archived', 'archived'],
        // The proxy keeps serving it; its repository's archiving (2026-07) is what archives it.
        'golang:github.com/acme/rocket': ['alive', 'dormant', 'alive', 'alive', 'archived', 'archived'],
        // Supported until its end of life (2026-06-10), whatever the age of its latest point release (12.11, 2025-05-17).
        'distro:debian/12': ['alive', 'alive', 'alive', 'alive', 'eol', 'eol'],
        // Every version yanked in 2026-05: rubygems.org serves none, its only home.
        'gem:rocket-rb': ['alive', 'dormant', 'abandoned', 'abandoned', 'deleted', 'deleted'],
        // Marked abandoned on Packagist in 2026-04, in favour of acme/rocket-next.
        // Every version yanked in 2026-06: archived.
        'cargo:rocket-rs': ['alive', 'dormant', 'alive', 'alive', 'archived', 'archived'],
        // Deprecated as Legacy ("no longer maintained") in 2026-05.
        'nuget:acme.rocket': ['alive', 'dormant', 'alive', 'alive', 'archived', 'archived'],
        'composer:acme/rocket-php': ['alive', 'dormant', 'alive', 'dormant', 'archived', 'archived'],
      });
    } finally {
      await sim.close();
    }
  });
});

describe('generatedScenario', () => {
  it('is valid, has n components across the kinds, and is the same for the same seed', () => {
    const a = generatedScenario(2000, 11);
    expect(Object.keys(a.components)).toHaveLength(2000);
    expect(() => parseScenario(JSON.parse(JSON.stringify(a)))).not.toThrow();
    expect(new Set(scenarioComponents(a).map((r) => r.kind)).size).toBe(4);
    expect(JSON.stringify(generatedScenario(2000, 11))).toBe(JSON.stringify(a));
    expect(JSON.stringify(generatedScenario(2000, 12))).not.toBe(JSON.stringify(a));
  });
});
