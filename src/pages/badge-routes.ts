import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { COMPONENT_KINDS } from '../domain/component.js';
import { datedRead } from '../domain/as-of.js';
import { ValidationError } from '../domain/errors.js';
import { clientOf } from '../limits/client.js';
import type { DiscoveryDeps } from '../operations/discovery.js';
import { factTarget } from '../operations/facts.js';
import { badgeTarget } from '../operations/read-badge.js';
import { badgeEndpointJson, badgeSvg, errorFace, type BadgeFace } from './badge.js';
import {
  badgeCache,
  badgeExtraHeaders,
  CURRENT_SECONDS,
  JSON_TYPE,
  renderedBadge,
  SVG,
  SVG_POLICY,
  type BadgeCache,
  type BadgeFormat,
} from './badge-answer.js';
import { send } from './respond.js';
import { excerpt } from '../domain/text.js';

const EXTENSIONS: Record<string, BadgeFormat | undefined> = { '.svg': 'svg', '.json': 'json' };

const params = z.object({
  kind: z.string().openapi({
    param: { name: 'kind', in: 'path' },
    description: `${COMPONENT_KINDS.slice(0, -1).join(', ')} or ${COMPONENT_KINDS.at(-1)}`,
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
  operationId: 'getBadgeSvg',
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
  operationId: 'getBadgeJson',
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

/**
 * `/badge/{kind}/{id}.svg` and `.json` (issue 18): the record where developers look. `badges` is
 * shared with the hot path when serve.ts puts one in front (http/hot-badge.ts).
 */
export function registerBadgeRoutes(app: OpenAPIHono, deps: DiscoveryDeps, badges: BadgeCache = badgeCache()): void {
  app.openAPIRegistry.registerPath(svgRoute);
  app.openAPIRegistry.registerPath(jsonRoute);
  // The id may hold "/" and "." (library/node:22, @scope/name, foo.js), so the route takes the rest
  // of the path and the extension is split off here.
  app.get('/badge/:kind/:file{.+}', async (c) => {
    const file = c.req.param('file');
    const dot = file.lastIndexOf('.');
    const format: BadgeFormat | undefined = dot < 0 ? undefined : EXTENSIONS[file.slice(dot)];
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
      // An unheld component's badge queues it, from its client's discovery share.
      const ref = factTarget(kind, id);
      const dated = datedRead(c.req.query('as_of'), deps.clock.now());
      target = await badgeTarget({ ...deps, asker: clientOf(c) }, ref, dated);
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
    const badge = await renderedBadge(deps, badges, target, format);
    return send(c, badge, 200, badgeExtraHeaders(format));
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
  return JSON.stringify(excerpt(text, 40));
}
