/** What PyPI's non-200 answers mean (research §3): a 404 (unknown, release-less or quarantined project) is a death. */
import { excerpt, unexpectedStatus, type StatusAnswer, type Verdict } from '../reading.js';
import { registrysOwn } from '../not-found.js';

/** Its not-found only when it is the registry's own (not-found.ts). */
export function classifyProjectResponse(answer: StatusAnswer): Verdict {
  return registrysOwn(answer, readProjectResponse(answer));
}

function readProjectResponse(answer: StatusAnswer): Verdict {
  // Keyed on the status, not the body, whose shape PyPI does not promise.
  if (answer.status === 404)
    return { signals: { notFound: true }, evidence: { http_status: 404, message: excerpt(answer) } };
  return unexpectedStatus(answer);
}

/**
 * The Simple API only adds PEP 792 status. An index that does not serve it (404, 406, HTML to
 * our JSON Accept) tells us nothing about the project, so the read goes on without it.
 */
export function simpleApiMissing(status: number): boolean {
  return status === 404 || status === 406 || status === 410;
}
