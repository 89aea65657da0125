/**
 * A repository read in a GraphQL batch, classified by the REST reader's rules (read.ts): archived,
 * then a pushed_at past the dormancy limit, then an empty repository's creation, then the default
 * branch head's committer date. The evidence keeps REST's field names where they mean the same, and
 * says it came from GraphQL and what was asked. What the batch does not settle (another name
 * answered, no head commit to date) is left to REST, which reads it as today.
 */
import { normaliseComponent, type ComponentRef } from '../../domain/component.js';
import type { EvidenceValue } from '../../domain/observation.js';
import { activityAsOf } from '../reading.js';
import type { Reading } from '../source.js';
import { settledByRepository } from './classify-response.js';
import { askedOf, type GraphqlRepo } from './graphql-answer.js';

const BATCHED = 'GitHub GraphQL repository, read in a batch (POST /graphql)';

export const GITHUB_GRAPHQL_METHODS = {
  archived: `${BATCHED}: isArchived`,
  pushedAt: `${BATCHED}: pushedAt, more than 365 days old, bounds the last commit on any branch`,
  commit: `${BATCHED}: the committedDate of the default branch's head commit`,
  empty: `${BATCHED}: isEmpty (the repository has no commits), so its age is counted from createdAt`,
  held: 'GitHub GraphQL (POST /graphql): held back by its rate limit, nothing asked',
} as const;

/** The reading a batch answer makes for `ref`, or why REST must read it instead. */
export function graphqlReading(
  ref: ComponentRef,
  repo: GraphqlRepo,
  today: string,
  source: string,
): Reading | { unresolved: string } {
  let answered: ComponentRef;
  try {
    answered = normaliseComponent('github', repo.full_name);
  } catch {
    return { unresolved: `nameWithOwner ${JSON.stringify(repo.full_name)} is not a repository name` };
  }
  // With followRenames off this is never another repository; if it is, REST's 301 says what happened.
  if (answered.id !== ref.id) return { unresolved: `answered for ${repo.full_name}` };
  const evidence: Record<string, EvidenceValue> = {
    http_status: 200,
    repository_id: repo.id,
    full_name: repo.full_name,
    archived: repo.archived,
    pushed_at: repo.pushed_at,
    created_at: repo.created_at,
    default_branch: repo.default_branch,
    fork: repo.fork,
    // Recorded, not a state: as on REST, a disabled repository still answers.
    disabled: repo.disabled,
    read_through: 'graphql',
    graphql_asked: askedOf(ref.id),
  };
  const settled = settledByRepository(repo, today);
  if (settled === 'archived')
    return { signals: { archived: true }, source, evidence, method: GITHUB_GRAPHQL_METHODS.archived };
  if (settled === 'pushed_at') {
    const at = activityAsOf(repo.pushed_at, today);
    return {
      signals: { lastActivity: at.lastActivity },
      source,
      evidence: { ...evidence, ...at.evidence },
      method: GITHUB_GRAPHQL_METHODS.pushedAt,
    };
  }
  if (repo.empty) {
    const at = activityAsOf(repo.created_at, today);
    return {
      signals: { lastActivity: at.lastActivity },
      source,
      evidence: { ...evidence, ...at.evidence, empty_repository: true },
      method: GITHUB_GRAPHQL_METHODS.empty,
    };
  }
  // Not empty, yet no head commit with a date (a ref to a tag, a null target): REST's /commits says.
  if (repo.head === null) return { unresolved: "the default branch's head has no committedDate" };
  const at = activityAsOf(repo.head.committer_date, today);
  return {
    signals: { lastActivity: at.lastActivity },
    source,
    evidence: {
      ...evidence,
      ...at.evidence,
      last_commit: repo.head.committer_date,
      last_commit_sha: repo.head.sha,
    },
    method: GITHUB_GRAPHQL_METHODS.commit,
  };
}
