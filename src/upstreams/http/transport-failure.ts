/** How a request that got no usable answer is told: our own time-out, or the network, with its code. */
import type { EvidenceValue } from '../../domain/observation.js';
import type { UnreachableReason } from '../../domain/state.js';

export type TransportFailure = { ok: false; reason: UnreachableReason; evidence: Record<string, EvidenceValue> };

const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

/** A fetch or body-read failure as a reason: our own time-out, or the network. */
export function transportFailure(error: unknown, timeoutMs: number, status?: number): TransportFailure {
  const e = error as {
    name?: unknown;
    message?: unknown;
    code?: unknown;
    cause?: { code?: unknown; message?: unknown };
  };
  const code = typeof e?.cause?.code === 'string' ? e.cause.code : typeof e?.code === 'string' ? e.code : null;
  const evidence: Record<string, EvidenceValue> = status === undefined ? {} : { http_status: status };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError' || (code && TIMEOUT_CODES.has(code))) {
    return {
      ok: false,
      reason: 'timeout',
      evidence: { ...evidence, error: `no complete answer within ${timeoutMs} ms` },
    };
  }
  const message =
    typeof e?.cause?.message === 'string'
      ? e.cause.message
      : typeof e?.message === 'string'
        ? e.message
        : String(error);
  return {
    ok: false,
    reason: 'network',
    evidence: { ...evidence, error: message.slice(0, 200), ...(code ? { error_code: code } : {}) },
  };
}
