import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import { weakTag } from '../operations/answer-cache.js';

/** A page or crawler file rendered once, with the validators a cache revalidates against. */
export interface Rendered {
  body: Uint8Array<ArrayBuffer>;
  contentType: string;
  etag: string;
  /** An HTTP-date. */
  lastModified: string;
  cacheControl: string;
  /** The 200 answer's headers, built once: the hot path hands them over as they are. */
  headers: Record<string, string>;
}

/** Human pages: caches may keep them a few minutes and revalidate cheaply (304) after that. */
export const PAGE_CACHE = 'public, max-age=300, stale-while-revalidate=60';
/** Assets are addressed by their content hash (?v=), so a cache may keep them for a year. */
export const ASSET_CACHE = 'public, max-age=31536000, immutable';

const utf8 = new TextEncoder();

export function shortHash(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}

/** `versionKey` names the data the body was computed from; without it the body's own hash tags it. */
export function rendered(
  body: string,
  options: { contentType: string; cacheControl: string; lastModified: Date | string; versionKey?: string },
): Rendered {
  const bytes = utf8.encode(body);
  const etag = weakTag(options.versionKey ?? bytes);
  const lastModified = httpDate(options.lastModified);
  return {
    body: bytes,
    contentType: options.contentType,
    etag,
    lastModified,
    cacheControl: options.cacheControl,
    headers: {
      'content-type': options.contentType,
      'cache-control': options.cacheControl,
      etag,
      'last-modified': lastModified,
    },
  };
}

export function httpDate(at: Date | string): string {
  const d = typeof at === 'string' ? new Date(at) : at;
  return Number.isNaN(d.getTime()) ? new Date(0).toUTCString() : d.toUTCString();
}

/** Answers 304 when the client already holds this version (If-None-Match first, then If-Modified-Since). */
export function send(
  c: Context,
  page: Rendered,
  status: 200 | 404 | 422 = 200,
  extra?: Record<string, string>,
): Response {
  const conditional = c.req.header('if-none-match') !== undefined || c.req.header('if-modified-since') !== undefined;
  if (!conditional && extra === undefined) return c.body(page.body, status, page.headers);
  const headers: Record<string, string> = {
    'content-type': page.contentType,
    'cache-control': page.cacheControl,
    etag: page.etag,
    'last-modified': page.lastModified,
    ...extra,
  };
  if (status === 200 && isFresh(c, page)) {
    delete headers['content-type'];
    return c.body(null, 304, headers);
  }
  return c.body(page.body, status, headers);
}

function isFresh(c: Context, page: Rendered): boolean {
  const inm = c.req.header('if-none-match');
  if (inm !== undefined)
    return inm.split(',').some((tag) => weak(tag.trim()) === weak(page.etag) || tag.trim() === '*');
  const ims = c.req.header('if-modified-since');
  if (ims === undefined) return false;
  const since = Date.parse(ims);
  return !Number.isNaN(since) && Date.parse(page.lastModified) <= since;
}

// RFC 9110 §13.1.2: If-None-Match compares weakly.
const weak = (tag: string) => tag.replace(/^W\//, '');
