/**
 * What repo.packagist.org's non-200 answers mean (research upstreams-more §6.5): its static files
 * answer 404 `"404 not found, no packages here"` for a package it does not have. Packagist is the
 * only home of its names, so that is a deletion (a removed or frozen package answers the same).
 */
import { excerpt, unexpectedStatus, type StatusAnswer, type Verdict } from '../reading.js';
import { registrysOwn } from '../not-found.js';

/** Its not-found only when it is the registry's own (not-found.ts). */
export function classifyP2Response(answer: StatusAnswer): Verdict {
  return registrysOwn(answer, readP2Response(answer));
}

function readP2Response(answer: StatusAnswer): Verdict {
  if (answer.status === 404)
    return { signals: { notFound: true }, evidence: { http_status: 404, message: excerpt(answer) } };
  return unexpectedStatus(answer);
}
