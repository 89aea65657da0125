import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { COMPONENT_KINDS } from '../domain/component.js';
import { datedRead } from '../domain/as-of.js';
import { ValidationError } from '../domain/errors.js';
import { planCheck } from '../operations/check-components.js';
import { answerBudget, checkAnswerBody } from './check-answer-body.js';
import { clientOf } from '../limits/client.js';
import type { DiscoveryDeps } from '../operations/discovery.js';
import type { VerdictService } from '../operations/verdict.js';
import { ComponentsBody, PastedBody } from '../operations/json-manifest.js';
import type { ParsePool } from '../operations/parse-pool.js';
import { mediaType, readBody, UnsupportedMediaTypeError } from './body.js';
import { decodeText } from '../parsers/decode-text.js';
import {
  ENRICHED_MEDIA_TYPES,
  ENRICHMENT_NAMESPACE,
  enrichedSbom,
  isSbomFormat,
  writableSbom,
  type SbomFormat,
} from '../operations/sbom-enrichment.js';
import { AsOfQuery, EntityResultSchema, ErrorDetail, json, SbomSubjectSchema, ValidationErrorBody } from './schemas.js';

const MANIFEST_TYPES = [
  'application/json',
  'text/plain',
  'application/yaml',
  'application/x-yaml',
  'text/yaml',
  'text/x-dockerfile',
];
const SBOM_TYPES = [
  'application/vnd.cyclonedx+json',
  'application/vnd.cyclonedx+xml',
  'application/spdx+json',
  'application/spdx+yaml',
  'text/spdx',
  'application/json',
  'application/xml',
  'text/xml',
  'application/yaml',
  'application/x-yaml',
  'text/yaml',
  'text/plain',
  'application/ld+json',
];

export const CheckAnswerSchema = z
  .object({
    as_of: z.string(),
    format: z.string(),
    variant: z.string().optional(),
    subject: z.union([SbomSubjectSchema, z.null()]).optional(),
    results_count: z.number().int().openapi({ description: 'Results in this answer: at most 10,000.' }),
    unresolved_count: z
      .number()
      .int()
      .openapi({ description: 'Every entry that named no component Tended can look up, all counted.' }),
    results_omitted: z.number().int().optional().openapi({
      description:
        'Only when the submission named more than 10,000 components, or the answer reached its size bound (ten times the submission plus 1 MB): how many entries were not checked or not written. Send them in another request.',
    }),
    unresolved_omitted: z.number().int().optional().openapi({
      description: 'Only when more than 1,000 entries are unresolved: how many are counted but not listed.',
    }),
    unresolved_by_reason: z.record(z.string(), z.number().int()).optional().openapi({
      description: 'With unresolved_omitted: every unresolved entry counted by its reason (at most 100 reasons).',
    }),
    results: z
      .array(
        EntityResultSchema.omit({ state_definition: true }).extend({
          input: z.object({
            name: z.string(),
            kind: z.enum(COMPONENT_KINDS),
            locations: z
              .array(z.object({ input: z.string(), location: z.string() }))
              .openapi({ description: 'The first 20 places the submission names this component.' }),
            locations_omitted: z
              .number()
              .int()
              .optional()
              .openapi({ description: 'Only when it is named in more than 20 places: how many more.' }),
          }),
          resolved_version: z.string().optional().openapi({
            description:
              'Lockfiles and SBOMs: the version the file resolved (states are per package; the version is context).',
          }),
          resolved_versions: z.array(z.string()).optional().openapi({
            description: 'Only when the file resolved more than one version of the package: each (at most 20).',
          }),
          scope: z.enum(['direct', 'transitive']).optional().openapi({
            description:
              '`direct`: the project names it; `transitive`: only another package needs it. Absent where the file does not say (go.sum alone, an SBOM without a dependency graph).',
          }),
          dev: z.literal(true).optional().openapi({ description: 'The file says it is needed only for development.' }),
          optional: z.literal(true).optional().openapi({ description: 'The file says it is optional.' }),
          via: z
            .array(z.string())
            .optional()
            .openapi({
              description:
                'One shortest path from a direct dependency: names from the direct dependency down to this one’s parent; [] for a direct dependency. A path longer than 16 names keeps its first and last eight.',
              example: ['rimraf', 'glob'],
            }),
          via_elided: z.number().int().optional().openapi({
            description: 'Only for a path longer than 16 names: how many were left out of `via` between its two ends.',
          }),
          via_unresolved: z.string().optional().openapi({
            description: 'The path runs through this entry, which names no component Tended can observe.',
          }),
        }),
      )
      .openapi({
        description:
          'Each an entity result without `state_definition` (given once in `state_definitions`); a component never observed has no per-result note, its `source` says "not checked".',
      }),
    unresolved: z.array(z.object({ input: z.string(), location: z.string(), reason: z.string() })).openapi({
      description:
        'The first 1,000 unresolved entries; inputs, locations and reasons quoted back are cut to 200 characters, the middle elided.',
    }),
    states: z.record(z.string(), z.number().int()),
    state_definitions: z.record(z.string(), z.record(z.string(), z.string())).openapi({
      description: 'The meaning of every state the results carry, by kind then state.',
      example: { npm: { alive: 'latest published version 180 days ago or less' } },
    }),
    discovery: z
      .object({
        unheld: z.number().int(),
        queued: z.number().int(),
        not_queued: z.number().int(),
        note: z.string(),
      })
      .optional()
      .openapi({
        description:
          'Present when the record holds no observation of some components: how many, how many are queued for observation (with `?queue=true`), and a sentence saying why the rest are not and how to ask.',
      }),
    note: z.string(),
    license: z.literal('CC-BY-4.0'),
  })
  .openapi('CheckAnswer');

