import { z } from '@hono/zod-openapi';
import { COMPONENT_KINDS } from '../domain/component.js';
import { STATES } from '../domain/state.js';

/** Response shapes for the OpenAPI document. The operations build these objects; these describe them. */

const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .openapi({ example: '2025-07-01' });
const state = z.enum(STATES).openapi({ description: 'One of the eight states; /methodology says what each means.' });
const asserted = z.enum(['alive', 'dormant', 'abandoned', 'archived', 'deleted', 'eol']);

export const AsOfQuery = z.object({
  as_of: z
    .string()
    .optional()
    .openapi({
      param: { name: 'as_of', in: 'query' },
      description: 'A UTC date YYYY-MM-DD, not after today: the answer as the record stood on that date.',
      example: '2025-07-01',
    }),
});

export const ErrorDetail = z
  .object({ detail: z.string().openapi({ example: 'There is no route GET /api/v2/entity; see /api/v1/docs.' }) })
  .openapi('Error');

export const ValidationErrorBody = z
  .object({
    detail: z.array(
      z.object({
        loc: z.array(z.union([z.string(), z.number().int()])),
        msg: z.string(),
        type: z.string(),
      }),
    ),
  })
  .openapi('ValidationError');

export const VerdictSchema = z
  .object({
    envelope: z
      .object({
        payloadType: z.literal('application/vnd.in-toto+json'),
        payload: z.string().openapi({ description: 'base64 of an in-toto Statement v1 (RFC 8785 JSON)' }),
        signatures: z.array(z.object({ keyid: z.string(), sig: z.string() })),
      })
      .openapi({
        description: 'DSSE v1 envelope, signed with the active key of /.well-known/service-verdict-keys.json',
      }),
    checkpoint: z.string().openapi({ description: 'The signed C2SP checkpoint the statement names.' }),
    leaf: z
      .string()
      .nullable()
      .openapi({ description: 'base64 of the observation leaf bytes; the subject digest is their SHA-256.' }),
    inclusion_proof: z
      .object({ leaf_index: z.number().int(), tree_size: z.number().int(), hashes: z.array(z.string()) })
      .nullable(),
  })
  .openapi('Verdict', { description: 'Present with TENDED_VERDICTS=on; verify offline with `tended verify-verdict`.' });

export const SbomSubjectSchema = z
  .object({
    name: z.string().openapi({
      description:
        'The name as the SBOM writes it (CycloneDX: group/name when a group is given); "(unnamed)" when it gives none.',
    }),
    version: z.string().optional(),
    purl: z.string().optional().openapi({ description: 'The subject’s package URL as written, not normalised.' }),
    bom_ref: z
      .string()
      .optional()
      .openapi({ description: 'Its bom-ref (CycloneDX) or SPDXID / spdxId (SPDX), to find it in the file.' }),
  })
  .openapi('SbomSubject', {
    description:
      'SBOM answers only (absent for manifests). What the SBOM describes: CycloneDX `metadata.component` (never one of the results), the one package an SPDX 2 document DESCRIBES, or the one package root element of an SPDX 3 document (both also among the results). Null when the SBOM names no single subject.',
  });

/** One observation as the log holds it: a dispute's new reading, a webhook's message. */
export const ObservationSchema = z.object({
  observation_date: z.string(),
  observed_at: z.string(),
  state: z.string(),
  source: z.string(),
  evidence: z.record(z.string(), z.unknown()),
  method: z.string(),
  corrects: z.number().int().nullable(),
  leaf_index: z.number().int(),
});

export const EntityResultSchema = z
  .object({
    purl: z.array(z.string()).openapi({
      description: 'Index 0 is the native id; index 1 the pkg: Package-URL.',
      example: ['expressjs/express', 'pkg:github/expressjs/express'],
    }),
    kind: z.enum(COMPONENT_KINDS),
    as_of: date,
    state,
    state_definition: z.string().openapi({
      description:
        'What the state means for this kind. Where observation_date is null nothing was read: it says "not checked", never a check that met a failure.',
    }),
    observation_date: date
      .nullable()
      .openapi({ description: 'The real date of the observation the answer rests on; null when none.' }),
    source: z.string().openapi({ description: 'The evidence: the upstream URL read, or why nothing was checked.' }),
    censoring_status: z.enum(['observed-on-date', 'interval-censored', 'not-observed-at-date']),
    observed_at: z.string().nullable(),
    evidence: z
      .record(z.string(), z.unknown())
      .nullable()
      .openapi({ description: 'The raw facts read: HTTP status, dates, flags. Numbers are integers.' }),
    method: z.string().nullable(),
    leaf_index: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'The observation’s leaf in the Merkle log; prove it at /api/chain/proof/inclusion.' }),
    last_asserted: z.object({ state: asserted, observation_date: date, leaf_index: z.number().int() }).nullable(),
    note: z.string().optional(),
    queued: z.boolean().optional().openapi({
      description:
        'true when the record holds no observation of the component and it is queued for observation: "not checked yet", read within a day.',
    }),
    successor: z
      .object({ kind: z.enum(COMPONENT_KINDS), name: z.string() })
      .optional()
      .openapi({
        description:
          "The replacement the registry's or advisory database's own declaration names, read from the evidence (npm's deprecation message by a written rule, NuGet's alternatePackage, Packagist's abandoned, Maven's relocation, PEP 792's reason); absent when the declaration names none. Never guessed. See the methodology's successors table.",
        example: { kind: 'npm', name: '@eslint/config-array' },
      }),
    verdict: VerdictSchema.optional(),
  })
  .openapi('EntityResult');

