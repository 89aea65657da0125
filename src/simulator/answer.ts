/**
 * What a simulated upstream answers, and the failures every upstream shares: the real status
 * codes, headers and body shapes of research/upstreams.md.
 */
import { COMMON_FAILS, type CommonFail, type Fail } from './scenario-phases.js';

export type Upstream =
  | 'github'
  | 'npm'
  | 'pypi'
  | 'endoflife'
  | 'dockerhub'
  | 'dependents'
  | 'maven'
  | 'goproxy'
  | 'rubygems'
  | 'packagist'
  | 'cratesindex'
  | 'crates'
  | 'nuget'
  | 'osv'
  | 'osvexport';

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  /** Text, or bytes for a binary file (the crates.io dump). */
  body: string | Buffer;
  /** A 200 that gets an ETag and is answered 304 to a matching If-None-Match. */
  cacheable?: boolean;
  /** For If-Modified-Since (GitHub sends Last-Modified). */
  lastModified?: string;
}

/** No HTTP answer at all: hang past the client's time-out, or drop the connection. */
export type Fault = { fault: 'hang' | 'reset' };
export type SimAnswer = HttpAnswer | Fault;

/** What a handler knows about the request and the simulated moment. */
export interface Ctx {
  /** `http://127.0.0.1:PORT/github`: absolute URLs (Location, links) keep the prefix. */
  base: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  today: string;
  nowSec: number;
  authorized: boolean;
  /** Chaos asks for waits short enough to keep a test fast. */
  short: boolean;
  /** A POST's body (OSV's query, GitHub's GraphQL); absent for a GET. */
  body?: string;
}

export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  cacheable = status === 200,
): HttpAnswer {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
    cacheable,
  };
}

/** A text answer (XML, go.mod, a plain-text error) with its content type. */
export function text(
  status: number,
  body: string,
  contentType: string,
  headers: Record<string, string> = {},
  cacheable = status === 200,
): HttpAnswer {
  return { status, headers: { 'content-type': contentType, ...headers }, body, cacheable };
}

export function html(status: number, text: string, headers: Record<string, string> = {}): HttpAnswer {
  return { status, headers: { 'content-type': 'text/html; charset=utf-8', ...headers }, body: text };
}

const GITHUB_DOCS = 'https://docs.github.com/rest';

const NOT_FOUND: Record<Upstream, (ctx: Ctx) => HttpAnswer> = {
  github: () =>
    json(404, {
      message: 'Not Found',
      documentation_url: `${GITHUB_DOCS}/repos/repos#get-a-repository`,
      status: '404',
    }),
  npm: () => json(404, { error: 'Not found' }),
  pypi: () => json(404, { message: 'Not Found' }),
  // endoflife.date's 404 is the site's HTML page, not JSON (#7922).
  endoflife: () =>
    html(
      404,
      '<!DOCTYPE html><html><head><title>404 - endoflife.date</title></head><body><h1>Page not found</h1></body></html>',
    ),
  dockerhub: (ctx) => {
    const m = /^\/v2\/(?:namespaces\/)?([^/]+)\/(?:repositories\/)?([^/]+)\/tags\/([^/]+)/.exec(ctx.path);
    const [, namespace = '', repository = '', tag = ''] = m ?? [];
    return json(404, {
      message: `httperror 404: tag '${decodeURIComponent(tag)}' not found`,
      errinfo: { namespace, repository, tag: decodeURIComponent(tag) },
    });
  },
  dependents: () => json(404, { error: 'Not Found' }),
  // Central answers a missing file with a bare 404 page.
  maven: () => html(404, '<html><head><title>404 Not Found</title></head><body><h1>404 Not Found</h1></body></html>'),
  // Azure Storage's answer for a blob that does not exist.
  nuget: () =>
    text(
      404,
      '<?xml version="1.0" encoding="utf-8"?><Error><Code>BlobNotFound</Code><Message>The specified blob does not exist.</Message></Error>',
      'application/xml',
    ),
  cratesindex: () => text(404, 'not found', 'text/plain'),
  crates: () => json(404, { errors: [{ detail: 'Not Found' }] }),
  osv: () => json(404, { code: 5, message: 'Not Found' }),
  // Cloud Storage's answer for an object that does not exist.
  osvexport: () =>
    text(
      404,
      "<?xml version='1.0' encoding='UTF-8'?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>",
      'application/xml; charset=UTF-8',
    ),
  packagist: () => json(404, '404 not found, no packages here'),
  rubygems: () => text(404, 'This rubygem could not be found.', 'text/plain; charset=utf-8'),
  // The proxy's errors are text/plain (research upstreams-more §2.4).
  goproxy: (ctx) => {
    const at = ctx.path.indexOf('/@');
    const module = at > 0 ? ctx.path.slice(1, at) : ctx.path.slice(1);
    return text(
      404,
      `not found: module ${module}: git ls-remote -q origin in /tmp/gopath/pkg/mod/cache/vcs/0a1b: exit status 128:\n\tfatal: could not read Username for 'https://github.com': terminal prompts disabled`,
      'text/plain; charset=utf-8',
    );
  },
};

