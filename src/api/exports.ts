import { Readable } from 'node:stream';
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { DUMP_NAME, DumpDirectory } from '../operations/daily-exports.js';
import { NotFoundError } from '../operations/read-chain.js';
import { errorResponses, json } from './schemas.js';

const DumpSchema = z
  .object({
    name: z.string().openapi({ example: 'tended-2025-07-01.jsonl' }),
    date: z.string().openapi({ description: 'The UTC day the leaves were logged on.', example: '2025-07-01' }),
    partial: z
      .boolean()
      .openapi({ description: 'The day was still open when the file was written; the finished file replaces it.' }),
    first_leaf: z.number().int(),
    last_leaf: z.number().int(),
    tree_size: z.number().int().openapi({ description: 'The tree size at the end of the dump (last_leaf + 1).' }),
    bytes: z.number().int(),
    sha256: z.string().openapi({ description: 'Hex SHA-256 of the file.' }),
    url: z.string(),
  })
  .openapi('Dump');

const listRoute = createRoute({
  method: 'get',
  path: '/api/v1/exports',
  operationId: 'listExports',
  summary: 'The daily dumps of the log (one JSON Lines file per UTC day of leaves)',
  description:
    'Each dump starts with a header: origin, verifier keys, `start`, `tree_size`, the signed checkpoint (and a consistency proof when it is for a later tree), ' +
    'and the tree’s right edge at `start`, so `tended verify --file DUMP --key VKEY` checks it offline on its own.',
  responses: {
    200: json(
      z.object({ exports: z.array(DumpSchema), license: z.literal('CC-BY-4.0') }).openapi('Dumps'),
      'Oldest first.',
    ),
  },
});

const name = z
  .string()
  .regex(DUMP_NAME, 'name must be a dump file name such as tended-2025-07-01.jsonl')
  .openapi({ param: { name: 'name', in: 'path' }, example: 'tended-2025-07-01.jsonl' });

const fileRoute = createRoute({
  method: 'get',
  path: '/api/v1/exports/{name}',
  operationId: 'getExport',
  summary: 'One daily dump, as JSON Lines',
  request: { params: z.object({ name }) },
  responses: {
    200: {
      content: { 'application/jsonl': { schema: z.string() } },
      description: 'The header line, then each leaf’s exact bytes, one per line.',
    },
    304: { description: 'Not modified (If-None-Match).' },
    404: errorResponses[404],
  },
});

export function registerExportRoutes(app: OpenAPIHono, deps: { exportDir?: string; publicUrl?: string }): void {
  const dumps = new DumpDirectory(deps.exportDir ?? null);
  app.openapi(listRoute, async (c) => {
    const base = deps.publicUrl ?? new URL(c.req.url).origin;
    const exports = (await dumps.list()).map((d) => ({ ...d, url: `${base}/api/v1/exports/${d.name}` }));
    return c.json({ exports, license: 'CC-BY-4.0' as const }, 200, { 'cache-control': 'no-cache' });
  });
  // The name is validated against the strict pattern above (no separator can pass it) and must
  // then be a file of the listing: nothing else in the directory, or outside it, is reachable.
  // A name off the pattern is answered like any unlisted name, 404, rather than 422: to a client
  // both mean "no such dump here".
  app.openAPIRegistry.registerPath(fileRoute);
  app.get('/api/v1/exports/:name', async (c) => {
    const requested = c.req.param('name');
    const dump = DUMP_NAME.test(requested) ? await dumps.describe(requested) : null;
    if (!dump)
      throw new NotFoundError(
        `There is no dump named ${JSON.stringify(requested.slice(0, 80))}; GET /api/v1/exports lists them.`,
      );
    const etag = `"${dump.sha256}"`;
    // A finished day's file never changes; an open day's is replaced as the day goes on.
    const cache = dump.partial ? 'no-cache' : 'public, max-age=86400, immutable';
    if (c.req.header('if-none-match') === etag)
      return c.body(null, 304, { ETag: etag, 'cache-control': cache }) as never;
    return c.body(Readable.toWeb(dumps.open(dump.name)) as ReadableStream, 200, {
      'content-type': 'application/jsonl',
      'content-length': String(dump.bytes),
      'content-disposition': `attachment; filename="${dump.name}"`,
      ETag: etag,
      'cache-control': cache,
    }) as never;
  });
}
