import { describe, expect, it } from 'vitest';
import { BATCH_FACTS, batchQuery, type BatchFacts } from './graphql-answer.js';
import { graphqlReading } from './graphql-reading.js';

const node = (extra: Record<string, unknown> = {}) => ({
  databaseId: 7,
  nameWithOwner: 'acme/alive',
  isArchived: false,
  isDisabled: false,
  isFork: false,
  isEmpty: false,
  createdAt: '2020-01-01T00:00:00Z',
  pushedAt: '2026-02-01T00:00:00Z',
  defaultBranchRef: {
    name: 'main',
    target: { __typename: 'Commit', oid: 'a'.repeat(40), committedDate: '2026-01-15T09:30:00Z' },
  },
  ...extra,
});

const headers = (h: Record<string, string> = {}) => new Headers({ date: 'Sun, 01 Mar 2026 12:00:00 GMT', ...h });
const extract = (body: unknown, h = headers()) => BATCH_FACTS.extract(body, h) as BatchFacts;

describe('a GraphQL batch answer', () => {
  it('passes names as variables, never in the query text', () => {
    const { query, variables } = batchQuery(['acme/alive', 'evil/x") { id } #']);
    expect(variables).toEqual({ o0: 'acme', n0: 'alive', o1: 'evil', n1: 'x") { id } #' });
    expect(query).not.toContain('evil');
    expect(query).toContain('r1: repository(owner: $o1, name: $n1, followRenames: false)');
  });

  it('leaves to REST a node with a field GitHub never leaves null, and an alias a partial error names', () => {
    const facts = extract({
      data: { r0: node({ isArchived: null }), r1: node(), r2: null, r3: node({ createdAt: null }) },
      errors: [
        { path: ['r1', 'defaultBranchRef', 'target'], message: 'Something went wrong while executing your query.' },
      ],
    });
    expect(facts.repositories['r0']).toEqual({ unresolved: 'isArchived is not a boolean' });
    expect(facts.repositories['r1']).toEqual({ unresolved: 'ERROR: Something went wrong while executing your query.' });
    expect(facts.repositories['r2']).toEqual({ unresolved: 'null in data, with no error naming it' });
    expect(facts.repositories['r3']).toEqual({ unresolved: 'createdAt is not an instant' });
  });

  it('reads rateLimit, and how long until it resets by the answer’s own clock', () => {
    const facts = extract({
      data: { rateLimit: { cost: 1, remaining: 4321, limit: 5000, resetAt: '2026-03-01T12:40:00Z' } },
    });
    expect(facts.rate_limit).toEqual({
      cost: 1,
      remaining: 4321,
      limit: 5000,
      reset_at: '2026-03-01T12:40:00Z',
      reset_in_seconds: 2400,
    });
    // A refused query has no data: its headers still say.
    const refused = extract(
      { errors: [{ type: 'RATE_LIMITED', message: 'API rate limit already exceeded for user ID 1.' }] },
      headers({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Date.parse('2026-03-01T13:00:00Z') / 1000) }),
    );
    expect(refused.rate_limit).toMatchObject({
      remaining: 0,
      reset_at: '2026-03-01T13:00:00Z',
      reset_in_seconds: 3600,
    });
    expect(refused.errors).toEqual([
      { type: 'RATE_LIMITED', message: 'API rate limit already exceeded for user ID 1.' },
    ]);
  });

  it('refuses what is no GraphQL answer', () => {
    expect(BATCH_FACTS.extract([], headers())).toMatch(/not a GraphQL answer/);
    expect(BATCH_FACTS.extract({ data: 'x' }, headers())).toMatch(/data is not an object/);
  });
});

describe('a batch reading', () => {
  const ref = { kind: 'github', id: 'acme/alive' } as const;
  const repoOf = (n: Record<string, unknown>) => {
    const found = extract({ data: { r0: n } }).repositories['r0']!;
    if (!('repo' in found)) throw new Error(found.unresolved);
    return found.repo;
  };

  it('leaves to REST a default branch whose head is no commit, and another name than asked', () => {
    const tag = repoOf(node({ defaultBranchRef: { name: 'main', target: { __typename: 'Tag' } } }));
    expect(graphqlReading(ref, tag, '2026-03-01', 'u')).toEqual({
      unresolved: "the default branch's head has no committedDate",
    });
    const other = repoOf(node({ nameWithOwner: 'acme/other' }));
    expect(graphqlReading(ref, other, '2026-03-01', 'u')).toEqual({ unresolved: 'answered for acme/other' });
  });

  it('a case-only difference is the same repository', () => {
    const reading = graphqlReading(ref, repoOf(node({ nameWithOwner: 'Acme/Alive' })), '2026-03-01', 'u');
    expect(reading).toMatchObject({ signals: { lastActivity: '2026-01-15T09:30:00Z' } });
  });
});
