import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classify, type State } from '../../domain/state.js';
import { startHarness, type Harness } from '../../simulator/harness.js';
import type { PypiPhase } from '../../simulator/scenario-phases.js';

const TODAY = '2026-03-01';
const project = (extra: Omit<PypiPhase, 'from'>): PypiPhase[] => [{ from: '2020-01-01', ...extra }];

const COMPONENTS: Record<string, PypiPhase[]> = {
  'pypi:alive': project({
    releases: { '1.0': '2024-06-14T14:37:56.383366Z', '1.1': '2026-01-06T22:37:10.868088Z', '0.1': [] },
  }),
  'pypi:dormant': project({ releases: { '1.0': '2025-06-01T00:00:00Z' } }),
  'pypi:abandoned': project({ releases: { '1.0': '2023-06-01T00:00:00Z' } }),
  // A newer release that was yanked is not activity.
  'pypi:yank-trap': project({
    releases: { '1.0': '2024-01-01T00:00:00Z', '2.0': '2026-02-01T00:00:00Z' },
    yanked: ['2.0'],
  }),
  'pypi:all-yanked': project({ fail: 'all_yanked', releases: { '1.0': '2025-01-01T00:00:00Z' } }),
  'pypi:no-files': project({ releases: { '1.0': [], '2.0': [] } }),
  'pypi:no-releases': project({ releases: {} }),
  'pypi:inactive': project({
    releases: { '1.0': '2026-01-01T00:00:00Z' },
    classifiers: ['Development Status :: 7 - Inactive'],
  }),
  'pypi:archived': project({
    releases: { '1.0': '2026-01-01T00:00:00Z' },
    project_status: 'archived',
    project_status_reason: 'moved to new-thing',
  }),
  'pypi:deprecated': project({ releases: { '1.0': '2026-01-01T00:00:00Z' }, project_status: 'deprecated' }),
  'pypi:quarantined': project({ releases: { '1.0': '2026-01-01T00:00:00Z' }, project_status: 'quarantined' }),
  'pypi:gone': project({ fail: 'not_found' }),
  'pypi:limited': project({ fail: 'rate_limit_429' }),
  'pypi:error': project({ fail: 'server_error' }),
  'pypi:hangs': project({ fail: 'timeout' }),
  'pypi:resets': project({ fail: 'reset' }),
  'pypi:malformed': project({ fail: 'malformed' }),
  'pypi:unauthorized': project({ fail: 'unauthorized' }),
};

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ scenario: { components: COMPONENTS }, today: TODAY });
});
afterAll(() => h.close());

async function read(id: string) {
  const reading = await h.newSources().pypi.read({ kind: 'pypi', id }, TODAY);
  return { reading, state: classify(reading.signals, TODAY) };
}

describe('PyPI reader against the simulator', () => {
  it.each<[string, State, Record<string, unknown>]>([
    [
      'alive',
      'alive',
      {
        http_status: 200,
        last_upload: '2026-01-06T22:37:10.868088Z',
        last_upload_version: '1.1',
        project_status: 'active',
        files: 2,
      },
    ],
    ['dormant', 'dormant', { last_upload: '2025-06-01T00:00:00Z' }],
    ['abandoned', 'abandoned', { last_upload: '2023-06-01T00:00:00Z' }],
    ['yank-trap', 'abandoned', { last_upload: '2024-01-01T00:00:00Z', yanked_files: 1 }],
    // Every file yanked answers 200: the maintainers' declaration, never a deletion.
    ['all-yanked', 'archived', { http_status: 200, all_yanked: true, files: 1, yanked_files: 1 }],
    // Releases without files date nothing: no state is asserted.
    ['no-files', 'not_observed', { http_status: 200, no_files: true, files: 0 }],
    ['no-releases', 'deleted', { http_status: 404 }],
    ['inactive', 'archived', { classifier_inactive: true }],
    [
      'archived',
      'archived',
      { project_status: 'archived', project_status_reason: 'moved to new-thing', simple_api_version: '1.4' },
    ],
    ['deprecated', 'archived', { project_status: 'deprecated' }],
    ['quarantined', 'deleted', { http_status: 404 }],
    ['gone', 'deleted', { http_status: 404, message: 'Not Found' }],
    ['never-existed', 'deleted', { http_status: 404 }],
    ['limited', 'not_observed', { http_status: 429, unreachable: 'rate_limited' }],
    ['error', 'not_observed', { http_status: 500, unreachable: 'server_error' }],
    ['hangs', 'not_observed', { unreachable: 'timeout' }],
    ['resets', 'not_observed', { unreachable: 'network' }],
    ['malformed', 'not_observed', { unreachable: 'unparsable' }],
    ['unauthorized', 'not_observed', { unreachable: 'unauthorized' }],
  ])('%s → %s', async (id, state, evidence) => {
    const { reading } = await read(id);
    expect(classify(reading.signals, TODAY)).toBe(state);
    expect(reading.evidence).toMatchObject(evidence);
    expect(reading.method).toMatch(/PyPI JSON API/);
  });

  it('cites the project JSON it read for an all-yanked project, and reads nothing more', async () => {
    const { reading } = await read('all-yanked');
    expect(reading.source).toBe(`${h.simulator.urls.pypi}/pypi/all-yanked/json`);
    expect(h.simulator.requests.some((r) => r.path.startsWith('/pypi/simple/all-yanked'))).toBe(false);
  });

  it('asks the Simple API for its JSON form and reads PEP 792 status from it', async () => {
    const { reading } = await read('archived');
    expect(reading.source).toBe(`${h.simulator.urls.pypi}/simple/archived/`);
    expect(
      h.simulator.requests
        .filter((r) => r.path.startsWith('/pypi/simple/archived'))
        .every((r) => r.status === 200 || r.status === 304),
    ).toBe(true);
  });

  it('follows the PEP 503 redirect of a name that is not normalised', async () => {
    const reading = await h.newSources().pypi.read({ kind: 'pypi', id: 'Alive' }, TODAY);
    expect(classify(reading.signals, TODAY)).toBe('alive');
    expect(reading.source).toBe(`${h.simulator.urls.pypi}/pypi/alive/json`);
    expect(reading.evidence['redirects']).toEqual([
      { status: 301, from: `${h.simulator.urls.pypi}/pypi/Alive/json`, to: `${h.simulator.urls.pypi}/pypi/alive/json` },
    ]);
  });

  it('a second read of an unchanged project is 304s with the same facts', async () => {
    const first = await read('dormant');
    const before = h.simulator.requests.length;
    const second = await read('dormant');
    expect(h.simulator.requests.slice(before).map((r) => [r.status, r.conditional])).toEqual([
      [304, true],
      [304, true],
    ]);
    expect(second.reading.signals).toEqual(first.reading.signals);
    expect(second.reading.evidence).toEqual({ ...first.reading.evidence, http_status: 304 });
  });
});
