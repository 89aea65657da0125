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
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new ServiceError(
      `could not reach ${url.split('?')[0]}: ${networkProblem(error, timeoutMs)}; check --url and that the service is running. Nothing was ${done}.`,
      EXIT.unavailable,
    );
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

function networkProblem(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `no answer within ${timeoutMs / 1000} s`;
  const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (typeof cause?.code === 'string') {
    const known: Record<string, string> = {
      ECONNREFUSED: 'the connection was refused (ECONNREFUSED)',
      ENOTFOUND: 'the host name does not resolve (ENOTFOUND)',
      ECONNRESET: 'the connection was reset (ECONNRESET)',
      ETIMEDOUT: 'the connection timed out (ETIMEDOUT)',
    };
    return known[cause.code] ?? cause.code;
  }
  if (typeof cause?.message === 'string' && cause.message !== '') return cause.message;
  return error instanceof Error ? error.message : String(error);
}
