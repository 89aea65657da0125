/**
 * What Maven Central's non-200 answers mean (research upstreams-more §1.4–1.5). Central removes
 * nothing, so a 404 proves no deletion: the artifact was never published there (it may live in
 * another repository, or be private). A 403 is Sonatype's block for excessive use.
 */
import { excerpt, unexpectedStatus, type StatusAnswer, type Verdict } from '../reading.js';

export const NOT_IN_CENTRAL =
  'not in Maven Central: it may be published to another repository, or be private; Central removes nothing, so this is no deletion';

export function classifyCentralResponse(answer: StatusAnswer): Verdict {
  if (answer.status === 404 || answer.status === 410)
    return {
      signals: { unreachable: 'not_listed' },
      evidence: { http_status: answer.status, unreachable: 'not_listed', not_listed: NOT_IN_CENTRAL },
    };
  if (answer.status === 403)
    return {
      signals: { unreachable: 'unauthorized' },
      evidence: {
        http_status: 403,
        unreachable: 'unauthorized',
        message: excerpt(answer),
        error: 'Maven Central refused the request (its block for excessive use)',
      },
    };
  return unexpectedStatus(answer);
}
