import type { ComponentKind } from '../domain/component.js';
import { packageVersion } from '../operations/read-package.js';
import { pageMinDependents, renderedPackagePage, type PackagePageCache } from '../pages/package-answer.js';
import type { PageDeps } from '../pages/routes.js';
import type { Rendered } from '../pages/respond.js';
import type { HotAnswer, HotProvider } from './hot-path.js';
import { datedQuery, plainPath } from './hot-path.js';
import { HTML_SECURITY_HEADERS } from './security-headers.js';

/**
 * The router's reading of a page path after `/{kind}/` (pages/routes.ts), as the package name it
 * passes on; undefined for a path its routes do not read as a package (a 404 the framework writes).
 */
const PAGE_PATHS: readonly [ComponentKind, (path: string) => string | undefined][] = [
  // /npm/:name and /npm/:scope/:name, the scope with its "@".
  ['npm', (path) => (path.indexOf('/') === -1 || (path.startsWith('@') && segments(path) === 2) ? path : undefined)],
  ['pypi', (path) => (segments(path) === 1 ? path : undefined)],
  ['cargo', (path) => (segments(path) === 1 ? path : undefined)],
  ['gem', (path) => (segments(path) === 1 ? path : undefined)],
  // /maven/:group/:artifact, named group:artifact as the purl spells it.
  ['maven', (path) => (segments(path) === 2 ? path.replace('/', ':') : undefined)],
  ['composer', (path) => (segments(path) === 2 ? path : undefined)],
  // /golang/*: a module path of any number of elements, as it is.
  ['golang', (path) => path],
  // The kinds with no census: /github/:owner/:repo, /nuget/:name, /distro/:product/:release, /docker/*.
  ['github', (path) => (segments(path) === 2 ? path : undefined)],
  ['nuget', (path) => (segments(path) === 1 ? path : undefined)],
  ['distro', (path) => (segments(path) === 2 ? path : undefined)],
  ['docker', (path) => path],
];

/** The security headers the framework adds to an HTML answer, as a flat list, made once. */
const HTML_HEADERS = HTML_SECURITY_HEADERS.flatMap(([name, value]) => [name.toLowerCase(), value]);

/**
 * GET /{kind}/{name} of a component with a page ("is X still maintained?"), one provider per kind: from the shared page cache, rendered and cached on a miss. The reads make no write, so
 * a package with no page (not watched, no census, below the adoption threshold) costs the framework
 * the same reads again when it is handed over, which explains it with a 404. Also to the framework:
 * a malformed name or date (a 422 or an error), any query but `as_of=YYYY-MM-DD`, an empty,
 * dot or encoded segment, a trailing slash (a 308) and If-Modified-Since (the route answers it from
 * Last-Modified).
 */
export function hotPackagePages(deps: PageDeps, pages: PackagePageCache): HotProvider[] {
  const minDependents = pageMinDependents(deps);
  return PAGE_PATHS.map(([kind, nameOf]) => ({
    prefix: `/${kind}/`,
    match(path, query, headers, encrypted) {
      const dated = datedQuery(query, deps.clock.now());
      if (dated === undefined || headers['if-modified-since'] !== undefined) return undefined;
      if (path === '' || path.endsWith('/') || !plainPath(path)) return undefined;
      const name = nameOf(path);
      if (name === undefined) return undefined;
      // The page's canonical links are absolute: its base is the one the route reads from its URL.
      const host = headers.host!;
      return async () => {
        const baseUrl = deps.publicUrl ?? new URL(`${encrypted ? 'https' : 'http'}://${host}`).origin;
        // An invalid name rejects here: the framework meets it again and explains it.
        const v = await packageVersion(deps, kind, name, dated);
        const page = await renderedPackagePage(deps, pages, v, minDependents, baseUrl);
        return 'reason' in page ? undefined : hotPage(page, pageRoute(kind, path));
      };
    },
  }));
}

/** The framework's pattern for each page route (pages/routes.ts): the metrics label a hot page shares. */
const PAGE_ROUTES: Partial<Record<ComponentKind, string>> = {
  pypi: '/pypi/:name',
  cargo: '/cargo/:name',
  gem: '/gem/:name',
  maven: '/maven/:group/:artifact',
  composer: '/composer/:vendor/:name',
  golang: '/golang/*',
  github: '/github/:owner/:repo',
  nuget: '/nuget/:name',
  distro: '/distro/:product/:release',
  docker: '/docker/*',
};

function pageRoute(kind: ComponentKind, path: string): string {
  if (kind === 'npm') return path.includes('/') ? '/npm/:scope/:name' : '/npm/:name';
  return PAGE_ROUTES[kind] ?? `/${kind}/*`;
}

function hotPage(page: Rendered, route: string): HotAnswer {
  return {
    body: page.body,
    contentType: page.contentType,
    etag: page.etag,
    headers: ['cache-control', page.cacheControl, 'last-modified', page.lastModified],
    bodyHeaders: HTML_HEADERS,
    licensed: false,
    route,
  };
}

function segments(path: string): number {
  let n = 1;
  for (let i = path.indexOf('/'); i !== -1; i = path.indexOf('/', i + 1)) n++;
  return n;
}
