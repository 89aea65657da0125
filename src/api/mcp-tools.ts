import { z } from '@hono/zod-openapi';
import { COMPONENT_KINDS, normaliseComponent } from '../domain/component.js';
import { datedRead } from '../domain/as-of.js';
import { ERROR_ANSWERS, TendedError, type ValidationError } from '../domain/errors.js';
import { checkComponents, planCheck } from '../operations/check-components.js';
import { unheldNote, type DiscoveryDeps } from '../operations/discovery.js';
import type { VerdictService } from '../operations/verdict.js';
import { DATA_LICENSE } from '../operations/entity-answer.js';
import type { ParsePool } from '../operations/parse-pool.js';
import type { SubmittedComponents } from '../operations/submitted-components.js';
import { checkAnswerPieces } from './check-answer-body.js';
import { readHead, readInclusionProof, readLeaf } from '../operations/read-chain.js';
import { readEntity, readOrg } from '../operations/read-entity.js';
import { MANIFEST_FORMATS, manifestFileNames } from '../parsers/reference.js';
import {
  EntityAnswerSchema,
  EntityResultSchema,
  HeadSchema,
  InclusionProofSchema,
  OrgAnswerSchema,
} from './schemas.js';
import { STORE_UNAVAILABLE_DETAIL } from './health.js';
import { CheckAnswerSchema } from './submissions.js';

/**
 * The MCP tools: each is the JSON API's read under another name, so an agent gets exactly the
 * facts a person gets from the API (date, source, censoring status, leaf index, licence). None
 * writes to the record, none reaches an upstream: every answer comes from the record as held. As
 * on the API, a tool naming one unheld component queues it for observation, and check_manifest /
 * check_sbom queue theirs when asked (`queue: true`): the watch list is not the record. With
 * TENDED_VERDICTS=on, the results the API signs (component, manifest, SBOM, series) carry the same
 * signed verdict here.
 */

/** What the tools read with: the record, discovery's settings, the parse pool, and the verdict signer when TENDED_VERDICTS=on. */
export type ToolDeps = DiscoveryDeps & {
  readonly verdicts?: VerdictService | null;
  readonly parsing: ParsePool;
  /** Where a fault inside a tool goes (never the arguments). */
  readonly logError: (error: unknown) => void;
};

/**
 * The bytes one MCP request's answers may still take: ten times its body plus 1 MB, shared by
 * every call of a batch (issue 24: a batch of 100 check_manifest calls answered 94 MB for 892 KB).
 */
export interface AnswerBytes {
  remaining: number;
  /**
   * Settles when this request's previous call is done: a batch's calls run one after another, so
   * one request holds at most one parse worker however many calls it carries (the SDK starts a
   * batch's calls at once, which filled the pool's queue for everyone), and each call sees what
   * the calls before it left of the bound.
   */
  turn?: Promise<void>;
}

/**
 * A tool result carries its answer twice (as text, where every quote is escaped, and as
 * structuredContent): a check's answer may take this share of what is left.
 */
const ANSWER_SHARE = 2.5;

/** A check of a parsed submission, answered as the API answers it and within the request's byte budget. */
async function checkSubmitted(
  deps: ToolDeps,
  bytes: AnswerBytes,
  submitted: SubmittedComponents,
  args: { as_of?: string | undefined; queue?: boolean | undefined },
): Promise<object> {
  const dated = datedRead(args.as_of, deps.clock.now());
  const plan = await planCheck(deps, submitted, dated, deps.verdicts, { queue: args.queue ?? false });
  const pieces: Buffer[] = [];
  for await (const piece of checkAnswerPieces(plan, Math.max(0, bytes.remaining / ANSWER_SHARE))) pieces.push(piece);
  const text = Buffer.concat(pieces).toString('utf8');
  const answer = JSON.parse(text) as object;
  WRITTEN.set(answer, text);
  return answer;
}

/**
 * The text a check answer was parsed from: the tool result's text block is that text, not the
 * object stringified once more (the same bytes, for an answer of up to ten times its request).
 */