const QueueQuery = z.enum(['true', 'false']).optional().openapi({
  description:
    'true: queue the components the record holds no observation of for observation (at most 1,000 a request; a daily bound per deployment). Only the names are kept, nothing about the request; a name the upstream does not show public is dropped without a trace.',
});

const SbomFormatQuery = z
  .enum(['cyclonedx', 'spdx'])
  .optional()
  .openapi({
    description: `Absent: the JSON answer. \`cyclonedx\` or \`spdx\`: the submitted SBOM itself, in its own format, every field untouched, each component with a result carrying it in the \`${ENRICHMENT_NAMESPACE}\` namespace (CycloneDX properties, plus \`cdx:lifecycle:milestone:endOfLife\` for eol; one SPDX annotation per package). CycloneDX 1.3+ JSON and SPDX 2.2/2.3 JSON; a format other than the SBOM's own is a 422. See docs/api.md.`,
  });

/** `?format=` of the SBOM route read by hand: undefined for the JSON answer. */
function sbomFormatAsked(value: string | undefined): SbomFormat | undefined {
  if (value === undefined) return undefined;
  if (isSbomFormat(value)) return value;
  throw new ValidationError([
    {
      loc: ['query', 'format'],
      msg: 'format is cyclonedx or spdx (the submitted SBOM returned enriched in its own format); leave it out for the JSON answer',
      type: 'value_error',
    },
  ]);
}

/** `?queue=` read by hand (the submission routes read their own bodies and queries). */
function queueAsked(value: string | undefined): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new ValidationError([
    {
      loc: ['query', 'queue'],
      msg: 'queue must be true or false (true queues unheld components for observation)',
      type: 'value_error',
    },
  ]);
}

const submissionResponses = {
  200: json(CheckAnswerSchema, 'One dated result per component, and every entry that names none with the reason.'),
  413: json(ErrorDetail, 'The body is over 4 MB; `tended check FILE` reads a larger file locally.'),
  415: json(ErrorDetail, 'A content type this route does not read.'),
  422: json(
    ValidationErrorBody,
    'A parameter or the body is malformed: empty, not valid JSON (where it broke), or a file Tended cannot place or read.',
  ),
  503: json(
    ErrorDetail,
    'Every parse worker is busy and the queue is full (Retry-After: 2), or the database does not answer.',
  ),
};

const manifestRoute = createRoute({
  method: 'post',
  path: '/api/v1/manifest',
  operationId: 'checkManifest',
  summary: 'One dated result per component a manifest names',
  description:
    'JSON `{"components":[{"name","kind"}]}` (kind: github, npm, pypi, docker), or `{"filename"?, "content"}` holding a pasted GitHub Actions workflow, Dockerfile, package.json or requirements.txt, or the file itself as the body. The format comes from `?format=`, then `filename`, then the content. Nothing is stored.',
  request: {
    query: AsOfQuery.extend({
      format: z.enum(['workflow', 'dockerfile', 'package-json', 'requirements']).optional(),
      queue: QueueQuery,
    }),
    body: {
      content: {
        'application/json': { schema: z.union([ComponentsBody, PastedBody]) },
        'text/plain': { schema: z.string() },
      },
    },
  },
  responses: submissionResponses,
});

