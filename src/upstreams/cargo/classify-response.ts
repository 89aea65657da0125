/**
 * What crates.io's non-200 answers mean (research upstreams-more §3.5): the sparse index answers
 * 404, 410 or 451 for a crate it does not have, and crates.io is the only home of its names, so
 * that is a deletion. A 403 is crates.io refusing the client (its User-Agent or crawler policy).
 */
import { excerpt, unexpectedStatus, type StatusAnswer, type Verdict } from '../reading.js';
import { registrysOwn } from '../not-found.js';

/** Its not-found only when it is the registry's own (not-found.ts). */
export function classifyIndexResponse(answer: StatusAnswer): Verdict {
  return registrysOwn(answer, readIndexResponse(answer));
}

function readIndexResponse(answer: StatusAnswer): Verdict {
  if (answer.status === 404 || answer.status === 410 || answer.status === 451)
    return { signals: { notFound: true }, evidence: { http_status: answer.status, message: excerpt(answer) } };
  if (answer.status === 403)
    return {
      signals: { unreachable: 'unauthorized' },
      evidence: { http_status: 403, unreachable: 'unauthorized', message: excerpt(answer) },
    };
  return unexpectedStatus(answer);
}
