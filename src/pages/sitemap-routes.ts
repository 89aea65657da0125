import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { AnswerCache } from '../operations/answer-cache.js';
import type { RecordDeps } from '../operations/deps.js';
import { notFound } from './not-found.js';
import { PAGE_CACHE, rendered, send, type Rendered } from './respond.js';
import { planSitemap, sitemapIndexXml, sitemapPartXml, type SitemapPlan } from './sitemap.js';

const XML = 'application/xml; charset=utf-8';

/**
 * /sitemap.xml and /sitemaps/N.xml. Planning walks every package with a page (bounded reads, but
 * as many as there are packages), so a plan is made at most once an hour per base URL, like the
 * home page; a file is written from the plan's key range when asked, and only the last few are
 * kept, since each may run to megabytes.
 */
export function registerSitemapRoutes(
  app: OpenAPIHono,
  deps: RecordDeps,
  minDependents: number,
  staticPaths: readonly string[],
  baseOf: (c: Context) => string,
): void {
  // Keyed by base URL and hour: a few at most; the oldest goes first.
  const plans = new Map<string, Promise<SitemapPlan>>();
  const files = new AnswerCache<Rendered>(4, { max: 64 * 1024 * 1024, sizeOf: (r) => r.body.byteLength });
  const hourOf = () => `${deps.clock.now().toISOString().slice(0, 13)}:00:00Z`;

  const planFor = (baseUrl: string, hour: string): Promise<SitemapPlan> => {
    const key = `${baseUrl}|${hour}`;
    let plan = plans.get(key);
    if (!plan) {
      plan = planSitemap(deps, minDependents, baseUrl, staticPaths);
      // A failed plan is not kept: the next request makes it again.
      plan.catch(() => plans.delete(key));
      if (plans.size >= 4) plans.delete(plans.keys().next().value!);
      plans.set(key, plan);
    }
    return plan;
  };
  const file = async (key: string, hour: string, make: () => Promise<string>): Promise<Rendered> => {
    let page = files.get(key);
    if (!page) {
      page = rendered(await make(), {
        contentType: XML,
        cacheControl: PAGE_CACHE,
        lastModified: hour,
        versionKey: key,
      });
      files.set(key, page);
    }
    return page;
  };

  app.get('/sitemap.xml', async (c) => {
    const baseUrl = baseOf(c);
    const hour = hourOf();
    const plan = await planFor(baseUrl, hour);
    const key = `sitemap|${baseUrl}|${hour}`;
    // Everything fits in one file: the urlset itself; otherwise the index of its files.
    const page = await file(key, hour, async () =>
      plan.parts.length === 1
        ? sitemapPartXml(deps, minDependents, baseUrl, staticPaths, plan.parts[0]!)
        : sitemapIndexXml(plan, baseUrl),
    );
    return send(c, page);
  });

  // /sitemaps/N.xml rather than a patterned /:file route at the root: a root parameter with a
  // pattern sends hono's router from its RegExp matcher to the trie one, a cost on every request.
  app.get('/sitemaps/:file', async (c) => {
    const part = /^([1-9]\d{0,5})\.xml$/.exec(c.req.param('file'));
    if (!part) return notFound(c, { kind: 'no-page', path: c.req.path }, 404);
    const n = Number(part[1]);
    const baseUrl = baseOf(c);
    const hour = hourOf();
    const plan = await planFor(baseUrl, hour);
    // A sitemap that fits in one file has no parts: /sitemap.xml is the whole of it.
    if (plan.parts.length === 1 || n > plan.parts.length)
      return notFound(c, { kind: 'no-page', path: c.req.path }, 404);
    const page = await file(`sitemap-${n}|${baseUrl}|${hour}`, hour, () =>
      sitemapPartXml(deps, minDependents, baseUrl, staticPaths, plan.parts[n - 1]!),
    );
    return send(c, page);
  });
}
