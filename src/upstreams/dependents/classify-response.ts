/** What the dependents source's non-200 answers mean: never a count, and never zero. */
import type { EvidenceValue } from '../../domain/observation.js';
import { excerpt, unexpectedStatus, type StatusAnswer } from '../reading.js';

export function classifyPackageResponse(answer: StatusAnswer): Record<string, EvidenceValue> {
  // A 404 means the source has not indexed the package: unknown, which is not "no dependents".
  if (answer.status === 404) return { http_status: 404, message: excerpt(answer), not_indexed: true };
  return unexpectedStatus(answer).evidence;
}
