import { afterEach, describe, expect, it } from 'vitest';
import type { Scenario } from './scenario.js';
import type { GithubPhase } from './scenario-phases.js';
import { startSimulator, type Simulator } from './server.js';

const TODAY = '2026-03-01';
const FROM = '2024-01-01';
const COMPONENTS: Record<string, GithubPhase[]> = {
  'github:acme/alive': [
    {
      from: FROM,
      created_at: '2020-01-01T00:00:00Z',
      pushed_at: '2026-02-01T00:00:00Z',
      last_commit: '2026-01-15T09:30:00Z',
    },
  ],
  'github:acme/archived': [{ from: FROM, pushed_at: '2026-02-01T00:00:00Z', archived: true }],
  'github:acme/empty': [{ from: FROM, fail: 'empty_repo', created_at: '2023-01-01T00:00:00Z' }],
  'github:acme/gone': [{ from: FROM, fail: 'not_found' }],
  'github:acme/broken': [{ from: FROM, fail: 'server_error' }],
  'github:acme/dmca': [{ from: FROM, fail: 'dmca' }],
  'github:acme/old-name': [
    { from: FROM, pushed_at: '2026-02-01T00:00:00Z', id: 4242 },
    { from: '2025-06-01', renamed_to: 'acme/new-name' },
  ],
};

let sim: Simulator | null = null;
afterEach(async () => {
  await sim?.close();
  sim = null;
});

async function start(extra: Omit<Scenario, 'components'> = {}): Promise<Simulator> {
  sim = await startSimulator({
    scenario: { ...extra, components: COMPONENTS },
    clock: () => new Date(`${TODAY}T12:00:00Z`),
    hangMs: 2_000,
  });
  return sim;
}

type GraphqlBody = {
  data?: Record<string, Record<string, unknown> | null>;
  errors?: { type?: string; message: string; path?: string[]; extensions?: Record<string, string> }[];
};