const WRITTEN = new WeakMap<object, string>();

const asOf = z.string().optional().meta({
  format: 'date',
  description: 'A UTC date YYYY-MM-DD, not after today: the answer as the record stood on that date. Default: today.',
});
const leafIndex = (description: string) => z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).meta({ description });

const CheckComponentInput = z.strictObject({
  kind: z.enum(COMPONENT_KINDS).meta({
    description:
      'github (owner/repo), npm (the JavaScript registry), pypi, docker (an image reference), maven (groupId:artifactId), golang (a module path), cargo, nuget, gem, composer (vendor/name) or distro (a distribution release, e.g. debian/12).',
  }),
  name: z
    .string()
    .min(1)
    .max(512)
    .meta({ description: 'The component, e.g. expressjs/express, express, requests, node:22-alpine.' }),
  as_of: asOf,
});
const queue = z.boolean().optional().meta({
  description:
    'true: queue the components the record holds no observation of for observation (at most 1,000 a call); each is read within a day. Only the names are kept, nothing about the call.',
});
const CheckManifestInput = z.strictObject({
  content: z
    .string()
    .max(4 * 1024 * 1024)
    .meta({
      description: `The pasted file: a manifest (${manifestFileNames(false)}) or a lockfile (${manifestFileNames(true)}). A lockfile answers every resolved package with its resolved_version, scope and via.`,
    }),
  filename: z.string().max(255).optional().meta({
    description:
      'Its file name, which tells the format (e.g. package.json, pnpm-lock.yaml, Cargo.lock, Dockerfile, ci.yml).',
  }),
  format: z
    .enum(MANIFEST_FORMATS)
    .optional()
    .meta({ description: 'The format, when neither the file name nor the content tells it.' }),
  as_of: asOf,
  queue,
});
const CheckSbomInput = z.strictObject({
  content: z
    .string()
    .max(4 * 1024 * 1024)
    .meta({ description: 'A CycloneDX (JSON or XML) or SPDX (JSON, YAML, tag-value, 3.0 JSON-LD) SBOM, as text.' }),
  as_of: asOf,
  queue,
});
const GetSeriesInput = z.strictObject({
  owner: z.string().min(1).max(100).meta({ description: 'The GitHub owner, e.g. expressjs.' }),
  repo: z.string().min(1).max(100).meta({ description: 'The repository, e.g. express.' }),
  as_of: asOf,
});
const GetOrgInput = z.strictObject({
  org: z.string().min(1).max(100).meta({ description: 'The GitHub owner namespace, e.g. expressjs.' }),
  as_of: asOf,
});
const NoInput = z.strictObject({});
const ProveInclusionInput = z.strictObject({
  leaf_index: leafIndex('The observation’s leaf index (leaf_index in every answer).'),
  tree_size: leafIndex('The tree size to prove against; default the latest signed checkpoint’s.').optional(),
});

const CheckComponentOutput = EntityResultSchema.extend({
  input: z.object({ name: z.string(), kind: z.enum(COMPONENT_KINDS) }),
  license: z.literal(DATA_LICENSE),
});
const InclusionOutput = InclusionProofSchema.extend({
  leaf: z.string().meta({ description: 'The leaf’s exact bytes (RFC 8785 JSON): its hash is SHA-256(0x00 ‖ bytes).' }),
  checkpoint: z
    .string()
    .nullable()
    .meta({ description: 'The signed C2SP checkpoint of this tree size, when the proof is against the latest one.' }),
  verifier_key: z.string(),
});

interface ToolDefinition<I extends z.ZodType> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: z.ZodType;
  run: (deps: ToolDeps, args: z.infer<I>, bytes: AnswerBytes) => Promise<object>;
}

const tool = <I extends z.ZodType>(t: ToolDefinition<I>) => t as unknown as ToolDefinition<z.ZodType>;

