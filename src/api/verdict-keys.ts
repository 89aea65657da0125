import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { VerdictService } from '../operations/verdict.js';
import { ErrorDetail, errorResponses, json } from './schemas.js';

const KeySetSchema = z
  .object({
    version: z
      .number()
      .int()
      .openapi({ description: 'Grows by one per rotation; each version is a superset of the one before.' }),
    issued_at: z.string(),
    keys: z.array(
      z.object({
        kty: z.literal('OKP'),
        crv: z.literal('Ed25519'),
        x: z.string(),
        kid: z.string().openapi({ description: 'RFC 7638 thumbprint; the DSSE keyid.' }),
        alg: z.literal('Ed25519'),
        use: z.literal('sig'),
        status: z.enum(['active', 'retired']),
        valid_from: z.string(),
        valid_until: z.string().nullable(),
      }),
    ),
    log: z.object({
      origin: z.string(),
      vkeys: z.array(
        z.object({
          vkey: z.string(),
          status: z.enum(['active', 'retired']),
          valid_from: z.string(),
          valid_until: z.string().nullable(),
        }),
      ),
    }),
    signature: z
      .object({
        payloadType: z.string(),
        payload: z.string(),
        signatures: z.array(z.object({ keyid: z.string(), sig: z.string() })),
      })
      .openapi({
        description:
          'DSSE envelope of this version (payloadType application/vnd.tended.keyset+json), signed by a key of the previous version.',
      }),
    leaf_index: z.number().int().openapi({ description: 'The log leaf holding this version’s SHA-256 digest.' }),
    digest: z.string(),
  })
  .openapi('VerdictKeySet');

const route = createRoute({
  method: 'get',
  path: '/.well-known/service-verdict-keys.json',
  operationId: 'getVerdictKeys',
  summary: 'The verdict key set to pin (JWK Set); 404 while verdict envelopes are off',
  description:
    'A published key is never removed: a rotated key stays, marked retired, with its validity window. `?version=N` serves an earlier version, so a client that pinned it can walk the chain of versions to the newest (`tended verify-verdict --keys` repeated).',
  request: {
    query: z.object({
      version: z.coerce
        .number({ error: 'version must be a whole number from 1' })
        .int({ error: 'version must be a whole number from 1' })
        .min(1, 'version must be a whole number from 1')
        .optional()
        .openapi({
          param: { name: 'version', in: 'query' },
          description: 'A key-set version; the newest when absent.',
          type: 'integer',
        }),
    }),
  },
  responses: {
    200: json(KeySetSchema, 'The JWK Set (never empty).'),
    404: json(ErrorDetail, 'Verdict envelopes are off (TENDED_VERDICTS=off), or no such version was published.'),
    422: errorResponses[422],
  },
});

export function registerVerdictKeysRoute(app: OpenAPIHono, verdicts: VerdictService | null | undefined): void {
  app.openapi(route, async (c) => {
    if (!verdicts) {
      return c.json(
        {
          detail:
            'Verdict envelopes are off on this service (TENDED_VERDICTS=off), so no verdict key set is published.',
        },
        404,
      );
    }
    const { version } = c.req.valid('query');
    if (version === undefined) return c.json(await verdicts.keySet(), 200);
    const published = await verdicts.keySetVersion(version);
    if (!published.keySet) {
      return c.json(
        { detail: `No verdict key set version ${version} was published; versions 1 to ${published.newest} are.` },
        404,
      );
    }
    return c.json(published.keySet, 200);
  });
}
