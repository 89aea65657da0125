import type { OpenAPIHono } from '@hono/zod-openapi';
import { API_VERSION } from '../domain/api-version.js';
import { AnswerCache } from '../operations/answer-cache.js';
import { API_REFERENCE_PATH, renderApiReference } from '../pages/api-reference-page.js';
import { HTML } from '../pages/package-answer.js';
import { PAGE_CACHE, rendered, send, type Rendered } from '../pages/respond.js';
import { openApiDocument } from './openapi-document.js';

/**
 * The API described twice from one document: GET /api/v1/docs as OpenAPI 3.1 JSON for tools, and
 * GET /api/v1/reference as a page for people, rendered from the same object. The document is built
 * on the first ask and kept (the routes do not change once registered); only its server is per
 * request: TENDED_PUBLIC_URL when set, else the address asked at, so one client's Host header
 * never becomes what the next client is told.
 */
export function registerApiDocumentRoutes(app: OpenAPIHono, publicUrl: string | undefined): void {
  let document: ReturnType<typeof openApiDocument> | null = null;
  const documentOnce = () =>
    (document ??= openApiDocument(app, {
      version: API_VERSION,
      info: {
        title: 'Tended',
        description:
          'A dated, verifiable record of whether software components are still maintained. ' +
          'Every observation has a date, a state and its evidence; a date with no observation is "not observed"; ' +
          'no composite score is offered. Data is CC-BY-4.0.',
      },
    }));
  const started = new Date();
  // Keyed by base URL: one entry with TENDED_PUBLIC_URL, a few at most without.
  const pages = new AnswerCache<Rendered>(4);

  app.get('/api/v1/docs', (c) =>
    c.json({ ...documentOnce(), servers: [{ url: publicUrl ?? new URL(c.req.url).origin }] }),
  );
  app.get(API_REFERENCE_PATH, (c) => {
    const baseUrl = publicUrl ?? new URL(c.req.url).origin;
    let page = pages.get(baseUrl);
    if (!page) {
      page = rendered(renderApiReference(documentOnce(), baseUrl), {
        contentType: HTML,
        cacheControl: PAGE_CACHE,
        lastModified: started,
      });
      pages.set(baseUrl, page);
    }
    return send(c, page);
  });
}
