import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { COMPONENT_KINDS } from '../domain/component.js';
import { issuesUnder, ValidationError } from '../domain/errors.js';
import { decodeText } from '../parsers/decode-text.js';
import { disputeComponent } from '../operations/dispute.js';
import { parseJsonBody } from '../operations/json-manifest.js';
import type { ObserverDeps } from '../operations/observe.js';
import { DISPUTE_LIMIT_BYTES, mediaType, readBody, UnsupportedMediaTypeError } from './body.js';
import { EntityResultSchema, ErrorDetail, errorResponses, json, ObservationSchema } from './schemas.js';

const NAME_HINT = 'name must name the component, e.g. "left-pad" or "expressjs/express"';

// Each message says what to send, so `{}` or a wrong type gets a sentence rather than zod's "Invalid input".
const DisputeBody = z
  .object(
    {
      kind: z
        .string({ error: `kind must be a string, one of ${COMPONENT_KINDS.join(', ')}` })
        .openapi({ description: `One of ${COMPONENT_KINDS.join(', ')}.`, example: 'npm' }),
      name: z
        .string({ error: `${NAME_HINT}, as a string` })
        .min(1, NAME_HINT)
        .openapi({ example: 'left-pad' }),
    },
    { error: 'The body must be a JSON object naming one component: {"kind": "npm", "name": "left-pad"}' },
  )
  .openapi('DisputeRequest');

const disputeRoute = createRoute({
  method: 'post',
  path: '/api/v1/dispute',
  operationId: 'disputeObservation',
  summary: 'Re-read a component’s public registry metadata now and record the result as a dated correction',
  description:
    'Appends a correction linked to today’s observation (or today’s first observation when there is none yet); never an edit of history. One dispute per component per day.',
  request: { body: { content: { 'application/json': { schema: DisputeBody } }, required: true } },
  responses: {
    200: json(
      z.object({
        disputed: z.object({ leaf_index: z.number().int(), state: z.string(), observation_date: z.string() }),
        reread: ObservationSchema,
        kind_of_record: z.enum(['correction', 'observation']),
        result: EntityResultSchema,
        license: z.literal('CC-BY-4.0'),
      }),
      'The re-read, as appended to the record.',
    ),
    409: json(ErrorDetail, 'This component was already disputed today.'),
    ...errorResponses,
  },
});

const DISPUTE_SHAPE = 'Send a JSON object naming one component, such as {"kind": "npm", "name": "left-pad"}.';

export function registerDisputeRoute(app: OpenAPIHono, deps: ObserverDeps): void {
  // The body is read here rather than by the OpenAPI validator, whose malformed-JSON answer is a
  // bare 400: this way an empty or broken body gets the 422 every other body Tended cannot read gets.
  app.openAPIRegistry.registerPath(disputeRoute);
  app.post('/api/v1/dispute', async (c) => {
    const type = mediaType(c);
    const header = c.req.header('content-type') ?? '';
    // As the OpenAPI validator read it: JSON or a +json type, and no empty parameter ("application/json;").
    if ((type !== 'application/json' && !type.endsWith('+json')) || header.trimEnd().endsWith(';'))
      throw new UnsupportedMediaTypeError(header, ['application/json']);
    const body = parseJsonBody(decodeText(await readBody(c, DISPUTE_LIMIT_BYTES)), DISPUTE_SHAPE);
    const parsed = DisputeBody.safeParse(body);
    if (!parsed.success) throw new ValidationError(issuesUnder('body', parsed.error.issues));
    return c.json(await disputeComponent(deps, parsed.data.kind, parsed.data.name), 200);
  });
}
