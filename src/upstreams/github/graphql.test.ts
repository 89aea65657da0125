import { afterEach, describe, expect, it } from 'vitest';
import { classify } from '../../domain/state.js';
import { startHarness, type Harness } from '../../simulator/harness.js';
import type { Scenario } from '../../simulator/scenario.js';
import type { GithubPhase } from '../../simulator/scenario-phases.js';
import { heldBackUntil } from '../reading.js';
import type { Reading, Sources } from '../source.js';
import { RESERVE_POINTS } from './graphql-batch.js';

const TODAY = '2026-03-01';
const FROM = '2024-01-01';
const TOKEN = 'test-token';
const base = { from: FROM, created_at: '2020-01-01T00:00:00Z' };

/** One of each life a repository can be in, by index. */
const LIVES: GithubPhase[] = [
  { ...base, pushed_at: '2026-02-01T00:00:00Z', last_commit: '2026-01-15T09:30:00Z' }, // alive
  { ...base, pushed_at: '2026-02-20T00:00:00Z', last_commit: '2025-06-01T00:00:00Z' }, // dormant
  { ...base, pushed_at: '2025-12-01T00:00:00Z', last_commit: '2024-10-01T00:00:00Z' }, // abandoned by its commit
  { ...base, pushed_at: '2024-06-01T00:00:00Z' }, // abandoned by its push
  { ...base, pushed_at: '2026-02-01T00:00:00Z', archived: true },
  { ...base, fail: 'empty_repo', created_at: '2023-01-01T00:00:00Z', pushed_at: '2026-01-10T00:00:00Z' },
  { ...base, pushed_at: '2026-02-01T00:00:00Z', disabled: true, fork: true },
  { ...base, pushed_at: '2026-02-01T00:00:00Z', last_commit: '2026-09-01T00:00:00Z' }, // a commit dated in the future
];

const SPECIAL: Record<string, GithubPhase[]> = {
  'github:acme/old-name': [
    { from: FROM, pushed_at: '2026-02-01T00:00:00Z', id: 4242 },
    { from: '2025-06-01', renamed_to: 'acme/new-name' },
  ],
  'github:acme/gone': [{ ...base, fail: 'not_found' }],
  'github:acme/dmca': [{ ...base, fail: 'dmca' }],
  'github:acme/empty-new': [{ from: FROM, fail: 'empty_repo', created_at: '2026-02-01T00:00:00Z' }],
  'github:acme/not-yet': [{ from: '2027-01-01', pushed_at: '2027-01-01T00:00:00Z' }],
  'github:acme/broken': [{ ...base, fail: 'server_error' }],
};
const ids = [
  ...Array.from({ length: 250 - Object.keys(SPECIAL).length }, (_, i) => `acme/repo-${i}`),
  ...Object.keys(SPECIAL).map((k) => k.slice('github:'.length)),
];
const COMPONENTS: Record<string, GithubPhase[]> = {
  ...Object.fromEntries(
    ids.slice(0, -Object.keys(SPECIAL).length).map((id, i) => [`github:${id}`, [LIVES[i % LIVES.length]!]]),
  ),
  ...SPECIAL,
};

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

async function harness(extra: Omit<Scenario, 'components'> = {}, timeoutMs = 2_000): Promise<Harness> {
  h = await startHarness({ scenario: { ...extra, components: COMPONENTS }, today: TODAY, timeoutMs });
  return h;
}

const readAll = (sources: Sources, names: string[]) =>
  Promise.all(names.map((id) => sources.github.read({ kind: 'github', id }, TODAY)));
/** Seconds from now until the read is due again; NaN when it was no deferral. */
const heldFor = (r: Reading) => (Date.parse(heldBackUntil(r) ?? '') - Date.now()) / 1000;
const graphqlRequests = (x: Harness) => x.simulator.requests.filter((r) => r.path === '/github/graphql');
const restRequests = (x: Harness) => x.simulator.requests.filter((r) => r.path !== '/github/graphql');
/** The facts both readers keep under the same names. */
const SHARED = [
  'repository_id',
  'full_name',
  'archived',
  'pushed_at',
  'created_at',
  'default_branch',
  'fork',
  'disabled',
  'last_commit',
  'last_commit_sha',
  'empty_repository',
  'activity_in_future',
  'renamed_to',
  'renamed_from',
];
const shared = (r: Reading) =>
  Object.fromEntries(
    SHARED.filter((k) => k in r.evidence)
      // An empty repository has a default branch setting (REST) but no default branch ref (GraphQL).
      .filter((k) => !(k === 'default_branch' && r.evidence['empty_repository'] === true))
      .map((k) => [k, r.evidence[k]]),
  );

