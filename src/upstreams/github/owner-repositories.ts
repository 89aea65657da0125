/**
 * An owner's public repositories, for discovery (DESIGN §3): what an org read queues. One page of
 * `GET /users/{owner}/repos` (users and organisations alike), the most recently pushed first, own
 * repositories only: the ones a reader asking about the owner most likely means. A 404 means the
 * owner is not public, and the name is forgotten.
 */
import type { EvidenceValue } from '../../domain/observation.js';
import type { HttpClient } from '../http/client.js';
import type { OwnerRepositories } from '../source.js';
import type { FactsSpec } from '../http/facts-spec.js';
import { heldBackUntil, unreachableReading } from '../reading.js';

/** One page: GitHub's largest. An owner with more is asked about in full by its repositories' own reads. */
export const OWNER_PAGE = 100;

export const REPOS_FACTS: FactsSpec<EvidenceValue> = {
  version: 'github-owner-repos/1',
  from: import.meta.url,
  extract(body) {
    if (!Array.isArray(body)) return 'the repository list is not a JSON list';
    return body
      .map((r) => (typeof r === 'object' && r !== null ? (r as Record<string, unknown>) : {}))
      .filter((r) => r['fork'] !== true && typeof r['full_name'] === 'string')
      .map((r) => String(r['full_name']).slice(0, 200))
      .slice(0, OWNER_PAGE);
  },
};

export function createOwnerRepositories(client: HttpClient, base: string): OwnerRepositories {
  return {
    async list(owner) {
      const answer = await client.get(
        `${base}/users/${encodeURIComponent(owner)}/repos?type=owner&sort=pushed&per_page=${OWNER_PAGE}`,
        {
          accept: 'application/vnd.github+json',
          headers: { 'x-github-api-version': '2022-11-28' },
          facts: REPOS_FACTS,
        },
      );
      if (answer.kind === 'facts')
        return {
          kind: 'repositories',
          names: (answer.facts as unknown[]).filter((n): n is string => typeof n === 'string'),
        };
      if (answer.kind === 'status' && answer.status === 404) return { kind: 'not_found' };
      if (answer.kind === 'unreachable')
        return { kind: 'failed', retryAt: heldBackUntil(unreachableReading(answer, 'owner listing')) };
      return { kind: 'failed', retryAt: null };
    },
  };
}
