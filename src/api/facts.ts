import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { COMPONENT_KINDS } from '../domain/component.js';
import type { RecordDeps } from '../operations/deps.js';
import { dependencyRisk, factTarget, schemaHistory, trustFacts } from '../operations/facts.js';
import type { VerdictService } from '../operations/verdict.js';
import { errorResponses, json } from './schemas.js';

const params = z.object({
  kind: z.string().openapi({
    param: { name: 'kind', in: 'path' },
    description: `One of ${COMPONENT_KINDS.join(', ')}`,
    example: 'npm',
  }),
  id: z.string().openapi({
    param: { name: 'id', in: 'path' },
    description: 'The native id; a "/" may be sent as is or as %2F (expressjs/express, @babel/core)',
    example: 'express',
  }),
});

// The answers are open objects: their fields are described in the README; none is a score.
const Facts = (name: string) =>
  z
    .object({ note: z.string(), license: z.literal('CC-BY-4.0') })
    .passthrough()
    .openapi(name);

const routes = [
  {
    path: 'trust_score',
    summary: 'The dated facts a trust decision rests on; no score is computed',
    description:
      'State, evidence and its age, series and state changes, adoption (latest census) and the inclusion proof of the observation in the signed log. `score_computed` is always false: Tended offers no composite score.',
    read: (deps: AppFactDeps, ref: Parameters<typeof trustFacts>[1]) => trustFacts(deps, ref, deps.verdicts),
  },
  {
    path: 'schema_history',
    summary: 'The dated history of a component’s declared interface facts',
    description:
      'For npm: license, engines, exports/types presence and deprecation of the latest version, one row per observation date, with each dated change.',
    read: (deps: AppFactDeps, ref: Parameters<typeof schemaHistory>[1]) => schemaHistory(deps, ref),
  },
  {
    path: 'dependency_risk',
    summary: 'The held state of each direct dependency of the latest version, one dated result each',
    description:
      'Read from the latest observation that carried the dependency list; counts per state are counts, not a score.',
    read: (deps: AppFactDeps, ref: Parameters<typeof dependencyRisk>[1]) => dependencyRisk(deps, ref),
  },
] as const;

type AppFactDeps = RecordDeps & { verdicts?: VerdictService | null };

/**
 * The id may hold "/" (owner/repo, @scope/name, registry/namespace/image), so the route takes the
 * rest of the path as the id; the OpenAPI description names it as one parameter.
 */
export function registerFactRoutes(app: OpenAPIHono, deps: AppFactDeps): void {
  for (const route of routes) {
    app.openAPIRegistry.registerPath(
      createRoute({
        method: 'get',
        path: `/v1/${route.path}/{kind}/{id}`,
        // trust_score → getTrustScore: a name code generators turn into a method.
        operationId: `get${route.path.replace(/(?:^|_)([a-z])/g, (_, letter: string) => letter.toUpperCase())}`,
        summary: route.summary,
        description: route.description,
        request: { params },
        responses: { 200: json(Facts(`${route.path}_facts`), 'Dated facts; never a score.'), 422: errorResponses[422] },
      }),
    );
    app.get(`/v1/${route.path}/:kind/:id{.+}`, async (c) =>
      c.json(await route.read(deps, factTarget(c.req.param('kind'), c.req.param('id'))), 200),
    );
    // A kind with no id is a validation failure of the id, not an unknown address; so is a kind
    // followed by a slash and nothing (spec §7), rather than a redirect to the same 422.
    const missingId = (c: Context) => {
      factTarget(c.req.param('kind'), undefined); // always throws: a 422 at the kind or the id
      return c.notFound();
    };
    app.get(`/v1/${route.path}/:kind`, missingId);
    app.get(`/v1/${route.path}/:kind/`, missingId);
  }
}
