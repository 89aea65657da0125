import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classify, type State } from '../../domain/state.js';
import { startHarness, type Harness } from '../../simulator/harness.js';
import type { GithubPhase } from '../../simulator/scenario-phases.js';
import type { Sources } from '../source.js';
import { stringContaining } from '../../../test/support/matchers.js';

const TODAY = '2026-03-01';
const FROM = '2024-01-01';
const repo = (extra: Omit<GithubPhase, 'from'>): GithubPhase[] => [
  { from: FROM, created_at: '2020-01-01T00:00:00Z', ...extra },
];

const COMPONENTS: Record<string, GithubPhase[]> = {
  'github:acme/alive': repo({ pushed_at: '2026-02-01T00:00:00Z', last_commit: '2026-01-15T09:30:00Z' }),
  // A recent push on some branch (a bot, a PR ref) is not default-branch activity.
  'github:acme/dormant': repo({ pushed_at: '2026-02-20T00:00:00Z', last_commit: '2025-06-01T00:00:00Z' }),
  'github:acme/abandoned-by-commit': repo({ pushed_at: '2025-12-01T00:00:00Z', last_commit: '2024-10-01T00:00:00Z' }),
  'github:acme/abandoned-by-push': repo({ pushed_at: '2024-06-01T00:00:00Z' }),
  'github:acme/archived': repo({ pushed_at: '2026-02-01T00:00:00Z', archived: true }),
  'github:acme/disabled': repo({ pushed_at: '2026-02-01T00:00:00Z', disabled: true }),
  'github:acme/future': repo({ pushed_at: '2026-02-01T00:00:00Z', last_commit: '2026-09-01T00:00:00Z' }),
  // pushed_at moves when a branch is pushed and deleted, so an empty repository can look recent.
  'github:acme/empty-old': [
    { from: FROM, fail: 'empty_repo', created_at: '2023-01-01T00:00:00Z', pushed_at: '2026-01-10T00:00:00Z' },
  ],
  'github:acme/empty-new': [{ from: FROM, fail: 'empty_repo', created_at: '2026-02-01T00:00:00Z' }],
  'github:acme/old-name': [
    { from: FROM, pushed_at: '2026-02-01T00:00:00Z', id: 4242 },
    { from: '2025-06-01', renamed_to: 'acme/new-name' },
  ],
  'github:acme/gone': repo({ fail: 'not_found' }),
  'github:acme/dmca': repo({ fail: 'dmca' }),
  'github:acme/tos': repo({ fail: 'tos_block' }),
  'github:acme/trade': repo({ fail: 'forbidden' }),
  'github:acme/limit-403': repo({ fail: 'rate_limit_403' }),
  'github:acme/limit-429': repo({ fail: 'rate_limit_429' }),
  'github:acme/secondary': repo({ fail: 'secondary_rate_limit' }),
  'github:acme/secondary-bare': repo({ fail: 'secondary_rate_limit_no_headers' }),
  'github:acme/unauthorized': repo({ fail: 'unauthorized' }),
  'github:acme/error-500': repo({ fail: 'server_error' }),
  'github:acme/error-503': repo({ fail: 'server_error', status: 503 }),
  'github:acme/hangs': repo({ fail: 'timeout' }),
  'github:acme/resets': repo({ fail: 'reset' }),
  'github:acme/malformed': repo({ fail: 'malformed' }),
  'github:acme/not-yet': [{ from: '2027-01-01', pushed_at: '2027-01-01T00:00:00Z' }],
};

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ scenario: { components: COMPONENTS }, today: TODAY });
});
afterAll(() => h.close());

async function read(id: string, sources: Sources = h.newSources()) {
  const reading = await sources.github.read({ kind: 'github', id }, TODAY);
  return { reading, state: classify(reading.signals, TODAY) };
}

