import type { Context } from 'hono';
import { readCappedBody } from '../upstreams/response-body.js';

export const SUBMISSION_LIMIT_BYTES = 4 * 1024 * 1024;

/** A body over the limit: answered 413 before more of it is read. */
export class BodyTooLargeError extends Error {
  constructor(limit: number) {
    super(
      `The body is larger than ${limit / (1024 * 1024)} MB, the most Tended reads; nothing was kept. Send a smaller file, or split it.`,
    );
    this.name = 'BodyTooLargeError';
  }
}

/** A content type the route does not read: answered 415 naming the ones it does. */
export class UnsupportedMediaTypeError extends Error {
  constructor(got: string, accepted: string[]) {
    const what = got === '' ? 'A body without a Content-Type' : `Content-Type "${got.slice(0, 60)}"`;
    super(`${what} is not one this route reads; send one of ${accepted.join(', ')}.`);
    this.name = 'UnsupportedMediaTypeError';
  }
}

/**
 * Reads the request body into memory, stopping as soon as it passes `limit` (a declared
 * Content-Length over it is refused before anything is read). The body lives only in this
 * request: it is never stored or logged.
 */
export async function readBody(c: Context, limit = SUBMISSION_LIMIT_BYTES): Promise<Uint8Array> {
  const declared = declaredBodyLength(c);
  if (declared !== null && declared > limit) throw new BodyTooLargeError(limit);
  // A declared length within the limit is all Node's parser will deliver, so the body is read
  // whole, straight from the socket (@hono/node-server's direct read, no web stream). A chunked
  // body is read as a stream and refused as soon as it passes the limit.
  if (declared !== null) return new Uint8Array(await c.req.raw.arrayBuffer());
  const body = await readCappedBody(c.req.raw.body, null, limit);
  if (body === null) throw new BodyTooLargeError(limit);
  return body;
}

/** The declared length, when the body has one and is not chunked; null otherwise. */
export function declaredBodyLength(c: Context): number | null {
  const length = c.req.header('content-length');
  if (length === undefined || c.req.header('transfer-encoding') !== undefined) return null;
  const bytes = Number(length);
  return Number.isSafeInteger(bytes) && bytes >= 0 ? bytes : null;
}

/** The media type without parameters, lower-cased; empty when absent. */
export function mediaType(c: Context): string {
  return (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}
