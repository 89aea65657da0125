import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classify, type State } from '../../domain/state.js';
import { startHarness, type Harness } from '../../simulator/harness.js';
import type { GithubPhase, GolangPhase, Phase } from '../../simulator/scenario-phases.js';
import { escapeModulePath, githubRepositoryOf } from './read.js';

const TODAY = '2026-03-01';
const mod = (extra: Omit<GolangPhase, 'from'>): GolangPhase[] => [{ from: '2020-01-01', ...extra }];
const repo = (extra: Omit<GithubPhase, 'from'>): GithubPhase[] => [
  { from: '2020-01-01', pushed_at: '2026-02-01T00:00:00Z', ...extra },
];

const COMPONENTS: Record<string, Phase[]> = {
  'golang:example.com/alive': mod({ versions: { 'v1.0.0': '2025-01-01T00:00:00Z', 'v1.1.0': '2026-01-10T00:00:00Z' } }),
  'golang:example.com/dormant': mod({ versions: { 'v0.3.0': '2025-07-01T00:00:00Z' } }),
  'golang:example.com/abandoned': mod({ versions: { 'v2.0.0': '2022-05-01T00:00:00Z' } }),
  'golang:example.com/deprecated': mod({
    versions: { 'v1.4.0': '2026-01-01T00:00:00Z' },
    deprecated: 'use example.com/better instead.',
    retracted: ['v1.3.0', '[v1.0.0, v1.0.5]'],
  }),
  'golang:example.com/retracts': mod({ versions: { 'v1.2.0': '2026-01-01T00:00:00Z' }, retracted: ['v1.1.0'] }),
  'golang:github.com/BurntSushi/toml': mod({ versions: { 'v1.4.0': '2025-12-01T00:00:00Z' } }),
  'github:burntsushi/toml': repo({}),
  // The proxy still serves it; GitHub says the repository is gone or archived, and wins.
  'golang:github.com/acme/vanished': mod({ versions: { 'v1.0.0': '2026-01-01T00:00:00Z' } }),
  'golang:github.com/acme/frozen/v2': mod({ versions: { 'v2.1.0': '2026-01-01T00:00:00Z' } }),
  'github:acme/frozen': repo({ archived: true }),
  'golang:github.com/acme/limited-repo': mod({ versions: { 'v1.0.0': '2026-01-15T00:00:00Z' } }),
  'github:acme/limited-repo': repo({ fail: 'server_error' }),
  'golang:example.com/gone': mod({ fail: 'not_found' }),
  'golang:example.com/gone-410': mod({ fail: 'gone_410' }),
  'golang:example.com/limited': mod({ fail: 'rate_limit_429' }),
  'golang:example.com/error': mod({ fail: 'server_error', status: 503 }),
  'golang:example.com/hangs': mod({ fail: 'timeout' }),
  'golang:example.com/resets': mod({ fail: 'reset' }),
  'golang:example.com/malformed': mod({ fail: 'malformed' }),
};

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ scenario: { components: COMPONENTS }, today: TODAY });
});
afterAll(() => h.close());

async function read(id: string) {
  const reading = await h.newSources().golang.read({ kind: 'golang', id }, TODAY);
  return { reading, state: classify(reading.signals, TODAY) };
}

describe('Go reader against the simulated module proxy', () => {
  it.each<[string, State, Record<string, unknown>]>([
    ['example.com/alive', 'alive', { http_status: 200, latest_version: 'v1.1.0', latest_time: '2026-01-10T00:00:00Z' }],
    ['example.com/dormant', 'dormant', { latest_time: '2025-07-01T00:00:00Z' }],
    ['example.com/abandoned', 'abandoned', { latest_version: 'v2.0.0' }],
    [
      'example.com/deprecated',
      'archived',
      {
        deprecated: 'use example.com/better instead.',
        archived_by: 'go.mod Deprecated:',
        retracted: ['v1.3.0', '[v1.0.0, v1.0.5]'],
      },
    ],
    ['example.com/retracts', 'alive', { deprecated: null, retracted: ['v1.1.0'] }],
    [
      'github.com/BurntSushi/toml',
      'alive',
      { latest_version: 'v1.4.0', github: { repository: 'burntsushi/toml', last_commit: '2026-02-01T00:00:00Z' } },
    ],
    [
      'github.com/acme/vanished',
      'deleted',
      { deleted_by: 'github', github: { repository: 'acme/vanished', deleted: true } },
    ],
    [
      'github.com/acme/frozen/v2',
      'archived',
      { archived_by: 'github', github: { repository: 'acme/frozen', archived: true } },
    ],
    // GitHub failing adds nothing: the proxy's reading stands, and the evidence says GitHub was not read.
    [
      'github.com/acme/limited-repo',
      'alive',
      { latest_time: '2026-01-15T00:00:00Z', github: { repository: 'acme/limited-repo', unreachable: 'server_error' } },
    ],
    // The proxy never forgets: its not-found is no deletion.
    [
      'example.com/gone',
      'not_observed',
      { http_status: 404, unreachable: 'not_listed', message: expect.stringMatching(/^not found/) },
    ],
    ['example.com/gone-410', 'not_observed', { http_status: 410, unreachable: 'not_listed' }],
    ['example.com/never-existed', 'not_observed', { http_status: 404, unreachable: 'not_listed' }],
    ['example.com/limited', 'not_observed', { http_status: 429, unreachable: 'rate_limited' }],
    ['example.com/error', 'not_observed', { http_status: 503, unreachable: 'server_error' }],
    ['example.com/hangs', 'not_observed', { unreachable: 'timeout' }],
    ['example.com/resets', 'not_observed', { unreachable: 'network' }],
    ['example.com/malformed', 'not_observed', { unreachable: 'unparsable' }],
  ])('%s → %s', async (id, state, evidence) => {
    const { reading } = await read(id);
    expect(classify(reading.signals, TODAY)).toBe(state);
    expect(reading.evidence).toMatchObject(evidence);
    expect(reading.method).toMatch(/Go module proxy/);
  });

  it('asks the proxy with capitals escaped, as the go command does', async () => {
    const before = h.simulator.requests.length;
    await read('github.com/BurntSushi/toml');
    const paths = h.simulator.requests.slice(before).map((r) => r.path);
    expect(paths).toContain('/goproxy/github.com/!burnt!sushi/toml/@latest');
    expect(paths).toContain('/goproxy/github.com/!burnt!sushi/toml/@v/v1.4.0.mod');
    expect(paths).toContain('/github/repos/burntsushi/toml');
  });

  it('escapes module paths and finds the GitHub repository behind a module path', () => {
    expect(escapeModulePath('github.com/Azure/azure-sdk-for-go')).toBe('github.com/!azure/azure-sdk-for-go');
    expect(githubRepositoryOf('github.com/aws/aws-sdk-go-v2/service/s3')).toEqual({
      kind: 'github',
      id: 'aws/aws-sdk-go-v2',
    });
    expect(githubRepositoryOf('golang.org/x/net')).toBeNull();
    expect(githubRepositoryOf('github.com/onlyowner')).toBeNull();
  });
});