describe('GitHub reader against the simulator', () => {
  it.each<[string, State, Record<string, unknown>]>([
    [
      'acme/alive',
      'alive',
      { http_status: 200, last_commit: '2026-01-15T09:30:00Z', commits_http_status: 200, archived: false },
    ],
    ['acme/dormant', 'dormant', { last_commit: '2025-06-01T00:00:00Z', pushed_at: '2026-02-20T00:00:00Z' }],
    ['acme/abandoned-by-commit', 'abandoned', { last_commit: '2024-10-01T00:00:00Z' }],
    ['acme/abandoned-by-push', 'abandoned', { pushed_at: '2024-06-01T00:00:00Z' }],
    ['acme/archived', 'archived', { archived: true }],
    ['acme/disabled', 'alive', { disabled: true }],
    ['acme/future', 'alive', { last_commit: '2026-09-01T00:00:00Z', activity_in_future: true }],
    [
      'acme/empty-old',
      'abandoned',
      { empty_repository: true, commits_http_status: 409, created_at: '2023-01-01T00:00:00Z' },
    ],
    ['acme/empty-new', 'alive', { empty_repository: true, commits_http_status: 409 }],
    ['acme/gone', 'deleted', { http_status: 404, message: 'Not Found' }],
    ['acme/not-yet', 'deleted', { http_status: 404 }],
    ['acme/dmca', 'deleted', { http_status: 451, block_reason: 'dmca' }],
    ['acme/tos', 'deleted', { http_status: 403, block_reason: 'tos' }],
    ['acme/trade', 'not_observed', { http_status: 403, unreachable: 'unauthorized' }],
    [
      'acme/limit-403',
      'not_observed',
      {
        http_status: 403,
        unreachable: 'rate_limited',
        ratelimit_remaining: 0,
        rate_limit_rule: 'x-ratelimit-remaining',
      },
    ],
    ['acme/limit-429', 'not_observed', { http_status: 429, unreachable: 'rate_limited', ratelimit_remaining: 0 }],
    [
      'acme/secondary',
      'not_observed',
      { http_status: 403, unreachable: 'rate_limited', retry_after: 60, rate_limit_rule: 'retry-after' },
    ],
    [
      'acme/secondary-bare',
      'not_observed',
      { http_status: 403, unreachable: 'rate_limited', rate_limit_rule: 'message' },
    ],
    ['acme/unauthorized', 'not_observed', { http_status: 401, unreachable: 'unauthorized' }],
    ['acme/error-500', 'not_observed', { http_status: 500, unreachable: 'server_error' }],
    ['acme/error-503', 'not_observed', { http_status: 503, unreachable: 'server_error' }],
    ['acme/hangs', 'not_observed', { unreachable: 'timeout' }],
    ['acme/resets', 'not_observed', { unreachable: 'network' }],
    ['acme/malformed', 'not_observed', { http_status: 200, unreachable: 'unparsable' }],
  ])('%s → %s', async (id, state, evidence) => {
    const { reading } = await read(id);
    expect(classify(reading.signals, TODAY)).toBe(state);
    expect(reading.evidence).toMatchObject(evidence);
    expect(reading.source.startsWith(`${h.simulator.urls.github}/`)).toBe(true);
    expect(reading.method).toMatch(/GitHub REST/);
    expect(reading.renamed_to).toBeUndefined();
  });

  it('short-cuts on pushed_at older than 365 days and archived, without asking for commits', async () => {
    const before = h.simulator.requests.length;
    await read('acme/abandoned-by-push');
    await read('acme/archived');
    const paths = h.simulator.requests.slice(before).map((r) => r.path);
    expect(paths).toEqual(['/github/repos/acme/abandoned-by-push', '/github/repos/acme/archived']);
  });

  it('follows a 301 rename to the new name, reads it, and records the rename (never a death)', async () => {
    const { reading, state } = await read('acme/old-name');
    expect(state).toBe('alive');
    expect(reading.renamed_to).toEqual({ kind: 'github', id: 'acme/new-name' });
    expect(reading.source).toBe(`${h.simulator.urls.github}/repositories/4242`);
    expect(reading.evidence).toMatchObject({
      renamed_from: 'github:acme/old-name',
      renamed_to: 'github:acme/new-name',
      full_name: 'acme/new-name',
      repository_id: 4242,
      redirects: [
        {
          status: 301,
          from: `${h.simulator.urls.github}/repos/acme/old-name`,
          to: `${h.simulator.urls.github}/repositories/4242`,
        },
      ],
    });
    // The new name answers too, as the same repository.
    const renamed = await read('acme/new-name');
    expect(renamed.state).toBe('alive');
    expect(renamed.reading.renamed_to).toBeUndefined();
  });

  it('keeps evidence to whole numbers and JSON values', async () => {
    for (const id of ['acme/alive', 'acme/limit-403', 'acme/hangs', 'acme/old-name']) {
      const { reading } = await read(id);
      const walk = (v: unknown): void => {
        if (typeof v === 'number') expect(Number.isSafeInteger(v)).toBe(true);
        else if (Array.isArray(v)) v.forEach(walk);
        else if (v && typeof v === 'object') Object.values(v).forEach(walk);
      };
      walk(reading.evidence);
    }
  });

  it('sends nothing more to GitHub while a rate limit runs: later reads are not_observed at once', async () => {
    const sources = h.newSources();
    const limited = await read('acme/limit-403', sources);
    expect(limited.state).toBe('not_observed');
    const before = h.simulator.requests.length;
    const next = await read('acme/alive', sources);
    expect(next.state).toBe('not_observed');
    expect(next.reading.signals.unreachable).toBe('rate_limited');
    expect(next.reading.evidence).toMatchObject({ rate_limited: stringContaining('not sent') });
    expect(next.reading.evidence['rate_limited_until']).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(h.simulator.requests.length).toBe(before);
    // Other upstreams are not held back by GitHub's limit.
    const npm = await sources.npm.read({ kind: 'npm', id: 'nothing-here' }, TODAY);
    expect(npm.signals).toEqual({ notFound: true });
  });

  it('a secondary limit with no headers holds GitHub back too (at least 60 s)', async () => {
    const sources = h.newSources();
    await read('acme/secondary-bare', sources);
    const next = await read('acme/alive', sources);
    expect(next.reading.signals.unreachable).toBe('rate_limited');
  });

  it('a 304 re-confirms the cached facts of both requests', async () => {
    const first = await read('acme/dormant');
    const before = h.simulator.requests.length;
    const second = await read('acme/dormant');
    const statuses = h.simulator.requests.slice(before).map((r) => [r.status, r.conditional]);
    expect(statuses).toEqual([
      [304, true],
      [304, true],
    ]);
    expect(second.state).toBe(first.state);
    expect(second.reading.signals).toEqual(first.reading.signals);
    expect(second.reading.evidence).toEqual({ ...first.reading.evidence, http_status: 304, commits_http_status: 304 });
  });
});

