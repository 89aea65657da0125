import type { Context } from 'hono';
import { HTML } from './package-answer.js';
import { rendered, send } from './respond.js';
import { explainNotFound, renderNotFound, type NotFoundReason } from './static-pages.js';

/** A 404 or 422 that says why: an HTML page for people, the JSON `detail` sentence for everything else. */
export function notFound(c: Context, reason: NotFoundReason, status: 404 | 422): Response {
  if (!wantsHtml(c)) return c.json({ detail: explainNotFound(reason)[1] }, status);
  // Validators here too: a crawler revalidating a missing page learns it is still missing cheaply.
  return send(
    c,
    rendered(renderNotFound(reason), { contentType: HTML, cacheControl: 'no-cache', lastModified: new Date() }),
    status,
  );
}

/** A browser asks for HTML by name; a program (curl's any-type Accept, fetch's default) does not. */
export function wantsHtml(c: Context): boolean {
  return (c.req.header('accept') ?? '').includes('text/html');
}
