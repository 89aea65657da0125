import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { STORE_UNAVAILABLE_DETAIL, STORE_UNAVAILABLE_HEADERS } from '../api/health.js';
import { UnsupportedMediaTypeError } from '../api/body.js';
import { ERROR_ANSWERS, issuesUnder, TendedError, ValidationError } from '../domain/errors.js';

export type Issue = { loc: (string | number)[]; msg: string; type: string };

/** 422 in the spec's shape: `detail` is a list of {loc, msg, type}. */
export function validationResponse(c: Context, issues: Issue[]): Response {
  c.header('Link', undefined);
  return c.json({ detail: issues }, 422);
}

/** Every other error: `{"detail": "<sentence>"}`. Never a stack trace. */
export function detailResponse(
  c: Context,
  status: 400 | 401 | 404 | 405 | 409 | 408 | 413 | 415 | 422 | 429 | 500 | 501 | 503,
  detail: string,
  headers?: Record<string, string>,
): Response {
  c.header('Link', undefined);
  return c.json({ detail }, status, headers);
}

/** Maps what an operation threw to an answer; anything unexpected is logged and becomes a bare 500. */
export function errorResponse(c: Context, error: unknown, log: (error: unknown) => void): Response {
  if (error instanceof TendedError) {
    const answer = ERROR_ANSWERS[error.code];
    if (answer.body === 'outage') return storeUnavailableResponse(c);
    if (answer.body === 'issues') return validationResponse(c, (error as ValidationError).issues);
    if (answer.body !== 'detail')
      return validationResponse(c, [{ loc: ['body'], msg: error.message, type: answer.body }]);
    return detailResponse(c, answer.status, error.message, answer.headers);
  }
  if (error instanceof HTTPException && error.status === 415) {
    // The OpenAPI validator's content-type gate says only "Unsupported Media Type". The routes it
    // guards are those declared with a request body, all of them JSON: name the type to send, as
    // the routes that read their own bodies do.
    return detailResponse(
      c,
      415,
      new UnsupportedMediaTypeError(c.req.header('content-type') ?? '', ['application/json']).message,
    );
  }
  if (error instanceof HTTPException) {
    const status = error.status as 400;
    return detailResponse(c, status, error.message || 'the request could not be read');
  }
  log(error);
  return detailResponse(
    c,
    500,
    'Something failed inside Tended and nothing was changed. Try again; if it keeps failing, report the time of the request.',
  );
}

/** hono's validator targets, named as the rest of the API names where a value came from. */
const LOC_ROOT: Record<string, string> = { json: 'body', param: 'path' };

/** zod issues from a request validator, reported against where the value came from. */
export function zodIssues(target: string, issues: { path: PropertyKey[]; message: string; code: string }[]): Issue[] {
  return issuesUnder(LOC_ROOT[target] ?? target, issues);
}

/**
 * 503 while the store is away (DESIGN §6): JSON `{"detail"}` with Retry-After for every client,
 * or a short HTML page for a browser asking for a page. Never a 500 or a hang.
 */
export function storeUnavailableResponse(c: Context): Response {
  const headers = STORE_UNAVAILABLE_HEADERS;
  const path = c.req.path;
  const api = path.startsWith('/api/') || path.startsWith('/v1/') || path === '/mcp' || path === '/healthz';
  if (!api && (c.req.header('accept') ?? '').includes('text/html')) {
    c.header('Link', undefined);
    return c.html(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tended is briefly unavailable</title>' +
        '<link rel="stylesheet" href="/assets/site.css"></head><body><main><h1>Briefly unavailable</h1>' +
        `<p>${STORE_UNAVAILABLE_DETAIL}</p></main></body></html>`,
      503,
      headers,
    );
  }
  return detailResponse(c, 503, STORE_UNAVAILABLE_DETAIL, headers);
}
