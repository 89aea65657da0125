/** What the npm registry's non-200 answers mean (research §2): only a 404 is a fact about the package. */
import { excerpt, unexpectedStatus, type StatusAnswer, type Verdict } from '../reading.js';

export function classifyPackumentResponse(answer: StatusAnswer): Verdict {
  // The registry's 404 {"error":"Not found"}: the package never existed (an unpublish answers 200).
  if (answer.status === 404)
    return { signals: { notFound: true }, evidence: { http_status: 404, message: excerpt(answer) } };
  return unexpectedStatus(answer);
}
