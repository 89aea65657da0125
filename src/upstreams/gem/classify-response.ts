/**
 * What rubygems.org's non-200 answers mean (research upstreams-more §4.4–4.5): the versions
 * route answers 404 when the gem has no public version, whether it never existed, was removed,
 * or had every version yanked. rubygems.org is the only home of its names, so that is a deletion.
 */
import { excerpt, unexpectedStatus, type StatusAnswer, type Verdict } from '../reading.js';
import { registrysOwn } from '../not-found.js';

export const NO_PUBLIC_VERSION = 'rubygems.org serves no version of it: removed, or every version yanked';

/** Its not-found only when it is the registry's own (not-found.ts). */
export function classifyVersionsResponse(answer: StatusAnswer): Verdict {
  return registrysOwn(answer, readVersionsResponse(answer));
}

function readVersionsResponse(answer: StatusAnswer): Verdict {
  if (answer.status === 404)
    return {
      signals: { notFound: true },
      evidence: { http_status: 404, message: excerpt(answer), gone: NO_PUBLIC_VERSION },
    };
  return unexpectedStatus(answer);
}