describe('GitHub in GraphQL batches, against the simulator', () => {
  it('reads 250 repositories in 3 queries, with the states and facts REST gives', async () => {
    const x = await harness();
    const batched = await readAll(x.newSources({ githubToken: TOKEN }), ids);
    expect(graphqlRequests(x)).toHaveLength(3);
    expect(graphqlRequests(x).every((r) => r.method === 'POST' && r.status === 200)).toBe(true);
    expect(x.simulator.githubGraphql().points).toBe(3);
    // Only what a batch cannot settle went to REST: the rename, the deletions, the failure.
    const restPaths = restRequests(x).map((r) => r.path);
    for (const id of ['acme/old-name', 'acme/gone', 'acme/dmca', 'acme/not-yet', 'acme/broken'])
      expect(restPaths).toContain(`/github/repos/${id}`);
    expect(restPaths.some((p) => p.includes('/repo-'))).toBe(false);

    const rest = await readAll(x.newSources({ githubToken: null }), ids);
    const states = (rs: Reading[]) => rs.map((r) => classify(r.signals, TODAY));
    expect(states(batched)).toEqual(states(rest));
    expect(new Set(states(batched))).toEqual(
      new Set(['alive', 'dormant', 'abandoned', 'archived', 'deleted', 'not_observed']),
    );
    batched.forEach((b, i) => {
      expect(shared(b), ids[i]).toEqual(shared(rest[i]!));
      expect(b.renamed_to).toEqual(rest[i]!.renamed_to);
    });
  });

  it('says in the evidence that a reading came from GraphQL and what was asked', async () => {
    const x = await harness();
    const [alive, archived, empty] = await readAll(x.newSources({ githubToken: TOKEN }), [
      'acme/repo-0',
      'acme/repo-4',
      'acme/empty-new',
    ]);
    expect(graphqlRequests(x)).toHaveLength(1);
    expect(restRequests(x)).toHaveLength(0);
    expect(alive!.source).toBe(`${x.simulator.urls.github}/graphql`);
    expect(alive!.method).toMatch(/^GitHub GraphQL .*committedDate/);
    expect(alive!.evidence).toMatchObject({
      http_status: 200,
      read_through: 'graphql',
      graphql_asked: 'repository(owner: "acme", name: "repo-0", followRenames: false)',
      last_commit: '2026-01-15T09:30:00Z',
    });
    expect(alive!.evidence['last_commit_sha']).toMatch(/^[0-9a-f]{40}$/);
    expect(classify(archived!.signals, TODAY)).toBe('archived');
    expect(archived!.method).toMatch(/isArchived/);
    expect(classify(empty!.signals, TODAY)).toBe('alive');
    expect(empty!.evidence).toMatchObject({ empty_repository: true, created_at: '2026-02-01T00:00:00Z' });
  });

  it('reads a NOT_FOUND alias through REST, which tells a rename from a deletion', async () => {
    const x = await harness();
    const [renamed, gone] = await readAll(x.newSources({ githubToken: TOKEN }), ['acme/old-name', 'acme/gone']);
    expect(classify(renamed!.signals, TODAY)).toBe('alive');
    expect(renamed!.renamed_to).toEqual({ kind: 'github', id: 'acme/new-name' });
    expect(renamed!.method).toMatch(/GitHub REST/);
    expect(renamed!.evidence).toMatchObject({
      renamed_from: 'github:acme/old-name',
      renamed_to: 'github:acme/new-name',
      repository_id: 4242,
      graphql_fallback: "NOT_FOUND: Could not resolve to a Repository with the name 'acme/old-name'.",
      redirects: [{ status: 301, from: `${x.simulator.urls.github}/repos/acme/old-name` }],
    });
    expect(classify(gone!.signals, TODAY)).toBe('deleted');
    expect(gone!.evidence).toMatchObject({
      http_status: 404,
      graphql_fallback: expect.stringMatching(/^NOT_FOUND/) as unknown,
    });
  });

  it.each([
    ['server_error', 'server_error (HTTP 502)'],
    ['timeout', 'timeout'],
    ['reset', 'network'],
    ['malformed', 'unparsable (HTTP 200)'],
    ['unauthorized', 'unauthorized (HTTP 401)'],
  ] as const)('a whole batch failing with %s is read through REST, never a false state', async (fail, why) => {
    const x = await harness({ github_graphql: { fail } }, 400);
    const names = ['acme/repo-0', 'acme/repo-1', 'acme/repo-4', 'acme/gone'];
    const readings = await readAll(x.newSources({ githubToken: TOKEN }), names);
    expect(readings.map((r) => classify(r.signals, TODAY))).toEqual(['alive', 'dormant', 'archived', 'deleted']);
    for (const r of readings) {
      expect(r.method).toMatch(/GitHub REST/);
      expect(r.evidence['graphql_fallback']).toBe(`the batch failed: ${why}`);
    }
    expect(graphqlRequests(x)).toHaveLength(1);
  });

  it.each([
    ['secondary_rate_limit', 'a 403 with retry-after'],
    ['secondary_rate_limit_200', 'a 200 whose error says so'],
  ] as const)('a secondary limit (%s: %s) defers every read in the batch and holds the next', async (fail, _shape) => {
    const x = await harness({ github_graphql: { fail } });
    const sources = x.newSources({ githubToken: TOKEN });
    const readings = await readAll(sources, ['acme/repo-0', 'acme/gone']);
    for (const r of readings) {
      expect(classify(r.signals, TODAY)).toBe('not_observed');
      // The observer reads a deferred read again when the hold ends, and records nothing now.
      expect(heldFor(r)).toBeCloseTo(60, -1);
    }
    expect(restRequests(x)).toHaveLength(0);
    const before = x.simulator.requests.length;
    const next = await sources.github.read({ kind: 'github', id: 'acme/repo-1' }, TODAY);
    expect(heldBackUntil(next)).not.toBeNull();
    expect(x.simulator.requests.length).toBe(before);
  });

  it('the primary limit spent (RATE_LIMITED) defers until the window resets, never a false state', async () => {
    const x = await harness({ github_graphql: { points_per_hour: 1 } });
    const sources = x.newSources({ githubToken: TOKEN });
    const first = await sources.github.read({ kind: 'github', id: 'acme/repo-0' }, TODAY);
    expect(classify(first.signals, TODAY)).toBe('alive');
    // That query left nothing: the next is not even sent, and REST is held too (x-ratelimit-remaining 0).
    const [held, gone] = await readAll(sources, ['acme/repo-1', 'acme/gone']);
    // The simulator stands at 12:00 and the window resets at 13:00: an hour, on our clock.
    expect(heldFor(held!)).toBeCloseTo(3600, -1);
    expect(heldFor(gone!)).toBeCloseTo(3600, -1);
    expect(graphqlRequests(x)).toHaveLength(1);
    expect(restRequests(x)).toHaveLength(0);
    // A reader that did not know meets the RATE_LIMITED answer itself, and defers as well.
    const fresh = await x.newSources({ githubToken: TOKEN }).github.read({ kind: 'github', id: 'acme/gone' }, TODAY);
    expect(classify(fresh.signals, TODAY)).toBe('not_observed');
    expect(heldFor(fresh)).toBeCloseTo(3600, -1);
    expect(fresh.evidence['rate_limited_by']).toMatchObject({
      graphql_error: expect.stringMatching(/^RATE_LIMITED/) as unknown,
    });
    expect(restRequests(x)).toHaveLength(0);
  });

  it('reads the cost from rateLimit, and holds back while remaining is below the next cost and the reserve', async () => {
    const x = await harness({ github_graphql: { points_per_hour: RESERVE_POINTS + 2 } });
    const sources = x.newSources({ githubToken: TOKEN });
    const one = await sources.github.read({ kind: 'github', id: 'acme/repo-0' }, TODAY);
    expect(classify(one.signals, TODAY)).toBe('alive');
    const two = await sources.github.read({ kind: 'github', id: 'acme/repo-1' }, TODAY);
    expect(classify(two.signals, TODAY)).toBe('dormant');
    expect(graphqlRequests(x)).toHaveLength(2);
    const three = await sources.github.read({ kind: 'github', id: 'acme/repo-2' }, TODAY);
    expect(graphqlRequests(x)).toHaveLength(2);
    expect(heldFor(three)).toBeCloseTo(3600, -1);
    expect(three.evidence['rate_limited_by']).toEqual({
      graphql_remaining: RESERVE_POINTS,
      graphql_cost: 1,
      graphql_reset_at: '2026-03-01T13:00:00Z',
      rate_limit_rule: `rateLimit.remaining below the next batch's cost and a reserve of ${RESERVE_POINTS} points`,
    });
  });

  it('without a token, nothing is asked of GraphQL: REST as before', async () => {
    const x = await harness();
    const readings = await readAll(x.newSources({ githubToken: null }), ['acme/repo-0', 'acme/repo-4']);
    expect(readings.map((r) => classify(r.signals, TODAY))).toEqual(['alive', 'archived']);
    expect(graphqlRequests(x)).toHaveLength(0);
    expect(readings.every((r) => /GitHub REST/.test(r.method))).toBe(true);
  });

  it('the same repository asked twice at once is one alias in one query', async () => {
    const x = await harness();
    const [a, b] = await readAll(x.newSources({ githubToken: TOKEN }), ['acme/repo-0', 'acme/repo-0']);
    expect(a).toEqual(b);
    expect(x.simulator.githubGraphql().points).toBe(1);
    expect(graphqlRequests(x)).toHaveLength(1);
  });
});
