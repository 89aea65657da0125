import { TendedError } from '../domain/errors.js';
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { clientOf } from '../limits/client.js';
import { readCappedBody } from '../domain/capped-stream.js';
import { BodyTooSlowError, requestBodies, type BodyBudget } from './body-budget.js';

export const SUBMISSION_LIMIT_BYTES = 4 * 1024 * 1024;
/** A dispute names one component: a few dozen bytes. */
export const DISPUTE_LIMIT_BYTES = 16 * 1024;

/**
 * The 413 sentence, wherever a body is refused for its size (the edge's cap, a route's own read,
 * MCP): the bound, that nothing was kept, and, for the routes that read files, where a larger
 * file is read instead.
 */
export function bodyTooLargeSentence(limit: number, readsFiles: boolean): string {
  const bound = limit >= 1024 * 1024 ? `${limit / (1024 * 1024)} MB` : `${limit / 1024} KB`;
  return (
    `The body is larger than ${bound}, the most this route reads; nothing was kept.` +
    (readsFiles
      ? ' `tended check FILE` reads a manifest, lockfile or SBOM of any size on your machine, without sending it; or split the file.'
      : '')
  );
}

/** A body over the limit: answered 413 before more of it is read. */
export class BodyTooLargeError extends TendedError {
  // The bounds that carry files (submissions, MCP) are megabytes; a dispute's is kilobytes.
  constructor(limit: number, readsFiles = limit >= SUBMISSION_LIMIT_BYTES) {
    super('body_too_large', bodyTooLargeSentence(limit, readsFiles));
    this.name = 'BodyTooLargeError';
  }
}

/** A content type the route does not read: answered 415 naming the ones it does. */
export class UnsupportedMediaTypeError extends TendedError {
  constructor(got: string, accepted: string[]) {
    const what = got === '' ? 'A body without a Content-Type' : `Content-Type "${got.slice(0, 60)}"`;
    super('unsupported_media_type', `${what} is not one this route reads; send one of ${accepted.join(', ')}.`);
    this.name = 'UnsupportedMediaTypeError';
  }
}

/**
 * Reads the request body into memory, stopping as soon as it passes `limit` (a declared
 * Content-Length over it is refused before anything is read). Before a byte is read, its length
 * (the limit, when chunked) is reserved from the budget of unfinished bodies (body-budget.ts),
 * given back once it is read or its connection ends; a body that arrives below the minimum rate
 * is cut off (408). The body lives only in this request: it is never stored or logged.
 */
export async function readBody(
  c: Context,
  limit = SUBMISSION_LIMIT_BYTES,
  budget: BodyBudget = requestBodies,
): Promise<Uint8Array> {
  const declared = declaredBodyLength(c);
  if (declared !== null && declared > limit) throw new BodyTooLargeError(limit);
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const release = budget.reserve(clientOf(c)?.parseKey ?? null, declared ?? limit);
  // A body abandoned half-read (cut off, or its client gone) holds its bytes until its connection ends.
  incoming?.once('close', release);
  const watchdog = incoming ? receiveRate(incoming, budget) : null;
  try {
    const read = readWhole(c, declared, limit);
    // A read the watchdog cut short fails later, when its connection closes: nobody awaits it then.
    read.catch(() => undefined);
    const body = await (watchdog ? Promise.race([read, watchdog.cut]) : read);
    return body;
  } finally {
    watchdog?.stop();
    if (!incoming || incoming.readableEnded) release();
  }
}

async function readWhole(c: Context, declared: number | null, limit: number): Promise<Uint8Array> {
  // A declared length within the limit is all Node's parser will deliver, so the body is read
  // whole, straight from the socket (@hono/node-server's direct read, no web stream). A chunked
  // body is read as a stream and refused as soon as it passes the limit.
  if (declared !== null) return new Uint8Array(await c.req.raw.arrayBuffer());
  const body = await readCappedBody(c.req.raw.body, null, limit);
  if (body === null) throw new BodyTooLargeError(limit);
  return body;
}

/**
 * Watches the bytes the connection receives (the socket's count, so the read itself is not
 * touched): once a window has passed, a window with fewer than minBytesPerSecond × window bytes
 * ends the read with BodyTooSlowError.
 */
function receiveRate(incoming: IncomingMessage, budget: BodyBudget): { cut: Promise<never>; stop: () => void } | null {
  const socket = incoming.socket;
  if (!socket) return null;
  const { minBytesPerSecond, windowMs } = budget.options;
  let timer: NodeJS.Timeout | undefined;
  let before = socket.bytesRead;
  const cut = new Promise<never>((_, reject) => {
    timer = setInterval(() => {
      const now = socket.bytesRead;
      if (!incoming.readableEnded && now - before < (minBytesPerSecond * windowMs) / 1000) {
        clearInterval(timer);
        reject(new BodyTooSlowError(minBytesPerSecond, windowMs));
      }
      before = now;
    }, windowMs);
    timer.unref();
  });
  // Handled here so a race already settled leaves no unhandled rejection behind.
  cut.catch(() => undefined);
  return { cut, stop: () => clearInterval(timer) };
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