async function post(
  s: Simulator,
  query: string,
  variables: Record<string, unknown> = {},
  token: string | null = 'test-token',
): Promise<{ status: number; headers: Headers; body: GraphqlBody; text: string }> {
  const res = await fetch(`${s.urls.github}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const text = await res.text();
  let body: GraphqlBody = {};
  try {
    body = JSON.parse(text) as GraphqlBody;
  } catch {
    // A malformed answer is tested on its text.
  }
  return { status: res.status, headers: res.headers, body, text };
}

const FIELDS = `databaseId nameWithOwner isArchived isEmpty createdAt pushedAt defaultBranchRef { name target { ... on Commit { oid committedDate } } }`;
const RATE = 'rateLimit { cost remaining limit used resetAt }';

describe("the simulator's GitHub GraphQL endpoint", () => {
  it('answers aliased repositories with only the fields asked, and the same facts as REST', async () => {
    const s = await start();
    const { status, headers, body } = await post(
      s,
      `query($o: String!, $n: String!) { a: repository(owner: $o, name: $n) { ${FIELDS} } b: repository(owner: "acme", name: "archived") { isArchived } ${RATE} }`,
      { o: 'acme', n: 'alive' },
    );
    expect(status).toBe(200);
    expect(headers.get('x-ratelimit-resource')).toBe('graphql');
    expect(body.errors).toBeUndefined();
    const rest = (await (await fetch(`${s.urls.github}/repos/acme/alive`)).json()) as Record<string, unknown>;
    const commits = (await (await fetch(`${s.urls.github}/repos/acme/alive/commits?per_page=1`)).json()) as {
      sha: string;
      commit: { committer: { date: string } };
    }[];
    expect(body.data?.['a']).toEqual({
      databaseId: rest['id'],
      nameWithOwner: rest['full_name'],
      isArchived: false,
      isEmpty: false,
      createdAt: rest['created_at'],
      pushedAt: rest['pushed_at'],
      defaultBranchRef: {
        name: rest['default_branch'],
        target: { oid: commits[0]!.sha, committedDate: commits[0]!.commit.committer.date },
      },
    });
    expect(body.data?.['b']).toEqual({ isArchived: true });
    expect(body.data?.['rateLimit']).toEqual({
      cost: 1,
      remaining: 4999,
      limit: 5000,
      used: 1,
      resetAt: '2026-03-01T13:00:00Z',
    });
  });

  it('costs one point per 100 repositories, rounded up, and counts them down', async () => {
    const s = await start();
    const many = (n: number) =>
      `{ ${Array.from({ length: n }, (_, i) => `r${i}: repository(owner: "acme", name: "alive") { isArchived }`).join(' ')} ${RATE} }`;
    const costs = [];
    for (const n of [1, 100, 101, 250]) costs.push((await post(s, many(n))).body.data?.['rateLimit']);
    expect(costs.map((r) => r?.['cost'])).toEqual([1, 1, 2, 3]);
    expect(costs.at(-1)?.['remaining']).toBe(5000 - 7);
    expect(s.githubGraphql().points).toBe(7);
  });

  it('gives data.rX null and a NOT_FOUND error per repository it cannot resolve; a partial error for one REST fails', async () => {
    const s = await start();
    const { body } = await post(
      s,
      `{ r0: repository(owner: "acme", name: "gone") { isArchived } r1: repository(owner: "acme", name: "nothing") { isArchived } r2: repository(owner: "acme", name: "alive") { isArchived } r3: repository(owner: "acme", name: "broken") { isArchived } r4: repository(owner: "acme", name: "dmca") { isArchived } }`,
    );
    expect(body.data).toEqual({ r0: null, r1: null, r2: { isArchived: false }, r3: null, r4: null });
    expect(body.errors?.map((e) => [e.path, e.type])).toEqual([
      [['r0'], 'NOT_FOUND'],
      [['r1'], 'NOT_FOUND'],
      [['r3'], undefined],
      [['r4'], 'FORBIDDEN'],
    ]);
    expect(body.errors?.[0]?.message).toBe("Could not resolve to a Repository with the name 'acme/gone'.");
    expect(body.errors?.[2]?.message).toMatch(/^Something went wrong while executing your query/);
  });

  it('follows a rename unless followRenames is false, as GitHub does', async () => {
    const s = await start();
    const { body } = await post(
      s,
      `{ r0: repository(owner: "acme", name: "old-name") { databaseId nameWithOwner } r1: repository(owner: "acme", name: "old-name", followRenames: false) { nameWithOwner } r2: repository(owner: "acme", name: "new-name", followRenames: false) { nameWithOwner } }`,
    );
    expect(body.data).toEqual({
      r0: { databaseId: 4242, nameWithOwner: 'acme/new-name' },
      r1: null,
      r2: { nameWithOwner: 'acme/new-name' },
    });
    expect(body.errors?.map((e) => e.type)).toEqual(['NOT_FOUND']);
  });

  it('an empty repository is isEmpty with no default branch', async () => {
    const s = await start();
    const { body } = await post(
      s,
      `{ r0: repository(owner: "acme", name: "empty") { isEmpty defaultBranchRef { name } } }`,
    );
    expect(body.data?.['r0']).toEqual({ isEmpty: true, defaultBranchRef: null });
  });

  it('refuses an unknown field or a parse error with errors and no data, spending nothing', async () => {
    const s = await start();
    const unknown = await post(s, `{ r0: repository(owner: "acme", name: "alive") { isArchived stars } }`);
    expect(unknown.body.data).toBeUndefined();
    expect(unknown.body.errors?.[0]).toMatchObject({
      extensions: { code: 'undefinedField', typeName: 'Repository', fieldName: 'stars' },
      message: "Field 'stars' doesn't exist on type 'Repository'",
    });
    const broken = await post(s, `{ r0: repository(owner: "acme", name: "alive") { isArchived }`);
    expect(broken.status).toBe(200);
    expect(broken.body.errors?.[0]?.message).toMatch(/Parse error/);
    expect(s.githubGraphql().points).toBe(0);
  });

  it('asks for a token (401), and answers a GET with 405', async () => {
    const s = await start();
    expect((await post(s, `{ ${RATE} }`, {}, null)).status).toBe(401);
    expect((await fetch(`${s.urls.github}/graphql`)).status).toBe(405);
  });

  it('the primary limit: a 200 with RATE_LIMITED and x-ratelimit-remaining 0 once the hour is spent', async () => {
    const s = await start({ github_graphql: { points_per_hour: 2 } });
    expect((await post(s, `{ ${RATE} }`)).body.data?.['rateLimit']?.['remaining']).toBe(1);
    expect((await post(s, `{ ${RATE} }`)).body.data?.['rateLimit']?.['remaining']).toBe(0);
    const refused = await post(s, `{ ${RATE} }`);
    expect(refused.status).toBe(200);
    expect(refused.body.errors?.[0]?.type).toBe('RATE_LIMITED');
    expect(refused.body.data).toBeUndefined();
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('x-ratelimit-reset')).toBe(String(Date.parse('2026-03-01T13:00:00Z') / 1000));
  });

  it('the secondary limit: points per minute over it is a 403 with retry-after', async () => {
    const s = await start({ github_graphql: { points_per_minute: 1 } });
    expect((await post(s, `{ ${RATE} }`)).status).toBe(200);
    const refused = await post(s, `{ ${RATE} }`);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.body).toMatchObject({ message: expect.stringMatching(/secondary rate limit/) as unknown });
  });

  it.each([
    ['server_error', 502, /couldn't respond to your request in time/],
    ['malformed', 200, /^\{"name": "trunc$/],
    ['secondary_rate_limit', 403, /secondary rate limit/],
    ['secondary_rate_limit_200', 200, /secondary rate limit/],
    ['unauthorized', 401, /Bad credentials/],
  ] as const)('fails whole queries with %s, for fail_count queries only', async (fail, status, text) => {
    const s = await start({ github_graphql: { fail, fail_count: 1 } });
    const failed = await post(s, `{ ${RATE} }`);
    expect(failed.status).toBe(status);
    expect(failed.text).toMatch(text);
    const next = await post(s, `{ ${RATE} }`);
    expect(next.status).toBe(200);
    expect(next.body.data?.['rateLimit']?.['cost']).toBe(1);
  });
});
