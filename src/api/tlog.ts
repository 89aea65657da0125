import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { RecordDeps } from '../operations/deps.js';
import { readCosignedCheckpoint, readTile, readTileAddress } from '../operations/read-tiles.js';
import { CHECKPOINT_TYPE } from './chain.js';
import { ErrorDetail, errorResponses, json } from './schemas.js';

/**
 * The log as C2SP tlog-tiles (https://c2sp.org/tlog-tiles) under TLOG_PREFIX, beside the JSON
 * routes of chain.ts, so existing tile clients (Go's sumdb tlog, Tessera's clients, witnesses'
 * monitors) read it as it is: `<prefix>/checkpoint`, `<prefix>/tile/<L>/<N>[.p/<W>]` and
 * `<prefix>/tile/entries/<N>[.p/<W>]`.
 */
export const TLOG_PREFIX = '/tlog';

/** The spec asks for no caching "beyond a few seconds" of the mutable checkpoint. */
const CHECKPOINT_CACHE = 'public, max-age=5';
/** A full tile or bundle is fixed by the log's append-only rule. */
const FULL_TILE_CACHE = 'public, max-age=31536000, immutable';
/**
 * A partial tile's bytes never change either (a prefix of the tile), but the spec lets a log drop
 * it once the full tile exists, so a cache keeps it briefly.
 */
const PARTIAL_TILE_CACHE = 'public, max-age=60';

const checkpointRoute = createRoute({
  method: 'get',
  path: `${TLOG_PREFIX}/checkpoint`,
  operationId: 'getTlogCheckpoint',
  summary: 'The signed checkpoint, with the cosignatures of the witnesses that cosigned it (C2SP tlog-tiles)',
  responses: {
    200: {
      content: { 'text/plain': { schema: z.string() } },
      description:
        'A C2SP checkpoint signed note: the log’s signature, then one cosignature line (C2SP tlog-cosignature) per configured witness whose latest cosigned checkpoint is this one.',
    },
  },
});

const tileRoute = createRoute({
  method: 'get',
  path: `${TLOG_PREFIX}/tile/{path}`,
  operationId: 'getTlogTile',
  summary: 'A hash tile or an entry bundle (C2SP tlog-tiles); {path} spans several segments',
  request: {
    params: z.object({
      path: z.string().openapi({
        param: { name: 'path', in: 'path', required: true },
        description:
          '`<L>/<N>[.p/<W>]` for a hash tile, `entries/<N>[.p/<W>]` for an entry bundle; N in 3-digit groups, e.g. x001/x234/067.',
        example: '0/000.p/12',
      }),
    }),
  },
  responses: {
    200: {
      content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } },
      description:
        'A hash tile: W (256 when full) 32-byte hashes. An entry bundle: each leaf’s exact bytes after a big-endian uint16 length.',
    },
    400: json(ErrorDetail, 'The path is not a tile address; `detail` says why.'),
    404: errorResponses[404],
  },
});

const WitnessRecordSchema = z.object({
  witness: z.string().openapi({ description: 'The witness’s key name.' }),
  cosigned: z
    .object({
      tree_size: z.number().int(),
      note: z
        .string()
        .openapi({ description: 'The checkpoint with the log’s signature and this witness’s cosignature line.' }),
      timestamp: z.number().int().openapi({ description: 'POSIX seconds, from the cosignature.' }),
    })
    .nullable(),
  refusal: z
    .object({
      tree_size: z.number().int(),
      status: z.number().int().nullable(),
      reason: z.string(),
      at: z.string(),
    })
    .nullable()
    .openapi({ description: 'The log’s account of the witness’s last refusal: unsigned, shown, never counted.' }),
  updated_at: z.string(),
});

const witnessesRoute = createRoute({
  method: 'get',
  path: '/api/chain/witnesses',
  operationId: 'getWitnessCosignatures',
  summary: 'Each configured witness’s latest cosigned checkpoint of the log, and its last refusal',
  responses: {
    200: json(z.object({ witnesses: z.array(WitnessRecordSchema) }), 'One entry per witness the log sends to.'),
  },
});

export function registerTlogRoutes(app: OpenAPIHono, deps: RecordDeps): void {
  app.openAPIRegistry.registerPath(checkpointRoute);
  app.get(checkpointRoute.path, async (c) => {
    const note = await readCosignedCheckpoint(deps);
    return c.body(note, 200, { 'content-type': CHECKPOINT_TYPE, 'cache-control': CHECKPOINT_CACHE });
  });
  app.openapi(witnessesRoute, async (c) => c.json({ witnesses: await deps.store.witnessRecords() }, 200));
  app.openAPIRegistry.registerPath(tileRoute);
  app.get(`${TLOG_PREFIX}/tile/*`, async (c) => {
    const address = readTileAddress(c.req.path.slice(`${TLOG_PREFIX}/tile/`.length));
    const tile = await readTile(deps, address);
    return c.body(Buffer.from(tile.bytes), 200, {
      'content-type': 'application/octet-stream',
      'cache-control': tile.full ? FULL_TILE_CACHE : PARTIAL_TILE_CACHE,
    });
  });
}
