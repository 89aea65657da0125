import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classify, type State } from '../../domain/state.js';
import { startHarness, type Harness } from '../../simulator/harness.js';
import type { MavenPhase } from '../../simulator/scenario-phases.js';

const TODAY = '2026-03-01';
const artifact = (extra: Omit<MavenPhase, 'from'>): MavenPhase[] => [{ from: '2020-01-01', ...extra }];

const COMPONENTS: Record<string, MavenPhase[]> = {
  'maven:org.acme:alive': artifact({
    versions: { '1.9': '2025-01-01T10:00:00Z', '1.10': '2026-01-20T10:00:00Z' },
  }),
  'maven:org.acme:dormant': artifact({ versions: { '2.0': '2025-06-01T10:00:00Z' } }),
  'maven:org.acme:abandoned': artifact({ versions: { '1.0': '2023-01-01T10:00:00Z' } }),
  // <release> points at an older version and a release candidate came last: the reader picks 3.1.
  'maven:org.acme:untrusted-hint': artifact({
    versions: { '3.0': '2024-01-01T00:00:00Z', '3.1': '2025-12-01T00:00:00Z', '3.2-rc1': '2026-02-01T00:00:00Z' },
    release: '3.0',
  }),
  'maven:org.acme:moved': artifact({
    versions: { '1.0': '2026-02-01T00:00:00Z' },
    relocation: { group_id: 'io.acme', artifact_id: 'moved', message: 'We moved to io.acme' },
  }),
  'maven:org.acme:no-pom': artifact({ fail: 'pom_missing', versions: { '0.9': '2025-12-20T08:00:00Z' } }),
  'maven:org.acme:only-candidates': artifact({ versions: { '1.0-rc1': '2026-01-01T00:00:00Z' } }),
  'maven:org.acme:gone': artifact({ fail: 'not_found' }),
  'maven:org.acme:blocked': artifact({ fail: 'blocked' }),
  'maven:org.acme:limited': artifact({ fail: 'rate_limit_429' }),
  'maven:org.acme:error': artifact({ fail: 'server_error', status: 502 }),
  'maven:org.acme:hangs': artifact({ fail: 'timeout' }),
  'maven:org.acme:resets': artifact({ fail: 'reset' }),
  'maven:org.acme:malformed': artifact({ fail: 'malformed' }),
};

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ scenario: { components: COMPONENTS }, today: TODAY });
});
afterAll(() => h.close());

async function read(id: string) {
  const reading = await h.newSources().maven.read({ kind: 'maven', id }, TODAY);
  return { reading, state: classify(reading.signals, TODAY) };
}

describe('Maven reader against the simulated Central', () => {
  it.each<[string, State, Record<string, unknown>]>([
    [
      'org.acme:alive',
      'alive',
      {
        http_status: 200,
        latest_release: '1.10',
        versions: 2,
        published: '2026-01-20T10:00:00Z',
        pom_http_status: 200,
      },
    ],
    ['org.acme:dormant', 'dormant', { published: '2025-06-01T10:00:00Z' }],
    ['org.acme:abandoned', 'abandoned', { published: '2023-01-01T10:00:00Z' }],
    ['org.acme:untrusted-hint', 'alive', { latest_release: '3.1', release_in_metadata: '3.0' }],
    [
      'org.acme:moved',
      'archived',
      { relocated_to: 'io.acme:moved', relocated: { group_id: 'io.acme', message: 'We moved to io.acme' } },
    ],
    [
      'org.acme:no-pom',
      'alive',
      {
        pom_http_status: 404,
        metadata_last_updated: '2025-12-20T08:00:00Z',
        activity_from: expect.stringMatching(/lastUpdated/),
      },
    ],
    // Only pre-releases: Central's <release> is taken, and publishing one is activity all the same.
    ['org.acme:only-candidates', 'alive', { latest_release: '1.0-rc1', published: '2026-01-01T00:00:00Z' }],
    // Central removes nothing: a 404 is never a deletion.
    [
      'org.acme:gone',
      'not_observed',
      { http_status: 404, unreachable: 'not_listed', not_listed: expect.stringMatching(/^not in Maven Central/) },
    ],
    ['org.acme:never-existed', 'not_observed', { http_status: 404, unreachable: 'not_listed' }],
    [
      'org.acme:blocked',
      'not_observed',
      { http_status: 403, unreachable: 'unauthorized', message: expect.stringMatching(/blocked/) },
    ],
    ['org.acme:limited', 'not_observed', { http_status: 429, unreachable: 'rate_limited', retry_after: 30 }],
    ['org.acme:error', 'not_observed', { http_status: 502, unreachable: 'server_error' }],
    ['org.acme:hangs', 'not_observed', { unreachable: 'timeout' }],
    ['org.acme:resets', 'not_observed', { unreachable: 'network' }],
    ['org.acme:malformed', 'not_observed', { unreachable: 'unparsable' }],
  ])('%s → %s', async (id, state, evidence) => {
    const { reading } = await read(id);
    expect(classify(reading.signals, TODAY)).toBe(state);
    expect(reading.evidence).toMatchObject(evidence);
    expect(reading.method).toMatch(/Maven Central/);
  });

  it('reads the metadata, then the chosen release POM, under the configured base path', async () => {
    const before = h.simulator.requests.length;
    const { reading } = await read('org.acme:alive');
    expect(reading.source).toBe(`${h.simulator.urls.maven}/org/acme/alive/1.10/alive-1.10.pom`);
    expect(h.simulator.requests.slice(before).map((r) => r.path)).toEqual([
      '/maven/maven2/org/acme/alive/maven-metadata.xml',
      '/maven/maven2/org/acme/alive/1.10/alive-1.10.pom',
    ]);
  });

  it('a second read of unchanged files is two 304s with the same facts', async () => {
    const first = await read('org.acme:dormant');
    const before = h.simulator.requests.length;
    const second = await read('org.acme:dormant');
    expect(h.simulator.requests.slice(before).map((r) => [r.status, r.conditional])).toEqual([
      [304, true],
      [304, true],
    ]);
    expect(second.reading.signals).toEqual(first.reading.signals);
    expect(second.reading.evidence).toEqual({ ...first.reading.evidence, http_status: 304, pom_http_status: 304 });
  });
});
