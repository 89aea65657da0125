/**
 * GitHub repositories: repository metadata, then (when pushed_at does not already settle it)
 * the committer date of the default branch's head commit. Research §1, DESIGN §3. With a token,
 * reads go in GraphQL batches first (graphql-batch.ts) and come here for what a batch cannot settle.
 */
import { normaliseComponent, type ComponentRef } from '../../domain/component.js';
import type { EvidenceValue } from '../../domain/observation.js';
import type { HttpClient } from '../http/client.js';
import { activityAsOf, factsOrReading, redirectEvidence, unexpectedStatus, unreachableReading } from '../reading.js';
import type { Reading, UpstreamSource } from '../source.js';
import { classifyRepoResponse, isEmptyRepository, settledByRepository } from './classify-response.js';
import { COMMIT_FACTS, REPO_FACTS, type RepoFacts } from './facts.js';
import { GithubBatches } from './graphql-batch.js';

const REQUEST = { accept: 'application/vnd.github+json', headers: { 'x-github-api-version': '2022-11-28' } } as const;

export const GITHUB_METHODS = {
  repository: 'GitHub REST repository metadata (GET /repos/{owner}/{repo})',
  archived: 'GitHub REST repository metadata: the archived flag',
  pushedAt: 'GitHub REST repository metadata: pushed_at, more than 365 days old, bounds the last commit on any branch',
  commit:
    "GitHub REST: the committer date of the default branch's head commit (GET /repos/{owner}/{repo}/commits?per_page=1)",
  empty: 'GitHub REST: the repository has no commits (409 on /commits), so its age is counted from created_at',
} as const;

function repoPath(fullName: string): string {
  return fullName
    .split('/')
    .map((part) => encodeURIComponent(part))
    .join('/');
}

/**
 * The repository's new id when GitHub moved it: a 301 (rename or transfer) or an answer naming
 * another repository. A case-only difference is the same repository.
 */
function renameOf(ref: ComponentRef, facts: RepoFacts): ComponentRef | null {
  let now: ComponentRef;
  try {
    now = normaliseComponent('github', facts.full_name);
  } catch {
    return null;
  }
  // Either way it is the same repository under a new name: GitHub keys repositories by id.
  return now.id === ref.id ? null : now;
}

export interface GithubSourceOptions {
  /** Read in GraphQL batches (GraphQL answers only a request with a token); REST reads what a batch cannot. */
  graphql?: boolean;
  /** The clock a batch's rate-limit hold is measured by (the client's). */
  now?: () => number;
}

export function createGithubSource(
  client: HttpClient,
  base: string,
  options: GithubSourceOptions = {},
): UpstreamSource {
  const rest = (ref: ComponentRef, today: string) => readGithub(client, base, ref, today);
  if (!options.graphql) return { read: rest };
  const batches = new GithubBatches(client, base, rest, { now: options.now ?? Date.now });
  return { read: (ref, today) => batches.read(ref, today) };
}

async function readGithub(client: HttpClient, base: string, ref: ComponentRef, today: string): Promise<Reading> {
  const repo = factsOrReading(
    await client.get(`${base}/repos/${repoPath(ref.id)}`, { ...REQUEST, facts: REPO_FACTS }),
    GITHUB_METHODS.repository,
    classifyRepoResponse,
  );
  if (repo.kind === 'settled') return repo.reading;
  const f = repo.facts;
  const renamed = renameOf(ref, f);
  const evidence: Record<string, EvidenceValue> = {
    http_status: repo.status,
    repository_id: f.id,
    full_name: f.full_name,
    archived: f.archived,
    pushed_at: f.pushed_at,
    created_at: f.created_at,
    default_branch: f.default_branch,
    fork: f.fork,
    // Recorded, not a state: DESIGN §3 makes only a 404 or a block a deletion, and a disabled
    // repository still answers 200.
    disabled: f.disabled,
    ...redirectEvidence(repo.redirects),
    ...(renamed ? { renamed_from: `github:${ref.id}`, renamed_to: `github:${renamed.id}` } : {}),
  };
  const reading = (r: Omit<Reading, 'source' | 'renamed_to'>): Reading => ({
    ...r,
    source: repo.url,
    ...(renamed ? { renamed_to: renamed } : {}),
  });

  // Archived, or pushed too long ago to be anything but abandoned: the commit is not worth a request.
  const settled = settledByRepository(f, today);
  if (settled === 'archived')
    return reading({ signals: { archived: true }, evidence, method: GITHUB_METHODS.archived });
  if (settled === 'pushed_at') {
    const at = activityAsOf(f.pushed_at, today);
    return reading({
      signals: { lastActivity: at.lastActivity },
      evidence: { ...evidence, ...at.evidence },
      method: GITHUB_METHODS.pushedAt,
    });
  }

  // The name we validated, never a raw string from the answer, goes into the next URL.
  const commits = await client.get(`${base}/repos/${repoPath(renamed?.id ?? ref.id)}/commits?per_page=1`, {
    ...REQUEST,
    facts: COMMIT_FACTS,
  });
  if (commits.kind === 'unreachable') {
    const failed = unreachableReading(commits, GITHUB_METHODS.commit, evidence);
    return {
      ...failed,
      source: repo.url,
      ...(renamed ? { renamed_to: renamed } : {}),
      evidence: { ...failed.evidence, commits_source: commits.url },
    };
  }
  const empty = commits.kind === 'status' ? isEmptyRepository(commits) : !commits.facts.present;
  if (commits.kind === 'status' && !empty) {
    const v = unexpectedStatus(commits);
    return reading({
      signals: v.signals,
      evidence: { ...evidence, ...v.evidence, http_status: repo.status, commits_http_status: commits.status },
      method: GITHUB_METHODS.commit,
    });
  }
  if (empty) {
    const at = activityAsOf(f.created_at, today);
    return reading({
      signals: { lastActivity: at.lastActivity },
      evidence: { ...evidence, ...at.evidence, commits_http_status: commits.status, empty_repository: true },
      method: GITHUB_METHODS.empty,
    });
  }
  const head = commits.kind === 'facts' ? commits.facts : null;
  const at = activityAsOf(head?.committer_date ?? null, today);
  return reading({
    signals: { lastActivity: at.lastActivity },
    evidence: {
      ...evidence,
      ...at.evidence,
      commits_http_status: commits.status,
      last_commit: head?.committer_date ?? null,
      last_commit_sha: head?.sha ?? null,
    },
    method: GITHUB_METHODS.commit,
  });
}
