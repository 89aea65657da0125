/**
 * What nuget.org's non-200 answers mean (research upstreams-more §5.5): its registration blobs
 * answer 404 (Azure's `BlobNotFound`) for a package id it has no version of. nuget.org is the only
 * home of its ids, so that is a deletion (deletions there are rare; owners unlist instead).
 */
import { excerpt, unexpectedStatus, type StatusAnswer, type Verdict } from '../reading.js';
import { registrysOwn } from '../not-found.js';

/** Its not-found only when it is the registry's own (not-found.ts). */
export function classifyRegistrationResponse(answer: StatusAnswer): Verdict {
  return registrysOwn(answer, readRegistrationResponse(answer));
}

function readRegistrationResponse(answer: StatusAnswer): Verdict {
  if (answer.status === 404)
    return { signals: { notFound: true }, evidence: { http_status: 404, message: excerpt(answer) } };
  return unexpectedStatus(answer);
}
