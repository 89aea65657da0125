/**
 * Requests to a running Tended service (`check --url`, `verify --url`), and what a failed one
 * means for the exit code: a service that cannot be reached or cannot answer now (refused,
 * unresolvable, timed out, 429, 5xx) is unavailable (3), worth the same run later; one that
 * answers something else wrong (404 for a path, a refusal of the request) is the caller's to fix (2).
 * Neither is the command's "no" (1): nothing was checked or verified.
 */
import { EXIT } from './exit-codes.js';

export class ServiceError extends Error {
  constructor(
    message: string,
    readonly exit: number,
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

/** fetch, with a failure to get any answer said as a sentence: `done` is what did not happen ("checked"). */
export async function fetchService(url: string, init: RequestInit, timeoutMs: number, done: string): Promise<Response> {
  // AbortSignal.timeout's timer does not hold the process open, and Node 20's fetch can leave its
  // promise pending for good when the peer drops the connection at once: with nothing else pending
  // the process would exit 13 (an unsettled top-level await) without a word. This timer holds it
  // open until the signal has fired.
  const holdOpen = setTimeout(() => undefined, timeoutMs + 1_000);
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const problem = networkProblem(error, timeoutMs);
    const where = url.split('?')[0];
    throw new ServiceError(
      problem.notHttp
        ? `could not speak HTTP to ${where}: ${problem.said}; is it a Tended server? Check --url (its scheme, host and port). Nothing was ${done}.`
        : `could not reach ${where}: ${problem.said}; check --url and that the service is running. Nothing was ${done}.`,
      problem.notHttp ? EXIT.usage : EXIT.unavailable,
    );
  } finally {
    clearTimeout(holdOpen);
  }
}

/** The error for a service's non-2xx answer, with its own explanation (`detail`) when it gave one. */
export function refusal(url: string, response: Response, detail: string | null, done: string): ServiceError {
  // A rate limit or a server that could not answer now: the same run may succeed later.
  const later = response.status === 429 || response.status >= 500;
  return new ServiceError(
    `${url.split('?')[0]} answered ${response.status} ${response.statusText}`.trimEnd() +
      (detail ? `: ${detail}` : `; nothing was ${done}.`) +
      (later ? ` Nothing is wrong with the command: run it again later.` : ''),
    later ? EXIT.unavailable : EXIT.usage,
  );
}

/**
 * Each class of failure to get an answer, in words. Something that answered but not in HTTP (or
 * not in the TLS the scheme asked for) is no Tended service at that address: the caller's to fix
 * (exit 2). The rest may pass (a service restarting, a network hiccup): run it again (exit 3).
 */
const NETWORK_PROBLEMS: Record<string, { said: string; notHttp: boolean }> = {
  ECONNREFUSED: { said: 'the connection was refused (ECONNREFUSED)', notHttp: false },
  ENOTFOUND: { said: 'the host name does not resolve (ENOTFOUND)', notHttp: false },
  EAI_AGAIN: { said: 'the host name could not be resolved now (EAI_AGAIN)', notHttp: false },
  ECONNRESET: { said: 'the connection was reset (ECONNRESET)', notHttp: false },
  ETIMEDOUT: { said: 'the connection timed out (ETIMEDOUT)', notHttp: false },
  EHOSTUNREACH: { said: 'the host cannot be reached (EHOSTUNREACH)', notHttp: false },
  ENETUNREACH: { said: 'the network cannot be reached (ENETUNREACH)', notHttp: false },
  UND_ERR_SOCKET: {
    said: 'it closed the connection without an HTTP answer (UND_ERR_SOCKET)',
    notHttp: true,
  },
  UND_ERR_HEADERS_TIMEOUT: { said: 'it sent no HTTP answer in time (UND_ERR_HEADERS_TIMEOUT)', notHttp: false },
  EPROTO: { said: 'the TLS handshake failed (EPROTO): is it https at an http port?', notHttp: true },
};

function networkProblem(error: unknown, timeoutMs: number): { said: string; notHttp: boolean } {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return { said: `no answer within ${timeoutMs / 1000} s`, notHttp: false };
  const cause =
    error instanceof Error
      ? (error.cause as { name?: unknown; code?: unknown; message?: unknown } | undefined)
      : undefined;
  const code = typeof cause?.code === 'string' ? cause.code : '';
  const known = NETWORK_PROBLEMS[code];
  if (known) return known;
  // llhttp's parse errors: the bytes that came back are not an HTTP response. Node 20's undici
  // names llhttp's code (HPE_INVALID_CONSTANT); Node 24's leaves the code out and keeps the class.
  if (code.startsWith('HPE_')) return { said: `what it sent back is not HTTP (${code})`, notHttp: true };
  if (cause?.name === 'HTTPParserError')
    return { said: 'what it sent back is not HTTP (HTTPParserError)', notHttp: true };
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code))
    return {
      said: `the TLS connection failed (${code}): is it https at an http port, or a certificate this machine does not trust?`,
      notHttp: true,
    };
  if (code !== '') return { said: code, notHttp: false };
  if (typeof cause?.message === 'string' && cause.message !== '') return { said: cause.message, notHttp: false };
  return { said: error instanceof Error ? error.message : String(error), notHttp: false };
}
