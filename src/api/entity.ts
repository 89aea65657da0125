import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { datedRead } from '../domain/as-of.js';
import { clientOf } from '../limits/client.js';
import type { DiscoveryDeps } from '../operations/discovery.js';
import type { VerdictService } from '../operations/verdict.js';
import type { AnswerCache } from '../operations/answer-cache.js';
import { entityAnswerCache, readEntityJson, readOrg, type EntityJson } from '../operations/read-entity.js';
import { AsOfQuery, EntityAnswerSchema, OrgAnswerSchema, errorResponses, json } from './schemas.js';

const pathParam = (name: string, example: string) => z.string().openapi({ param: { name, in: 'path' }, example });

const entityRoute = createRoute({
  method: 'get',
  path: '/api/v1/entity/{owner}/{repo}',
  operationId: 'getRepository',
  summary: 'The dated continuity series of one GitHub repository',
  description:
    'The state at `as_of` (default today) with the real date, source and censoring status of the observation it rests on, ' +
    'the dated series up to that date and the state-mutation history. Never a nearest-value guess.',
  request: {
    params: z.object({ owner: pathParam('owner', 'expressjs'), repo: pathParam('repo', 'express') }),
    query: AsOfQuery,
  },
  responses: { 200: json(EntityAnswerSchema, 'The answer at as_of.'), ...errorResponses },
});

const orgRoute = createRoute({
  method: 'get',
  path: '/api/v1/org/{org}',
  operationId: 'getOrg',
  summary: 'The held observations under an owner namespace',
  request: { params: z.object({ org: pathParam('org', 'expressjs') }), query: AsOfQuery },
  responses: { 200: json(OrgAnswerSchema, 'One answer per repository held under the owner.'), ...errorResponses },
});

/** When the caller brings no cache (tests): 16 MB of answers. `serve` shares its own with the hot path. */
const DEFAULT_ANSWER_CACHE_BYTES = 16 * 1024 * 1024;

export function registerEntityRoutes(
  app: OpenAPIHono,
  deps: DiscoveryDeps & { verdicts?: VerdictService | null; entityAnswers?: AnswerCache<EntityJson> },
): void {
  const answers = deps.entityAnswers ?? entityAnswerCache(DEFAULT_ANSWER_CACHE_BYTES);
  // Documented by its OpenAPI route but served plainly: the schema's validators cost an uncached
  // read a third of its rate (bench:read without the hot path: 10,341 req/s plain, 7,060 through
  // app.openapi), and datedRead and readEntity refuse what they would.
  app.openAPIRegistry.registerPath(entityRoute);
  app.get('/api/v1/entity/:owner/:repo', async (c) => {
    const [owner, repo] = [c.req.param('owner'), c.req.param('repo')];
    const dated = datedRead(c.req.query('as_of'), deps.clock.now());
    // A read of an unheld repository queues it, from its client's discovery share.
    const answer = await readEntityJson({ ...deps, asker: clientOf(c) }, answers, owner, repo, dated, deps.verdicts);
    // The body is the serialised EntityAnswer the schema describes; it is built by readEntity.
    return c.body(answer.json, 200, { 'content-type': 'application/json', ETag: answer.etag }) as never;
  });
  app.openapi(orgRoute, async (c) => {
    const dated = datedRead(c.req.valid('query').as_of, deps.clock.now());
    return c.json(await readOrg({ ...deps, asker: clientOf(c) }, c.req.valid('param').org, dated), 200);
  });
}
