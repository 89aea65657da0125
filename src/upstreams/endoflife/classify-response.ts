/** What endoflife.date's non-200 answers mean (research §4.2). */
import { unexpectedStatus, type StatusAnswer, type Verdict } from '../reading.js';

/**
 * A 404 (an HTML page, not JSON) says the listing has no such product: nothing can be said
 * about end-of-life, which is not the same as "not end-of-life". Null for that case.
 */
export function classifyProductResponse(answer: StatusAnswer): Verdict | null {
  if (answer.status === 404) return null;
  return unexpectedStatus(answer);
}
