import type { Context } from 'hono';

export const SUBMISSION_LIMIT_BYTES = 4 * 1024 * 1024;

/** A body over the limit: answered 413 before more of it is read. */
export class BodyTooLargeError extends Error {
  constructor(limit: number) {
    super(`The body is larger than ${limit / (1024 * 1024)} MB, the most Tended reads; nothing was kept. Send a smaller file, or split it.`);
    this.name = 'BodyTooLargeError';
  }
}

/** A content type the route does not read: answered 415 naming the ones it does. */
export class UnsupportedMediaTypeError extends Error {
  constructor(got: string, accepted: string[]) {
    super(`Content-Type "${got.slice(0, 60)}" is not one this route reads; send one of ${accepted.join(', ')}.`);
    this.name = 'UnsupportedMediaTypeError';
  }
}

/**
 * Reads the request body into memory, stopping as soon as it passes `limit` (a declared
 * Content-Length over it is refused before anything is read). The body lives only in this
 * request: it is never stored or logged.
 */
export async function readBody(c: Context, limit = SUBMISSION_LIMIT_BYTES): Promise<Uint8Array> {
  const declared = Number(c.req.header('content-length') ?? NaN);
  if (declared > limit) throw new BodyTooLargeError(limit);
  const stream = c.req.raw.body;
  if (!stream) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw new BodyTooLargeError(limit);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

/** Text from bytes: UTF-8 (with or without a BOM) or UTF-16 with its BOM, as editors save files. */
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  return new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');
}

/** The media type without parameters, lower-cased; empty when absent. */
export function mediaType(c: Context): string {
  return (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}
