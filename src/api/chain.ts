import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { RecordDeps } from '../operations/deps.js';
import {
  HeadAnswers,
  readConsistencyProof,
  readInclusionProof,
  readLeaf,
  readLeaves,
} from '../operations/read-chain.js';
import { ConsistencyProofSchema, HeadSchema, InclusionProofSchema, errorResponses, json } from './schemas.js';

const count = (name: string, where: 'path' | 'query', description: string) =>
  z.coerce
    .number({ error: `${name} must be a whole number` })
    // zod's int() already refuses numbers past 2^53 - 1 (as too_big); a .max() of its own would
    // report the same number a second time.
    .int({
      error: (issue) =>
        issue.code === 'too_big'
          ? `${name} is larger than any log can hold (at most ${Number.MAX_SAFE_INTEGER})`
          : `${name} must be a whole number`,
    })
    .min(0, `${name} cannot be negative`)
    .openapi({
      param: { name, in: where, ...(where === 'path' ? { required: true } : {}) },
      description,
      type: 'integer',
    });

const headRoute = createRoute({
  method: 'get',
  path: '/api/chain/head',
  operationId: 'getChainHead',
  summary: 'The current head of the log over every dated observation',
  responses: { 200: json(HeadSchema, 'The head block with its signed C2SP checkpoint.') },
});

const checkpointRoute = createRoute({
  method: 'get',
  path: '/api/chain/checkpoint',
  operationId: 'getCheckpoint',
  summary: 'The signed checkpoint note, verbatim',
  responses: {
    200: { content: { 'text/plain': { schema: z.string() } }, description: 'A C2SP tlog-checkpoint signed note.' },
  },
});

const entryRoute = createRoute({
  method: 'get',
  path: '/api/chain/entries/{index}',
  operationId: 'getLeaf',
  summary: 'The exact bytes of one leaf (RFC 8785 JSON); its hash is SHA-256(0x00 ‖ bytes)',
  request: { params: z.object({ index: count('index', 'path', 'Leaf index, from 0.') }) },
  responses: { 200: json(z.record(z.string(), z.unknown()), 'The leaf bytes, exactly as hashed.'), ...errorResponses },
});

export const ENTRIES_PAGE_MAX = 1000;

const entriesRoute = createRoute({
  method: 'get',
  path: '/api/chain/entries',
  operationId: 'listLeaves',
  summary: `Leaves [start, end) as JSON Lines, each line a leaf's exact bytes (at most ${ENTRIES_PAGE_MAX} a request)`,
  request: {
    query: z.object({
      start: count('start', 'query', 'First leaf index.'),
      end: count('end', 'query', 'One past the last leaf index.'),
    }),
  },
  responses: {
    200: {
      content: { 'application/jsonl': { schema: z.string() } },
      description: 'One leaf per line, in index order.',
    },
    ...errorResponses,
  },
});

const inclusionRoute = createRoute({
  method: 'get',
  path: '/api/chain/proof/inclusion',
  operationId: 'getInclusionProof',
  summary: 'RFC 9162 inclusion proof of one leaf',
  request: {
    query: z.object({
      index: count('index', 'query', 'Leaf index.'),
      size: count('size', 'query', 'Tree size the proof is for; default the current size.').optional(),
    }),
  },
  responses: { 200: json(InclusionProofSchema, 'Base64 hashes, the leaf’s sibling first.'), ...errorResponses },
});

const consistencyRoute = createRoute({
  method: 'get',
  path: '/api/chain/proof/consistency',
  operationId: 'getConsistencyProof',
  summary: 'RFC 9162 consistency proof between two tree sizes',
  request: {
    query: z.object({
      from: count('from', 'query', 'The older tree size (at least 1).'),
      to: count('to', 'query', 'The newer tree size; default the current size.').optional(),
    }),
  },
  responses: { 200: json(ConsistencyProofSchema, 'Base64 hashes.'), ...errorResponses },
});

const NEWLINE = Buffer.from('\n');
/** What c.text sent, which clients of the checkpoint already read. */
export const CHECKPOINT_TYPE = 'text/plain; charset=UTF-8';

/** `heads` is shared with the hot path when serve.ts puts one in front (http/hot-log-head.ts). */
export function registerChainRoutes(app: OpenAPIHono, deps: RecordDeps, heads = new HeadAnswers()): void {
  // Tagged by the head's version rather than hashed again by the caching step (http-caching.ts).
  app.openapi(headRoute, async (c) => {
    const head = await heads.current(deps);
    return c.body(head.json, 200, { 'content-type': 'application/json', etag: head.jsonEtag }) as never;
  });
  app.openapi(checkpointRoute, async (c) => {
    const head = await heads.current(deps);
    return c.body(head.checkpoint, 200, { 'content-type': CHECKPOINT_TYPE, etag: head.checkpointEtag }) as never;
  });
  app.openapi(entryRoute, async (c) => {
    const leaf = await readLeaf(deps, c.req.valid('param').index);
    // The stored bytes, not a re-serialisation: a client hashes exactly what it receives.
    return c.body(Buffer.from(leaf.bytes), 200, {
      'content-type': 'application/json',
      'cache-control': 'public, max-age=31536000, immutable',
    }) as never;
  });
  app.openapi(entriesRoute, async (c) => {
    const { start, end } = c.req.valid('query');
    const leaves = await readLeaves(deps, start, end, ENTRIES_PAGE_MAX);
    const lines = leaves.map((leaf) => Buffer.concat([leaf.bytes, NEWLINE]));
    return c.body(Buffer.concat(lines), 200, { 'content-type': 'application/jsonl' }) as never;
  });
  app.openapi(inclusionRoute, async (c) => {
    const q = c.req.valid('query');
    return c.json(await readInclusionProof(deps, q.index, q.size), 200);
  });
  app.openapi(consistencyRoute, async (c) => {
    const q = c.req.valid('query');
    return c.json(await readConsistencyProof(deps, q.from, q.to), 200);
  });
}
