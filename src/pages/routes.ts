import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { componentSearchKeys, type ComponentKind, type ComponentRef } from '../domain/component.js';
import { datedRead } from '../domain/as-of.js';
import { ValidationError } from '../domain/errors.js';
import { AnswerCache } from '../operations/answer-cache.js';
import type { RecordDeps } from '../operations/deps.js';
import { readHead } from '../operations/read-chain.js';
import { adoptedCount, recentStateChanges } from '../operations/read-adoption.js';
import { packageVersion } from '../operations/read-package.js';
import { llmsTxt, pricesJson, robotsTxt } from './crawler-files.js';
import { renderHome } from './home-page.js';
import {
  HTML,
  packagePageCache,
  pageMinDependents,
  renderedPackagePage,
  type PackagePageCache,
} from './package-answer.js';
import { answerPath } from '../api/answer-path.js';
import { packagePath, pageRegistry } from './registries.js';
import { heldAnswerJson, heldRefusal, renderHeldAnswer, type HeldRefusal } from './held-answer.js';
import { nameFragment, searchedComponent, searchHeld, SEARCH_LIMIT } from './search.js';
import { renderSearchResults } from './search-page.js';
import { notFound, wantsHtml } from './not-found.js';
import { ASSET_CACHE, PAGE_CACHE, rendered, send, shortHash, type Rendered } from './respond.js';
import { SITE_CSS } from './site-css.js';
import { registerSitemapRoutes } from './sitemap-routes.js';
import { renderMethodology, renderSeparation, renderTerms, type SiteFacts } from './static-pages.js';
import { VERIFY_JS } from './verify-script.js';
import { leafProblem, policyProblem, renderVerifyPage, verifyJson } from './verify-page.js';

export interface PageDeps extends RecordDeps {
  /** Dependents a package's latest census needs for a page (TENDED_PAGE_MIN_DEPENDENTS); default 1. */
  readonly pageMinDependents?: number;
  /** TENDED_RATE_LIMIT_FREE / _KEY, requests per minute, for /prices.json and /separation; defaults 60 / 600. */
  readonly rateLimitFree?: number;
  readonly rateLimitKey?: number;
  /** TENDED_PUBLIC_URL: the base of absolute URLs (sitemap, canonical links); default the request's own origin. */
  readonly publicUrl?: string;
  /** The rendered package pages, when the caller shares them with the hot path (hot-page.ts). */
  readonly packagePages?: PackagePageCache;
}

const TEXT = 'text/plain; charset=utf-8';
const RECENT_CHANGES = 12;
const STATIC_PATHS = ['/', '/methodology', '/verify', '/terms', '/separation'];

