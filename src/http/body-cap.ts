import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { declaredBodyLength } from '../api/body.js';

/**
 * A cap on every request body, whatever reads it. A declared Content-Length is judged from the
 * header alone: Node's parser never hands a route more bytes than that, so the body is left
 * untouched and a route can read it straight from the socket. (hono's bodyLimit asks for
 * `c.req.raw.body` first, which makes @hono/node-server wrap every body in a web stream: a 4 MB
 * SBOM then costs ~15 ms to arrive instead of ~3.) A chunked body has no length to judge, so
 * hono's bodyLimit counts it as it streams.
 */
export function bodyCap(maxSize: number, tooLarge: (c: Context) => Response | Promise<Response>): MiddlewareHandler {
  const counted = bodyLimit({ maxSize, onError: tooLarge });
  return async (c, next) => {
    const declared = declaredBodyLength(c);
    if (declared === null) return counted(c, next);
    if (declared > maxSize) return tooLarge(c);
    await next();
  };
}
