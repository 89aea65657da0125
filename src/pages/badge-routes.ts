import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { COMPONENT_KINDS } from '../domain/component.js';
import { ValidationError } from '../domain/errors.js';
import { AnswerCache } from '../operations/answer-cache.js';
import type { DiscoveryDeps } from '../operations/discovery.js';
import { badgeTarget, readBadge } from '../operations/read-badge.js';
import { badgeEndpointJson, badgeFace, badgeSvg, errorFace, type BadgeFace } from './badge.js';
import { rendered, send, type Rendered } from './respond.js';

const SVG = 'image/svg+xml; charset=utf-8';
const JSON_TYPE = 'application/json';
/**
 * Today's answer moves with the next observation (at most daily), so caches keep it five minutes,
 * shields.io's own floor. A past date's answer is settled; only a dispute's dated correction could
 * still change it, so it is kept a day (as the data answers are) and revalidated by its tag, not
 * marked immutable.
 */
const CURRENT_SECONDS = 300;
const PAST_SECONDS = 86_400;
/** An SVG opened on its own is a document of this origin: it may draw, never fetch or run anything. */
const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'";
// A badge is a few hundred bytes: the badges of a busy day's READMEs fit in a few MB.
const BADGE_CACHE_ENTRIES = 4000;

const EXTENSIONS = { '.svg': 'svg', '.json': 'json' } as const;
type BadgeFormat = (typeof EXTENSIONS)[keyof typeof EXTENSIONS];

const params = z.object({
  kind: z.string().openapi({
    param: { name: 'kind', in: 'path' },
    description: 'github, npm, pypi, docker, maven, golang, cargo, nuget, gem, composer or distro',
    example: 'npm',
  }),
  id: z.string().openapi({
    param: { name: 'id', in: 'path' },
    description:
      'The native id, as in /v1/trust_score/{kind}/{id}: express, @babel/core, expressjs/express, library/node:22',
    example: 'express',
  }),
});
const asOfQuery = z.object({
  as_of: z
    .string()
    .optional()
    .openapi({
      param: { name: 'as_of', in: 'query' },
      description: 'YYYY-MM-DD; default today',
      example: '2025-08-01',
    }),
});

const svgRoute = createRoute({
  method: 'get',
  path: '/badge/{kind}/{id}.svg',
  summary: 'A dated badge: the state and the date of the observation it rests on',
  description:
    'An SVG image such as `maintained? | archived · 2025-08-01`; "not checked" when the record holds no observation on or before as_of. ' +
    'Never a score. A request naming no component is answered with an image too, status 404 (unknown kind) or 400 (malformed id or as_of), saying what is wrong.',
  request: { params, query: asOfQuery },
  responses: {
    200: { content: { 'image/svg+xml': { schema: z.string() } }, description: 'The badge.' },
    400: {
      content: { 'image/svg+xml': { schema: z.string() } },
      description: 'A badge naming the malformed id or as_of.',
    },
    404: { content: { 'image/svg+xml': { schema: z.string() } }, description: 'A badge naming the unknown kind.' },
  },
});

const ShieldsEndpoint = z
  .object({
    schemaVersion: z.literal(1),
    label: z.string(),
    message: z.string(),
    color: z.string(),
    labelColor: z.string(),
    isError: z.boolean().optional(),
    cacheSeconds: z.number().int(),
  })
  .openapi('ShieldsEndpoint');

const jsonRoute = createRoute({
  method: 'get',
  path: '/badge/{kind}/{id}.json',
  summary: 'The same badge as a shields.io endpoint document',
  description:
    'For `https://img.shields.io/endpoint?url=…`. Errors are endpoint documents too (`isError: true`, status 400 or 404), since shields.io reads no other shape.',
  request: { params, query: asOfQuery },
  responses: {
    200: { content: { [JSON_TYPE]: { schema: ShieldsEndpoint } }, description: 'The badge.' },
    400: { content: { [JSON_TYPE]: { schema: ShieldsEndpoint } }, description: 'The malformed id or as_of.' },
    404: { content: { [JSON_TYPE]: { schema: ShieldsEndpoint } }, description: 'The unknown kind.' },
  },
});