export function notFound(upstream: Upstream, ctx: Ctx): HttpAnswer {
  return NOT_FOUND[upstream](ctx);
}

function githubLimitHeaders(ctx: Ctx, remaining: number, resetIn: number): Record<string, string> {
  return {
    'x-ratelimit-limit': ctx.authorized ? '5000' : '60',
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-used': ctx.authorized ? String(5000 - remaining) : String(60 - remaining),
    'x-ratelimit-reset': String(ctx.nowSec + resetIn),
    'x-ratelimit-resource': 'core',
  };
}

/** The answer for a failure every upstream can meet, in that upstream's own shape. */
export function commonFailure(upstream: Upstream, fail: CommonFail, ctx: Ctx, status?: number): SimAnswer {
  const wait = ctx.short ? 1 : 600;
  switch (fail) {
    case 'timeout':
      return { fault: 'hang' };
    case 'reset':
      return { fault: 'reset' };
    case 'not_found':
      return notFound(upstream, ctx);
    case 'malformed':
      return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"name": "trunc' };
    case 'unauthorized':
      return upstream === 'github'
        ? json(401, { message: 'Bad credentials', documentation_url: GITHUB_DOCS, status: '401' })
        : json(401, { error: 'Unauthorized' });
    case 'server_error': {
      const s = status ?? 500;
      if (upstream === 'endoflife')
        return html(s, '<html><body><h1>Bad gateway</h1><p>Netlify could not reach the site.</p></body></html>');
      return json(s, upstream === 'github' ? { message: 'Server Error' } : { error: 'Internal Server Error' });
    }
    case 'rate_limit_403':
    case 'rate_limit_429': {
      const code = fail === 'rate_limit_403' ? 403 : 429;
      if (upstream === 'dockerhub') {
        // Docker Hub: X-Retry-After is a unix time, not seconds.
        const at = String(ctx.nowSec + wait);
        return json(
          code,
          { message: 'rate limit exceeded' },
          { 'x-ratelimit-limit': '180', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': at, 'x-retry-after': at },
          false,
        );
      }
      if (upstream === 'github' || code === 403) {
        const message =
          "API rate limit exceeded for 203.0.113.7. (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)";
        return json(
          code,
          { message, documentation_url: `${GITHUB_DOCS}/using-the-rest-api/rate-limits-for-the-rest-api` },
          githubLimitHeaders(ctx, 0, wait),
          false,
        );
      }
      return json(429, { error: 'Too Many Requests' }, { 'retry-after': String(ctx.short ? 1 : 30) }, false);
    }
    case 'secondary_rate_limit':
    case 'secondary_rate_limit_no_headers': {
      const message =
        'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID.';
      const headers: Record<string, string> =
        fail === 'secondary_rate_limit' ? { 'retry-after': String(ctx.short ? 1 : 60) } : {};
      return json(
        403,
        {
          message,
          documentation_url: `${GITHUB_DOCS}/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits`,
        },
        headers,
        false,
      );
    }
  }
}

export function isCommonFail(fail: Fail): fail is CommonFail {
  return (COMMON_FAILS as readonly string[]).includes(fail);
}
