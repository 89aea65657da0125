/** What the npm registry's non-200 answers mean (research §2): only a 404 is a fact about the package. */
import { excerpt, unexpectedStatus, type StatusAnswer, type Verdict } from '../reading.js';
import { registrysOwn } from '../not-found.js';

/** Its not-found only when it is the registry's own (not-found.ts). */
export function classifyPackumentResponse(answer: StatusAnswer): Verdict {
  return registrysOwn(answer, readPackumentResponse(answer));
}

function readPackumentResponse(answer: StatusAnswer): Verdict {
  // The registry's 404 {"error":"Not found"}: the package never existed (an unpublish answers 200).
  if (answer.status === 404)
    return { signals: { notFound: true }, evidence: { http_status: 404, message: excerpt(answer) } };
  return unexpectedStatus(answer);
}
