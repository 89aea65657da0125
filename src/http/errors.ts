import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { BodyTooLargeError, UnsupportedMediaTypeError } from '../api/body.js';
import { MalformedJsonError } from '../api/submissions.js';
import { ValidationError } from '../domain/errors.js';
import { InputError } from '../parsers/reference.js';
import { DisputeRefusedError } from '../operations/dispute.js';
import { NotFoundError } from '../operations/read-chain.js';
import { VerdictKeyUnavailableError } from '../operations/verdict-keys.js';
import { DuplicateObservationError } from '../storage/store.js';

export type Issue = { loc: (string | number)[]; msg: string; type: string };

/** 422 in the spec's shape: `detail` is a list of {loc, msg, type}. */
export function validationResponse(c: Context, issues: Issue[]): Response {
  c.header('Link', undefined);
  return c.json({ detail: issues }, 422);
}

/** Every other error: `{"detail": "<sentence>"}`. Never a stack trace. */
export function detailResponse(c: Context, status: 400 | 401 | 404 | 405 | 409 | 413 | 415 | 429 | 500 | 501 | 503, detail: string, headers?: Record<string, string>): Response {
  c.header('Link', undefined);
  return c.json({ detail }, status, headers);
}

/** Maps what an operation threw to an answer; anything unexpected is logged and becomes a bare 500. */
export function errorResponse(c: Context, error: unknown, log: (error: unknown) => void): Response {
  if (error instanceof ValidationError) return validationResponse(c, error.issues);
  if (error instanceof NotFoundError) return detailResponse(c, 404, error.message);
  if (error instanceof VerdictKeyUnavailableError) return detailResponse(c, 503, error.message);
  if (error instanceof DuplicateObservationError || error instanceof DisputeRefusedError) return detailResponse(c, 409, error.message);
  if (error instanceof InputError) return validationResponse(c, [{ loc: ['body'], msg: error.message, type: 'value_error.input' }]);
  if (error instanceof BodyTooLargeError) return detailResponse(c, 413, error.message);
  if (error instanceof UnsupportedMediaTypeError) return detailResponse(c, 415, error.message);
  if (error instanceof MalformedJsonError) return detailResponse(c, 400, error.message);
  if (error instanceof HTTPException) {
    const status = error.status as 400;
    return detailResponse(c, status, error.message || 'the request could not be read');
  }
  log(error);
  return detailResponse(c, 500, 'Something failed inside Tended and nothing was changed. Try again; if it keeps failing, report the time of the request.');
}

/** zod issues from a request validator, reported against where the value came from. */
export function zodIssues(target: string, issues: { path: PropertyKey[]; message: string; code: string }[]): Issue[] {
  return issues.map((i) => ({
    loc: [target, ...i.path.map((p) => (typeof p === 'number' ? p : String(p)))],
    msg: i.message,
    type: i.code,
  }));
}