/** The human pages and crawler files (spec §1.10, §2.2, §4.2). Pages read the record through operations/ only. */
export function registerPageRoutes(app: OpenAPIHono, deps: PageDeps): void {
  const minDependents = pageMinDependents(deps);
  const started = new Date();
  const packagePages = deps.packagePages ?? packagePageCache();
  // Keyed by base URL (and for record-wide files, by tree size): at most a few entries in practice.
  const byKey = new AnswerCache<Rendered>(64);

  const baseOf = (c: Context) => deps.publicUrl ?? new URL(c.req.url).origin;
  const site = (c: Context): SiteFacts => ({
    baseUrl: baseOf(c),
    origin: deps.notary.origin,
    verifierKey: deps.notary.vkey,
    minDependents,
    rateLimitFree: deps.rateLimitFree ?? 60,
    rateLimitKey: deps.rateLimitKey ?? 600,
  });
  const once = (key: string, make: () => Rendered): Rendered => {
    let page = byKey.get(key);
    if (!page) {
      page = make();
      byKey.set(key, page);
    }
    return page;
  };
  /** Record-wide answers change with the log: the tree size is their version. */
  const logVersion = async () => {
    const head = await deps.store.latestHead();
    return { size: head?.tree_size ?? 0, at: head?.timestamp ?? started.toISOString() };
  };
  const staticPage = (path: string, render: (s: SiteFacts) => string) =>
    app.get(path, (c) => {
      const s = site(c);
      return send(
        c,
        once(`${path}|${s.baseUrl}`, () =>
          rendered(render(s), { contentType: HTML, cacheControl: PAGE_CACHE, lastModified: started }),
        ),
      );
    });

  app.get('/assets/site.css', (c) =>
    send(
      c,
      once('site.css', () =>
        rendered(SITE_CSS, {
          contentType: 'text/css; charset=utf-8',
          cacheControl: ASSET_CACHE,
          lastModified: started,
        }),
      ),
    ),
  );
  app.get('/assets/verify.js', (c) =>
    send(
      c,
      once('verify.js', () =>
        rendered(VERIFY_JS, {
          contentType: 'text/javascript; charset=utf-8',
          cacheControl: ASSET_CACHE,
          lastModified: started,
        }),
      ),
    ),
  );

  app.get('/', async (c) => {
    const s = site(c);
    // Counting the pages and finding the recent changes are bounded but not free, so the home page is
    // computed at most once an hour: it says when, and changes there show up within the hour.
    const hour = `${deps.clock.now().toISOString().slice(0, 13)}:00:00Z`;
    const key = `/|${s.baseUrl}|${hour}`;
    let page = byKey.get(key);
    if (!page) {
      const [pages, changes] = await Promise.all([
        adoptedCount(deps, minDependents),
        recentStateChanges(deps, minDependents, RECENT_CHANGES),
      ]);
      // The head read after the changes: no change listed was logged after the instant the page states.
      const log = await logVersion();
      page = rendered(renderHome(s, { pages, changes, treeSize: log.size, recordAt: log.at }), {
        contentType: HTML,
        cacheControl: PAGE_CACHE,
        lastModified: log.at,
        versionKey: key,
      });
      byKey.set(key, page);
    }
    return send(c, page);
  });
  staticPage('/methodology', renderMethodology);
  staticPage('/terms', renderTerms);
  staticPage('/separation', renderSeparation);

  app.openAPIRegistry.registerPath(verifyRoute);
  app.get('/verify', async (c) => {
    const accept = c.req.header('accept') ?? '';
    if (accept.includes('application/json') && !accept.includes('text/html')) {
      const head = await readHead(deps);
      // The head moves with every append: revalidate each time, by the head's own hash.
      const page = rendered(JSON.stringify(verifyJson(head)), {
        contentType: 'application/json',
        cacheControl: 'no-cache',
        lastModified: head.timestamp,
        versionKey: head.head_hash,
      });
      return send(c, page, 200, { vary: 'Accept' });
    }
    const s = site(c);
    // A leaf asked for that the log does not hold is said, with its status: never a different leaf checked.
    const asked = c.req.query('index');
    if (asked !== undefined) {
      const size = (await readHead(deps)).tree_size;
      const problem = leafProblem(asked, size);
      if (problem !== null) {
        const body = renderVerifyPage(s, `/assets/verify.js?v=${shortHash(VERIFY_JS).slice(0, 10)}`, problem.why);
        const page = rendered(body, { contentType: HTML, cacheControl: 'no-cache', lastModified: new Date() });
        return send(c, page, problem.status, { vary: 'Accept' });
      }
    }
    const witnessProblem = policyProblem(c.req.queries('witness') ?? [], c.req.query('threshold'));
    if (witnessProblem !== null) {
      const body = renderVerifyPage(s, `/assets/verify.js?v=${shortHash(VERIFY_JS).slice(0, 10)}`, witnessProblem);
      const page = rendered(body, { contentType: HTML, cacheControl: 'no-cache', lastModified: new Date() });
      return send(c, page, 422, { vary: 'Accept' });
    }
    const page = once(`/verify|${s.baseUrl}`, () =>
      rendered(renderVerifyPage(s, `/assets/verify.js?v=${shortHash(VERIFY_JS).slice(0, 10)}`), {
        contentType: HTML,
        cacheControl: PAGE_CACHE,
        lastModified: started,
      }),
    );
    return send(c, page, 200, { vary: 'Accept' });
  });

  // The search box is a GET form: without JavaScript it lands here. An exact name of a held
  // component goes to its page; anything else lists the held components it begins (search.ts).
  app.get('/search', async (c) => {
    const q = (c.req.query('q') ?? '').trim();
    if (q === '') return c.redirect('/', 303);
    let exact: ComponentRef | null = null;
    let refusal: ValidationError | null = null;
    try {
      exact = searchedComponent(q);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      refusal = error;
    }
    if (exact !== null && (await deps.store.componentVersion(exact)) !== null)
      return c.redirect(packagePath(exact), 303);
    // A pasted address or purl is read whole or not at all; other text may be part of a name.
    const pasted = /^(?:https?:\/\/|pkg:)/.test(q);
    const fragment = pasted ? (exact ? componentSearchKeys(exact).search_id : null) : nameFragment(q);
    if (fragment === null)
      return notFound(
        c,
        { kind: 'invalid-name', name: q, noun: 'component', why: refusal?.issues[0]?.msg ?? 'not a component name' },
        422,
      );
    const results = await searchHeld(deps.store, fragment, exact);
    // What was typed is one held component's whole id, in another kind's spelling (`org.acme:rocket-core`).
    const same = results.filter((r) => componentSearchKeys(r).search_id === q.toLowerCase());
    if (same.length === 1) return c.redirect(packagePath(same[0]!), 303);
    const status = results.length === 0 ? 404 : 200;
    if (!wantsHtml(c))
      return c.json(
        { query: q, results: results.map((r) => ({ kind: r.kind, id: r.id, page: packagePath(r) })) },
        status,
      );
    const page = renderSearchResults({ query: q, results, limit: SEARCH_LIMIT });
    return send(c, rendered(page, { contentType: HTML, cacheControl: 'no-cache', lastModified: new Date() }), status);
  });

  const packageRoute = async (c: Context, kind: ComponentKind, name: string) => {
    const registry = pageRegistry(kind);
    let v;
    try {
      v = await packageVersion(deps, kind, name, datedRead(c.req.query('as_of'), deps.clock.now()));
    } catch (error) {
      if (!(error instanceof ValidationError) || !wantsHtml(c)) throw error;
      const issue = error.issues[0];
      if (issue?.loc.includes('as_of')) return notFound(c, { kind: 'invalid-date', why: issue.msg }, 422);
      return notFound(
        c,
        { kind: 'invalid-name', name, noun: registry.packageNoun, why: issue?.msg ?? 'not a package name' },
        422,
      );
    }
    const page = await renderedPackagePage(deps, packagePages, v, minDependents, baseOf(c));
    if ('reason' in page) {
      const held = heldRefusal(page);
      if (held !== null) return heldAnswer(c, held);
      const name = page.ref.id;
      return notFound(
        c,
        page.reason === 'not-watched'
          ? { kind: 'not-watched', name, noun: registry.packageNoun }
          : page.reason === 'no-census'
            ? { kind: 'no-census', name, noun: registry.packageNoun, factsPath: answerPath(page.ref) }
            : {
                kind: 'not-qualified',
                name,
                dependents: page.census.dependents,
                readDate: page.census.read_date,
                minDependents,
              },
        404,
      );
    }
    return send(c, page);
  };
  // One route per registry with pages, each in its purl's spelling (registries.ts packagePath).
  app.get('/npm/:name', (c) => packageRoute(c, 'npm', c.req.param('name')));
  app.get('/npm/:scope/:name', (c) => {
    const scope = c.req.param('scope');
    if (!scope.startsWith('@')) return notFound(c, { kind: 'no-page', path: c.req.path }, 404);
    return packageRoute(c, 'npm', `${scope}/${c.req.param('name')}`);
  });
  for (const kind of ['pypi', 'cargo', 'gem'] as const)
    app.get(`/${kind}/:name`, (c) => packageRoute(c, kind, c.req.param('name')));
  app.get('/maven/:group/:artifact', (c) =>
    packageRoute(c, 'maven', `${c.req.param('group')}:${c.req.param('artifact')}`),
  );
  app.get('/composer/:vendor/:name', (c) =>
    packageRoute(c, 'composer', `${c.req.param('vendor')}/${c.req.param('name')}`),
  );
  // A module path has any number of elements; none may hold a %-escape, so the raw path is the name.
  app.get('/golang/*', (c) => packageRoute(c, 'golang', c.req.path.slice('/golang/'.length)));
  // Kinds with no dependents count: a page once observed (registries.ts says why).
  app.get('/github/:owner/:repo', (c) => packageRoute(c, 'github', `${c.req.param('owner')}/${c.req.param('repo')}`));
  app.get('/nuget/:name', (c) => packageRoute(c, 'nuget', c.req.param('name')));
  app.get('/distro/:product/:release', (c) =>
    packageRoute(c, 'distro', `${c.req.param('product')}/${c.req.param('release')}`),
  );
  // An image reference as docker takes it (`library/node:22`, `ghcr.io/owner/image:1`): the raw path.
  app.get('/docker/*', (c) => packageRoute(c, 'docker', c.req.path.slice('/docker/'.length)));

  app.get('/robots.txt', (c) => {
    const s = site(c);
    return send(
      c,
      once(`robots|${s.baseUrl}`, () =>
        rendered(robotsTxt(s.baseUrl), { contentType: TEXT, cacheControl: PAGE_CACHE, lastModified: started }),
      ),
    );
  });
  app.get('/llms.txt', (c) => {
    const s = site(c);
    return send(
      c,
      once(`llms|${s.baseUrl}`, () =>
        rendered(llmsTxt(s.baseUrl, minDependents), {
          contentType: TEXT,
          cacheControl: PAGE_CACHE,
          lastModified: started,
        }),
      ),
    );
  });
  app.get('/prices.json', (c) => {
    const s = site(c);
    return send(
      c,
      once('prices', () =>
        rendered(JSON.stringify(pricesJson(s.rateLimitFree, s.rateLimitKey)), {
          contentType: 'application/json',
          cacheControl: PAGE_CACHE,
          lastModified: started,
        }),
      ),
    );
  });

  registerSitemapRoutes(app, deps, minDependents, STATIC_PATHS, baseOf);
}

/** A held component with no page: its short answer, never a 404 (held-answer.tsx says why 200). */
function heldAnswer(c: Context, held: HeldRefusal): Response {
  if (!wantsHtml(c)) return c.json(heldAnswerJson(held), 200);
  return send(
    c,
    rendered(renderHeldAnswer(held), {
      contentType: HTML,
      cacheControl: 'no-cache',
      lastModified: held.held.observed_at ?? new Date(),
    }),
  );
}

const verifyRoute = createRoute({
  method: 'get',
  path: '/verify',
  operationId: 'verifyLog',
  summary: 'Human and machine verification page for the log',
  description:
    'HTML by default: the browser checks the signed checkpoint and an inclusion proof itself (WebCrypto). With Accept: application/json, the head, the verifier key and where each proof lives.',
  responses: {
    200: {
      description: 'The verification page, or its machine form.',
      content: {
        'text/html': { schema: z.string() },
        'application/json': { schema: z.record(z.string(), z.unknown()) },
      },
    },
  },
});