export const TOOLS = [
  tool({
    name: 'check_component',
    title: 'Check one component',
    description:
      'The recorded maintenance state of one component (GitHub repository; npm, PyPI, Maven, Go, crates.io, NuGet, RubyGems or Packagist package; container image; distribution release) at as_of, with the real date, source, censoring status and leaf index of the observation it rests on. A component Tended holds nothing on is "not checked" (not_observed), never "gone". No score.',
    input: CheckComponentInput,
    output: CheckComponentOutput,
    run: async (deps, args: z.infer<typeof CheckComponentInput>) => {
      const ref = normaliseComponent(args.kind, args.name);
      // A read naming one component queues it when the record does not hold it (discovery).
      const answer = await checkComponents(
        deps,
        { format: 'components', references: [{ ref, input: args.name, location: 'name' }], unresolved: [] },
        datedRead(args.as_of, deps.clock.now()),
        deps.verdicts,
        { queue: true },
      );
      const { input, ...result } = answer.results[0]!;
      if (answer.discovery)
        result.note = unheldNote(
          ref,
          result.as_of,
          result.queued ? 'queued' : deps.discovery?.enabled ? 'over-cap' : 'off',
        );
      // One component: the definition goes with its result, as on the entity route.
      const state_definition = answer.state_definitions[ref.kind]![result.state]!;
      return { ...result, state_definition, input: { name: input.name, kind: input.kind }, license: answer.license };
    },
  }),
  tool({
    name: 'check_manifest',
    title: 'Check a manifest',
    description: `One dated result per component a pasted manifest or lockfile names (${manifestFileNames(false)}; and the lockfiles ${manifestFileNames(true)}), each with its scope (direct or transitive) and path (via) where the file says them, and every entry that names none with the reason. Read in memory, never stored. \`format\` (one of ${MANIFEST_FORMATS.join(', ')}) names the format when neither the file name nor the content tells it.`,
    input: CheckManifestInput,
    output: CheckAnswerSchema,
    run: async (deps, args: z.infer<typeof CheckManifestInput>, bytes) =>
      checkSubmitted(
        deps,
        bytes,
        await deps.parsing.parse({
          route: 'manifest',
          body: args.content,
          format: args.format,
          filename: args.filename,
        }),
        args,
      ),
  }),
  tool({
    name: 'check_sbom',
    title: 'Check an SBOM',
    description:
      'One dated result per component of a CycloneDX or SPDX SBOM pasted as text. Parsed in memory, never stored.',
    input: CheckSbomInput,
    output: CheckAnswerSchema,
    run: async (deps, args: z.infer<typeof CheckSbomInput>, bytes) =>
      checkSubmitted(deps, bytes, await deps.parsing.parse({ route: 'sbom', body: args.content }), args),
  }),
  tool({
    name: 'get_series',
    title: 'A repository’s dated series',
    description:
      'The dated observation series of one GitHub repository up to as_of, its state at that date and every state change, each dated to the first observation that read it.',
    input: GetSeriesInput,
    output: EntityAnswerSchema,
    run: (deps, args: z.infer<typeof GetSeriesInput>) =>
      readEntity(deps, args.owner, args.repo, datedRead(args.as_of, deps.clock.now()), deps.verdicts),
  }),
  tool({
    name: 'get_org',
    title: 'An owner’s repositories',
    description: 'The held observations of every GitHub repository under an owner namespace, at as_of.',
    input: GetOrgInput,
    output: OrgAnswerSchema,
    run: (deps, args: z.infer<typeof GetOrgInput>) => readOrg(deps, args.org, datedRead(args.as_of, deps.clock.now())),
  }),
  tool({
    name: 'get_chain_head',
    title: 'The log’s signed head',
    description:
      'The current head of the Merkle log over every observation: tree size, root hash and the signed C2SP checkpoint with the key to verify it.',
    input: NoInput,
    output: HeadSchema,
    run: (deps) => readHead(deps),
  }),
  tool({
    name: 'prove_inclusion',
    title: 'Prove an observation is in the log',
    description:
      'The RFC 9162 inclusion proof of one observation’s leaf, with the leaf’s exact bytes and, by default, against the latest signed checkpoint (returned with it).',
    input: ProveInclusionInput,
    output: InclusionOutput,
    run: async (deps, args: z.infer<typeof ProveInclusionInput>) => {
      const head = args.tree_size === undefined ? await readHead(deps) : null;
      const proof = await readInclusionProof(deps, args.leaf_index, args.tree_size ?? head!.tree_size);
      const leaf = await readLeaf(deps, args.leaf_index);
      return {
        ...proof,
        leaf: Buffer.from(leaf.bytes).toString('utf8'),
        checkpoint: head?.checkpoint ?? null,
        verifier_key: deps.notary.vkey,
      };
    },
  }),
];

