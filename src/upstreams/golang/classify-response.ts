/**
 * What the Go module proxy's non-200 answers mean (research upstreams-more §2.4): 404 and 410
 * say the proxy cannot serve the module. The proxy never forgets what it served, so this proves no
 * deletion: the path may be wrong, the module private, or never fetched through the proxy.
 */
import { excerpt, unexpectedStatus, type StatusAnswer, type Verdict } from '../reading.js';

export const UNKNOWN_TO_PROXY =
  'unknown to the Go module proxy: the path may be wrong or the module private; the proxy never forgets a module it served, so this is no deletion';

export function classifyProxyResponse(answer: StatusAnswer): Verdict {
  if (answer.status === 404 || answer.status === 410)
    return {
      signals: { unreachable: 'not_listed' },
      evidence: {
        http_status: answer.status,
        unreachable: 'not_listed',
        not_listed: UNKNOWN_TO_PROXY,
        message: excerpt(answer),
      },
    };
  return unexpectedStatus(answer);
}