describe('GitHub primary rate limit from the simulator budget', () => {
  it('runs out after the hour budget; a rate limit is never a death', async () => {
    const limited = await startHarness({ scenario: { components: COMPONENTS, github_rate_limit: 3 }, today: TODAY });
    try {
      const sources = limited.newSources();
      const a = await sources.github.read({ kind: 'github', id: 'acme/alive' }, TODAY); // 2 requests
      const b = await sources.github.read({ kind: 'github', id: 'acme/dormant' }, TODAY); // the 3rd spends the budget
      expect(classify(a.signals, TODAY)).toBe('alive');
      // The answer said remaining 0: the commits request is not even sent.
      expect(classify(b.signals, TODAY)).toBe('not_observed');
      expect(b.evidence).toMatchObject({ unreachable: 'rate_limited', rate_limited_by: { ratelimit_remaining: 0 } });
      expect(limited.simulator.requests.map((r) => r.status)).toEqual([200, 200, 200]);
      // Fresh readers that do not know yet meet the 403 itself; it is never a death.
      const c = await limited.newSources().github.read({ kind: 'github', id: 'acme/gone' }, TODAY);
      expect(classify(c.signals, TODAY)).toBe('not_observed');
      expect(c.evidence).toMatchObject({
        http_status: 403,
        ratelimit_remaining: 0,
        ratelimit_limit: 3,
        unreachable: 'rate_limited',
      });
    } finally {
      await limited.close();
    }
  });
});