const byName = new Map(TOOLS.map((t) => [t.name, t]));

/** JSON Schema (draft-07, which every MCP client validates) without the $schema line. */
function jsonSchema(schema: z.ZodType): { type: 'object'; [key: string]: unknown } {
  // io 'input': plain objects stay open, so a field added to an answer later does not break a
  // client validating against this list; the tools' inputs are strict objects and stay closed.
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  return { ...rest, type: 'object' };
}

/** The tools/list entries, computed once. */
export const TOOL_LIST = TOOLS.map((t) => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: jsonSchema(t.input),
  outputSchema: jsonSchema(t.output),
  annotations: {
    title: t.title,
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
}));

export function hasTool(name: string): boolean {
  return byName.has(name);
}

export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * Runs a known tool. Bad arguments and answers the record cannot give (an unknown leaf, a bad
 * date) come back as isError with the sentence the API would give, so the agent can correct itself.
 */
export async function callTool(
  deps: ToolDeps,
  name: string,
  rawArgs: unknown,
  bytes: AnswerBytes = { remaining: Infinity },
): Promise<ToolResult> {
  const previous = bytes.turn;
  let done!: () => void;
  bytes.turn = new Promise((resolve) => (done = resolve));
  try {
    await previous;
    return await answerTool(deps, name, rawArgs, bytes);
  } finally {
    done();
  }
}

async function answerTool(deps: ToolDeps, name: string, rawArgs: unknown, bytes: AnswerBytes): Promise<ToolResult> {
  const t = byName.get(name)!;
  if (bytes.remaining <= 0)
    return toolError(
      `${name} was not run: the answers of this request reached its size bound (ten times the request plus 1 MB). Send this call in another request.`,
    );
  const parsed = t.input.safeParse(rawArgs ?? {});
  if (!parsed.success) {
    return toolError(
      `The arguments of ${name} are not valid: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ')}.`,
    );
  }
  try {
    const answer = (await t.run(deps, parsed.data, bytes)) as Record<string, unknown>;
    const text = WRITTEN.get(answer) ?? JSON.stringify(answer);
    bytes.remaining -= ANSWER_SHARE * Buffer.byteLength(text);
    return { content: [{ type: 'text', text }], structuredContent: answer };
  } catch (error) {
    const said = error instanceof TendedError ? ERROR_ANSWERS[error.code].mcp : undefined;
    if (said && error instanceof TendedError) {
      if (said === 'issues')
        return toolError(
          `${name} could not answer: ${(error as ValidationError).issues.map((i) => `${String(i.loc.at(-1) ?? 'arguments')}: ${i.msg}`).join('; ')}.`,
        );
      // An outage is not the agent's fault: say so, and that the same call may work shortly.
      if (said === 'outage') return toolError(`${name} could not answer: ${STORE_UNAVAILABLE_DETAIL}`);
      return toolError(`${name} could not answer: ${error.message}${said === 'clause' ? '.' : ''}`);
    }
    // A fault of Tended's: logged, and the agent told so in a sentence that says nothing of the
    // internals (the SDK would otherwise send the raw message as JSON-RPC -32603).
    deps.logError(error);
    return toolError(
      `${name} could not answer: something failed inside Tended and nothing was changed. Try again; if it keeps failing, report the time of the call.`,
    );
  }
}

function toolError(message: string): ToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