/** `/badge/{kind}/{id}.svg` and `.json` (issue 18): the record where developers look. */
export function registerBadgeRoutes(app: OpenAPIHono, deps: DiscoveryDeps): void {
  const badges = new AnswerCache<Rendered>(BADGE_CACHE_ENTRIES);
  app.openAPIRegistry.registerPath(svgRoute);
  app.openAPIRegistry.registerPath(jsonRoute);
  // The id may hold "/" and "." (library/node:22, @scope/name, foo.js), so the route takes the rest
  // of the path and the extension is split off here.
  app.get('/badge/:kind/:file{.+}', async (c) => {
    const file = c.req.param('file');
    const dot = file.lastIndexOf('.');
    const format: BadgeFormat | undefined =
      dot < 0 ? undefined : EXTENSIONS[file.slice(dot) as keyof typeof EXTENSIONS];
    if (format === undefined)
      return refused(
        c,
        'svg',
        404,
        `a badge address ends in .svg or .json, for example /badge/${c.req.param('kind')}/${file}.svg`,
      );
    const kind = c.req.param('kind');
    const id = file.slice(0, dot);
    let target;
    try {
      target = await badgeTarget(deps, kind, id, c.req.query('as_of'));
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const at = error.issues[0]?.loc ?? [];
      // No such kind: nothing is at this address (404). A malformed id or date: the request is at fault (400).
      if (at.includes('kind'))
        return refused(c, format, 404, `unknown kind ${shown(kind)}: use ${COMPONENT_KINDS.join(', ')}`);
      if (at.includes('as_of'))
        return refused(
          c,
          format,
          400,
          `as_of must be a date YYYY-MM-DD, today or earlier; got ${shown(c.req.query('as_of') ?? '')}`,
        );
      return refused(c, format, 400, `${shown(id)} is not a valid ${kind.toLowerCase()} id; check its spelling`);
    }
    const seconds = target.past ? PAST_SECONDS : CURRENT_SECONDS;
    // Whether the date is past is part of the key: yesterday's badge made yesterday was "current".
    const key = `${format}|${target.past ? 'past' : 'current'}|${target.version}`;
    let badge = badges.get(key);
    if (!badge) {
      const reading = await readBadge(deps, target);
      const face = badgeFace(reading);
      badge = rendered(format === 'svg' ? badgeSvg(face) : badgeEndpointJson(face, seconds), {
        contentType: format === 'svg' ? SVG : JSON_TYPE,
        cacheControl: `public, max-age=${seconds}`,
        lastModified: `${reading.observation_date ?? reading.as_of}T00:00:00Z`,
        versionKey: key,
      });
      badges.set(key, badge);
    }
    return send(c, badge, 200, format === 'svg' ? { 'content-security-policy': SVG_POLICY } : undefined);
  });
}

/** A request that names no component still gets an image (or an endpoint document) saying why. */
function refused(c: Context, format: BadgeFormat, status: 400 | 404, reason: string): Response {
  c.header('Link', undefined);
  const face: BadgeFace = errorFace(reason);
  const headers = { 'cache-control': 'no-cache' };
  if (format === 'json')
    return c.body(badgeEndpointJson(face, CURRENT_SECONDS, true), status, { ...headers, 'content-type': JSON_TYPE });
  return c.body(badgeSvg(face), status, { ...headers, 'content-type': SVG, 'content-security-policy': SVG_POLICY });
}

/** A request's own text quoted back on a badge: short, so the reason around it stays readable. */
function shown(text: string): string {
  return JSON.stringify(text.length <= 40 ? text : `${text.slice(0, 39)}…`);
}
