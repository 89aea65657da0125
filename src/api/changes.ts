import { COMPONENT_KINDS } from '../domain/component.js';
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { RecordDeps } from '../operations/deps.js';
import {
  CHANGES_LIMIT_DEFAULT,
  CHANGES_LIMIT_MAX,
  CHANGES_WINDOW,
  readChanges,
  type ChangeEntry,
  type ChangesPage,
} from '../operations/read-changes.js';
import { ValidationError } from '../domain/errors.js';
import { errorResponses } from './schemas.js';
import { answerPath } from './answer-path.js';

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const asserted = z.enum(['alive', 'dormant', 'abandoned', 'archived', 'deleted', 'eol']);

const ChangeSchema = z
  .object({
    component: z.string().openapi({ example: 'expressjs/express' }),
    kind: z.enum(COMPONENT_KINDS),
    purl: z.array(z.string()),
    from: asserted,
    to: asserted,
    observed: date.openapi({ description: 'The date of the reading that showed the new state.' }),
    interval: z.object({ after: date, on_or_before: date }).nullable().openapi({
      description:
        'The change happened in (after, on_or_before]. Null for a correction, which re-reads a date rather than dating a change.',
    }),
    leaf_index: z.number().int().openapi({ description: 'The leaf of the reading that showed the new state.' }),
    correction: z
      .object({ corrects: z.number().int() })
      .nullable()
      .openapi({ description: 'Set when the reading is a dated correction after a dispute.' }),
    logged_at: z.string(),
    url: z.string().openapi({ description: 'The component’s entity answer.' }),
  })
  .openapi('StateChange');

const ChangesSchema = z
  .object({
    since: date.nullable(),
    after: z.number().int().nullable(),
    limit: z.number().int(),
    tree_size: z.number().int(),
    scanned_through: z
      .number()
      .int()
      .openapi({ description: 'The last leaf examined; poll later with after set to it.' }),
    changes: z.array(ChangeSchema),
    next: z
      .string()
      .nullable()
      .openapi({ description: 'The next page, or null when this page reached the end of the log.' }),
    license: z.literal('CC-BY-4.0'),
  })
  .openapi('Changes');

const query = (name: string, description: string, example: string) =>
  z
    .string()
    .optional()
    .openapi({ param: { name, in: 'query' }, description, example });

const changesRoute = createRoute({
  method: 'get',
  path: '/api/v1/changes',
  operationId: 'listStateChanges',
  summary: 'State changes in log order: the change feed (JSON, or Atom 1.0)',
  description:
    'Each reading (observation or correction) whose asserted state differs from the component’s previous asserted reading in the log, ' +
    'in leaf order. not_observed is a gap, never a change; a first reading changes nothing; census and key-set leaves are not readings. ' +
    `A page examines at most ${CHANGES_WINDOW} leaves, so it may hold fewer than \`limit\` changes and still have a \`next\`. ` +
    'Atom with `Accept: application/atom+xml` or `format=atom`.',
  request: {
    query: z.object({
      since: query(
        'since',
        'Only readings dated on or after this UTC date (YYYY-MM-DD, not after today).',
        '2025-07-01',
      ),
      after: query('after', 'Cursor: only leaves after this leaf index (the `next` of the previous page).', '48213'),
      limit: query('limit', `Changes per page, 1 to ${CHANGES_LIMIT_MAX}; default ${CHANGES_LIMIT_DEFAULT}.`, '100'),
      format: query('format', '`json` (default) or `atom`.', 'atom'),
    }),
  },
  responses: {
    200: {
      content: { 'application/json': { schema: ChangesSchema }, 'application/atom+xml': { schema: z.string() } },
      description: 'One page of the feed; a `Link: <…>; rel="next"` header names the next page.',
    },
    ...errorResponses,
  },
});

