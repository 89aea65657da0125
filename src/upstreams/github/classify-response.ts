/**
 * What GitHub's non-200 answers to `GET /repos/{owner}/{repo}` mean (research §1.1, §1.4, §1.7).
 * Rate limits (steps 1–3 of the 403/429 classifier), 401 and 5xx never reach here: the HTTP
 * client has already made them not_observed.
 */
import { daysBetween, utcDateOf } from '../../domain/calendar.js';
import type { EvidenceValue } from '../../domain/observation.js';
import { DORMANT_MAX_DAYS } from '../../domain/state.js';
import { excerpt, unexpectedStatus, type StatusAnswer, type Verdict } from '../reading.js';
import { registrysOwn } from '../not-found.js';

interface Block {
  reason?: unknown;
  created_at?: unknown;
  html_url?: unknown;
}

function blockOf(body: unknown): Block | null {
  if (typeof body !== 'object' || body === null) return null;
  const block = (body as { block?: unknown }).block;
  return typeof block === 'object' && block !== null ? block : null;
}

function blockEvidence(block: Block): Record<string, EvidenceValue> {
  const out: Record<string, EvidenceValue> = {};
  if (typeof block.reason === 'string') out['block_reason'] = block.reason.slice(0, 40);
  if (typeof block.created_at === 'string') out['block_created_at'] = block.created_at.slice(0, 40);
  if (typeof block.html_url === 'string') out['block_url'] = block.html_url.slice(0, 300);
  return out;
}

/** Its not-found only when it is the registry's own (not-found.ts). */
export function classifyRepoResponse(answer: StatusAnswer): Verdict {
  return registrysOwn(answer, readRepoResponse(answer));
}

function readRepoResponse(answer: StatusAnswer): Verdict {
  const message = excerpt(answer);
  switch (answer.status) {
    case 404:
      // Also what a private repository looks like from outside; the record's 404 is GitHub's word.
      return { signals: { notFound: true }, evidence: { http_status: 404, message } };
    case 451:
      return {
        signals: { notFound: true },
        evidence: { http_status: 451, message, ...blockEvidence(blockOf(answer.body) ?? {}) },
      };
    case 403: {
      // 4. A `block` body: the repository is blocked (ToS), which removes it for everyone.
      const block = blockOf(answer.body);
      if (block)
        return { signals: { notFound: true }, evidence: { http_status: 403, message, ...blockEvidence(block) } };
      // 5. Anything else is a permission problem on our side (trade controls, a token's scope): not a fact about the repository.
      return {
        signals: { unreachable: 'unauthorized' },
        evidence: { http_status: 403, message, unreachable: 'unauthorized' },
      };
    }
    default:
      return unexpectedStatus(answer);
  }
}

/** `/commits`: 409 is GitHub's "Git Repository is empty."; anything else unexpected asserts nothing. */
export function isEmptyRepository(answer: StatusAnswer): boolean {
  return answer.status === 409;
}

/**
 * What the repository's own metadata settles before its head commit is read, for REST and GraphQL
 * alike: archived beats any age; a pushed_at more than 365 days old is an upper bound on every commit
 * that reached GitHub (research §1.3), so the head commit can only be older still. Null: read the commit.
 */
export function settledByRepository(
  repo: { archived: boolean; pushed_at: string | null },
  today: string,
): 'archived' | 'pushed_at' | null {
  if (repo.archived) return 'archived';
  if (repo.pushed_at && daysBetween(utcDateOf(repo.pushed_at), today) > DORMANT_MAX_DAYS) return 'pushed_at';
  return null;
}