const sbomRoute = createRoute({
  method: 'post',
  path: '/api/v1/sbom',
  operationId: 'checkSbom',
  summary: 'One dated result per component of a CycloneDX or SPDX SBOM (max 4 MB)',
  description:
    'CycloneDX 1.2–1.7 JSON or XML, SPDX 2.2/2.3 JSON, YAML or tag-value, SPDX 3.0 JSON-LD; by content type or detection. Parsed in memory, never stored or logged.',
  request: {
    query: AsOfQuery.extend({ queue: QueueQuery, format: SbomFormatQuery }),
    body: {
      content: Object.fromEntries(SBOM_TYPES.map((type) => [type, { schema: z.string() }])),
    },
  },
  responses: {
    ...submissionResponses,
    200: {
      description:
        'One dated result per component, and every entry that names none with the reason; with `?format=`, the submitted SBOM enriched.',
      content: {
        'application/json': { schema: CheckAnswerSchema },
        [ENRICHED_MEDIA_TYPES.cyclonedx]: {
          schema: z.string().openapi({ description: 'The submitted CycloneDX JSON, enriched (`?format=cyclonedx`).' }),
        },
        [ENRICHED_MEDIA_TYPES.spdx]: {
          schema: z.string().openapi({ description: 'The submitted SPDX JSON, enriched (`?format=spdx`).' }),
        },
      },
    },
  },
});

/**
 * The submission routes read their bodies themselves (readBody), so the 4 MB limit holds while the
 * body streams in; the route definitions go to the OpenAPI registry for the description only.
 */
export function registerSubmissionRoutes(
  app: OpenAPIHono,
  deps: DiscoveryDeps & { verdicts?: VerdictService | null; parsing: ParsePool },
): void {
  app.openAPIRegistry.registerPath(manifestRoute);
  app.openAPIRegistry.registerPath(sbomRoute);

  app.post('/api/v1/manifest', async (c) => {
    const type = mediaType(c);
    if (type !== '' && !MANIFEST_TYPES.includes(type) && !type.startsWith('text/'))
      throw new UnsupportedMediaTypeError(type, MANIFEST_TYPES);
    const queue = queueAsked(c.req.query('queue'));
    const body = await readBody(c);
    // Measured before the parse: the bytes move to the worker, which leaves this view empty.
    const budget = answerBudget(body.byteLength);
    const format = c.req.query('format');
    const submitted = await deps.parsing.parse(
      { route: 'manifest', body, json: type === 'application/json', format },
      clientOf(c)?.parseKey,
    );
    // With ?queue=true the names are queued from the client's discovery share.
    const dated = datedRead(c.req.query('as_of'), deps.clock.now());
    const plan = await planCheck({ ...deps, asker: clientOf(c) }, submitted, dated, deps.verdicts, { queue });
    return c.body(checkAnswerBody(plan, budget), 200, {
      'Content-Type': 'application/json',
    });
  });

  app.post('/api/v1/sbom', async (c) => {
    const type = mediaType(c);
    if (type !== '' && !SBOM_TYPES.includes(type)) throw new UnsupportedMediaTypeError(type, SBOM_TYPES);
    const queue = queueAsked(c.req.query('queue'));
    const asked = sbomFormatAsked(c.req.query('format'));
    const body = await readBody(c);
    const budget = answerBudget(body.byteLength);
    // Written back, the SBOM is needed after the parse, whose worker takes the bytes: send it the text.
    const text = asked === undefined ? undefined : decodeText(body);
    const submitted = await deps.parsing.parse(
      { route: 'sbom', body: text ?? body, contentType: type },
      clientOf(c)?.parseKey,
    );
    // Refused before any result is looked up when the SBOM cannot be written back as asked.
    const writable = text !== undefined && asked !== undefined ? writableSbom(text, submitted, asked) : undefined;
    const dated = datedRead(c.req.query('as_of'), deps.clock.now());
    const plan = await planCheck({ ...deps, asker: clientOf(c) }, submitted, dated, deps.verdicts, { queue });
    if (writable !== undefined) {
      const results = [];
      for await (const chunk of plan.results(1024)) {
        plan.keep(chunk);
        results.push(...chunk);
      }
      return c.body(enrichedSbom(writable, results), 200, { 'Content-Type': writable.mediaType });
    }
    return c.body(checkAnswerBody(plan, budget), 200, {
      'Content-Type': 'application/json',
    });
  });
}
