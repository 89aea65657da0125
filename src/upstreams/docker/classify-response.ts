/** What Docker Hub's non-200 answers to a tag mean (research §5): a 404 is a missing tag or repository. */
import { excerpt, unexpectedStatus, type StatusAnswer, type Verdict } from '../reading.js';
import { registrysOwn } from '../not-found.js';

/** Its not-found only when it is the registry's own (not-found.ts). */
export function classifyTagResponse(answer: StatusAnswer): Verdict {
  return registrysOwn(answer, readTagResponse(answer));
}

function readTagResponse(answer: StatusAnswer): Verdict {
  if (answer.status === 404)
    return { signals: { notFound: true }, evidence: { http_status: 404, message: excerpt(answer) } };
  return unexpectedStatus(answer);
}