const SeriesRow = z.object({ observation_date: date, state, leaf_index: z.number().int(), corrected: z.boolean() });
const Mutation = z.object({
  from: asserted,
  to: asserted,
  observed: date,
  leaf_index: z.number().int(),
  interval: z.object({ after: date, on_or_before: date }),
});

export const EntityAnswerSchema = EntityResultSchema.extend({
  series: z.array(SeriesRow),
  observations_count: z.number().int(),
  first_observed: date.nullable(),
  last_observed: date.nullable(),
  state_changes: z.number().int(),
  mutations: z.array(Mutation),
  see_also: z
    .object({ kind: z.string(), id: z.string(), facts: z.string(), page: z.string(), badge: z.string() })
    .optional()
    .openapi({
      description:
        'Only on a repository the record holds nothing for whose owner is a registry (npm, pypi, cargo, gem, nuget) and whose name is a package the record holds: where that package’s answer (facts), page and badge are.',
    }),
  license: z.literal('CC-BY-4.0'),
}).openapi('EntityAnswer');

export const OrgAnswerSchema = z
  .object({
    org: z.string(),
    as_of: date,
    components_count: z.number().int(),
    components: z.array(
      EntityResultSchema.extend({ observations_count: z.number().int(), state_changes: z.number().int() }),
    ),
    note: z.string().optional(),
    queued: z.literal(true).optional().openapi({
      description:
        'Set when this read queued the owner (the record holds nothing under it): its public repositories are listed and read within a day.',
    }),
    license: z.literal('CC-BY-4.0'),
  })
  .openapi('OrgAnswer');

export const HeadSchema = z
  .object({
    origin: z.string(),
    tree_size: z.number().int(),
    root_hash: z.string().openapi({ description: 'Base64 SHA-256 Merkle root (RFC 9162).' }),
    timestamp: z.string(),
    prev_head_hash: z
      .string()
      .nullable()
      .openapi({ description: 'head_hash of the previous head: the heads form a hash chain.' }),
    head_hash: z.string(),
    checkpoint: z
      .string()
      .openapi({ description: 'The C2SP signed checkpoint; take size and root from it after verifying.' }),
    verifier_key: z.string().openapi({ description: 'The C2SP verifier key to pin.' }),
    verifier_keys: z.array(z.string()).openapi({
      description:
        'Every checkpoint key the log has published, the current one first; older heads are signed by retired ones.',
    }),
  })
  .openapi('ChainHead');

export const InclusionProofSchema = z
  .object({ index: z.number().int(), size: z.number().int(), leaf_hash: z.string(), hashes: z.array(z.string()) })
  .openapi('InclusionProof');

export const ConsistencyProofSchema = z
  .object({ from: z.number().int(), to: z.number().int(), hashes: z.array(z.string()) })
  .openapi('ConsistencyProof');

export const HealthSchema = z
  .object({
    status: z.enum(['ok', 'unavailable']),
    store: z.string(),
    tree_size: z.number().int().nullable(),
    detail: z.string().optional(),
    dependencies: z.object({ store: z.enum(['up', 'down']), redis: z.enum(['up', 'down']).optional() }).openapi({
      description:
        'Each dependency, `down` while it does not answer. Redis down is a degradation (in-process rate-limit buckets), not a failure: the status stays `ok`.',
    }),
    rate_limit: z
      .object({
        buckets: z.enum(['memory', 'redis']),
        redis: z.enum(['connecting', 'connected', 'unreachable']).optional(),
      })
      .optional()
      .openapi({
        description:
          'Where the rate-limit buckets are: `memory` while Redis (REDIS_URL) is unreachable, until it is back.',
      }),
    followers: z
      .array(
        z.object({
          registry: z.string(),
          status: z.enum(['starting', 'ok', 'lagging', 'failing']),
          lag_seconds: z.number().int().nullable(),
          last_contiguous_at: z.string().nullable(),
          faults_seen: z.number().int(),
          last_fault: z.string().nullable(),
          backfill: z.object({ listed: z.number().int(), read_once: z.number().int() }),
          following_here: z.boolean(),
        }),
      )
      .optional()
      .openapi({
        description:
          'Each followed registry (TENDED_FOLLOW): `lagging` after an hour without a contiguous read of its feed, `failing` while this process’s last pass failed. A follower’s trouble never changes the status: the record still answers.',
      }),
  })
  .openapi('Health');

export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { 'application/json': { schema } },
  description,
});

export const errorResponses = {
  404: json(ErrorDetail, 'Nothing at this address.'),
  422: json(ValidationErrorBody, 'A parameter is malformed; `detail` says which and why.'),
} as const;