export function registerChangesRoute(app: OpenAPIHono, deps: RecordDeps & { publicUrl?: string }): void {
  app.openAPIRegistry.registerPath(changesRoute);
  app.get('/api/v1/changes', async (c) => {
    const format = c.req.query('format');
    if (format !== undefined && format !== 'json' && format !== 'atom') {
      throw new ValidationError([
        { loc: ['query', 'format'], msg: 'format must be json or atom', type: 'value_error.format' },
      ]);
    }
    const page = await readChanges(deps, {
      since: c.req.query('since'),
      after: c.req.query('after'),
      limit: c.req.query('limit'),
    });
    const base = deps.publicUrl ?? new URL(c.req.url).origin;
    const atom = format === 'atom' || (format === undefined && prefersAtom(c));
    const next = page.next_after === null ? null : pageUrl(base, page, page.next_after, atom && format === 'atom');
    c.header('Vary', 'Accept');
    if (next) c.header('Link', `<${next}>; rel="next"`, { append: true });
    if (atom) {
      return c.body(atomFeed(base, page, next, await feedUpdated(deps)), 200, {
        'content-type': 'application/atom+xml; charset=utf-8',
      }) as never;
    }
    const { next_after: _, ...rest } = page;
    return c.json({ ...rest, changes: page.changes.map((e) => ({ ...e, url: entityUrl(base, e) })), next }, 200);
  });
}

function prefersAtom(c: Context): boolean {
  const accept = c.req.header('accept') ?? '';
  return accept.includes('application/atom+xml') && !/application\/json/.test(accept.split('application/atom+xml')[0]!);
}

function pageUrl(base: string, page: ChangesPage, after: number, atom: boolean): string {
  const params = new URLSearchParams();
  if (page.since) params.set('since', page.since);
  params.set('after', String(after));
  params.set('limit', String(page.limit));
  if (atom) params.set('format', 'atom');
  return `${base}/api/v1/changes?${params}`;
}

/** The component's JSON answer (answer-path.ts), absolute. */
export function entityUrl(base: string, e: Pick<ChangeEntry, 'kind' | 'component'>): string {
  return `${base}${answerPath({ kind: e.kind, id: e.component })}`;
}

async function feedUpdated(deps: RecordDeps): Promise<string> {
  return (await deps.store.latestHead())?.timestamp ?? new Date(0).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Text for an Atom element or attribute (both feeds: the record's changes and a subscription's). */
export const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Atom 1.0 (RFC 4287); paging links as RFC 5005. Entries are ids of leaves, which never change. */
function atomFeed(base: string, page: ChangesPage, next: string | null, updated: string): string {
  const self = `${base}/api/v1/changes?${new URLSearchParams({ ...(page.since ? { since: page.since } : {}), ...(page.after !== null ? { after: String(page.after) } : {}), format: 'atom' })}`;
  const entries = page.changes.map((e) => {
    const url = entityUrl(base, e);
    const what = e.correction
      ? `A correction (leaf ${e.leaf_index}) of leaf ${e.correction.corrects} reads ${e.to} on ${e.observed}; the reading before it was ${e.from}.`
      : `${e.from} → ${e.to}, observed ${e.observed}: the change happened after ${e.interval!.after} and on or before ${e.interval!.on_or_before}.`;
    return [
      '<entry>',
      `<id>${escapeXml(`${base}/api/chain/entries/${e.leaf_index}`)}</id>`,
      `<title>${escapeXml(`${e.component} (${e.kind}): ${e.from} → ${e.to}${e.correction ? ' (correction)' : ''}`)}</title>`,
      `<updated>${escapeXml(e.logged_at)}</updated>`,
      `<link rel="alternate" type="application/json" href="${escapeXml(url)}"/>`,
      `<link rel="related" type="application/json" href="${escapeXml(`${base}/api/chain/entries/${e.leaf_index}`)}"/>`,
      `<category term="${escapeXml(e.to)}"/>`,
      `<summary type="text">${escapeXml(what)}</summary>`,
      '</entry>',
    ].join('');
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `<id>${escapeXml(`${base}/api/v1/changes`)}</id>`,
    '<title>Tended: state changes of maintained components</title>',
    `<updated>${escapeXml(updated)}</updated>`,
    '<author><name>Tended</name></author>',
    '<rights>CC-BY-4.0: https://creativecommons.org/licenses/by/4.0/</rights>',
    `<link rel="self" type="application/atom+xml" href="${escapeXml(self)}"/>`,
    '<link rel="license" href="https://creativecommons.org/licenses/by/4.0/"/>',
    next ? `<link rel="next" type="application/atom+xml" href="${escapeXml(next)}"/>` : '',
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}
