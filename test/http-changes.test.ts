import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { stateMutations } from '../src/domain/series.js';
import type { NewObservation } from '../src/domain/observation.js';
import type { State } from '../src/domain/state.js';
import { build } from '../src/http/app.js';
import { readChanges, type ChangeEntry, type ChangesPage } from '../src/operations/read-changes.js';
import { parsedAs, type Json, type ValidationAnswer } from './support/json.js';
import { anyOf } from './support/matchers.js';
import { githubObservation, postgresTestStore, recordDeps, sqliteTestStore, type TestStore } from './support/record.js';

/** The JSON page of /api/v1/changes: the read's page, each entry with its url, and the next page's address. */
type ChangesAnswer = Omit<ChangesPage, 'next_after' | 'changes'> & {
  changes: (ChangeEntry & { url: string })[];
  next: string | null;
};
/** What these tests read of the Atom feed, as fast-xml-parser gives it (entry and link always lists). */
interface AtomLink {
  rel: string;
  href: string;
}
interface AtomDocument {
  feed: {
    xmlns: string;
    id: string;
    updated: string;
    author: { name: string };
    entry: { id: string; title: string; updated: string; link: AtomLink[] }[];
    link: AtomLink[];
  };
}
/** An answer as the tests' `get` gives it. */
interface Answered<T> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}
/** What the last test reads of the OpenAPI description. */
interface OpenApiDocument {
  paths: Record<string, { get: { responses: Record<number, { content: Record<string, unknown> }> } }>;
}

const STATES: State[] = [
  'alive',
  'alive',
  'not_observed',
  'dormant',
  'dormant',
  'not_observed',
  'alive',
  'abandoned',
  'archived',
];

/** Six repositories over twelve days, each walking the state list from its own offset. */
function dailyReadings(day: number): NewObservation[] {
  const date = `2025-03-${String(day).padStart(2, '0')}`;
  return Array.from({ length: 6 }, (_, r) =>
    githubObservation(`acme/repo-${r}`, date, STATES[(day * (r + 1)) % STATES.length]!),
  );
}

describe.each([
  ['sqlite', sqliteTestStore],
  ['postgres', postgresTestStore],
] as const)('GET /api/v1/changes on %s', (_backend, open) => {
  let t: TestStore;
  let deps: ReturnType<typeof recordDeps>;
  let app: ReturnType<typeof build>;

  beforeEach(async () => {
    t = await open();
    deps = recordDeps(t.store, '2026-01-10T12:00:00Z');
    await t.store.initialiseLog(deps.notary.seal);
    app = build({
      ...deps,
      sources: undefined as never,
      logError: (e) => {
        throw e;
      },
      publicUrl: 'https://tended.example',
    });
  });
  afterEach(async () => {
    await t.dispose();
  });

  /** The answer at `path`; its body is JSON of the shape `T`, or null when the answer is not JSON. */
  const get = async <T = Json>(path: string, init?: RequestInit): Promise<Answered<T>> => {
    const res = await app.request(path, init);
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      text,
      body: (res.headers.get('content-type')?.includes('json') ? parsedAs<T>(text) : null) as T,
    };
  };

  it('pages through every state change exactly once, in log order, agreeing with each series’ mutations', async () => {
    for (let day = 1; day <= 12; day++) {
      await t.store.appendObservations(dailyReadings(day), deps.notary.seal);
      // A census read is a leaf of the log but never a reading of state.
      await t.store.appendCensus(
        [
          {
            component: { kind: 'npm', id: 'left-pad' },
            read_at: `2025-03-${String(day).padStart(2, '0')}T07:00:00Z`,
            read_date: `2025-03-${String(day).padStart(2, '0')}`,
            dependents: day,
            source: 'https://dependents.example/left-pad',
            evidence: {},
            method: 'dependents count',
          },
        ],
        deps.notary.seal,
      );
    }
    const seen: ChangesAnswer['changes'] = [];
    let url: string | null = '/api/v1/changes?limit=3';
    let pages = 0;
    while (url) {
      const page: Answered<ChangesAnswer> = await get<ChangesAnswer>(url.replace('https://tended.example', ''));
      expect(page.status).toBe(200);
      expect(page.body.license).toBe('CC-BY-4.0');
      expect(page.body.changes.length).toBeLessThanOrEqual(3);
      if (page.body.next) expect(page.headers.get('link')).toContain(`<${page.body.next}>; rel="next"`);
      else expect(page.headers.get('link') ?? '').not.toContain('rel="next"');
      seen.push(...page.body.changes);
      url = page.body.next;
      pages++;
    }
    expect(pages).toBeGreaterThan(2);
    const indices = seen.map((c) => c.leaf_index);
    expect(indices).toEqual([...indices].sort((a, b) => a - b));
    expect(new Set(indices).size).toBe(indices.length);

    // The same changes, component by component, as the entity answer's mutations define them.
    const expected = [];
    for (let r = 0; r < 6; r++) {
      const id = `acme/repo-${r}`;
      for (const m of stateMutations(await t.store.observationsOf({ kind: 'github', id }))) {
        expected.push({
          component: id,
          leaf_index: m.leaf_index,
          from: m.from,
          to: m.to,
          observed: m.observed,
          interval: m.interval,
        });
      }
    }
    expect(expected.length).toBeGreaterThan(5);
    expect(
      seen.map(({ component, leaf_index, from, to, observed, interval }) => ({
        component,
        leaf_index,
        from,
        to,
        observed,
        interval,
      })),
    ).toEqual(expected.sort((a, b) => a.leaf_index - b.leaf_index));
    for (const c of seen) {
      expect(c.to).not.toBe('not_observed');
      expect(c.from).not.toBe('not_observed');
      expect(c.kind).toBe('github');
      expect(c.url).toBe(`https://tended.example/api/v1/entity/${c.component}`);
    }
  });

  it('a page that reaches the end of its window of leaves still has a next, and following next misses nothing', async () => {
    for (let day = 1; day <= 12; day++) await t.store.appendObservations(dailyReadings(day), deps.notary.seal);
    const all = await readChanges(deps, { limit: '500' });
    expect(all.next_after).toBeNull();
    const walked: number[] = [];
    let pages = 0;
    for (let after: number | null = null, first = true; first || after !== null; first = false) {
      const page = await readChanges(deps, { limit: '500', ...(after === null ? {} : { after: String(after) }) }, 5);
      expect(page.scanned_through - (after ?? -1)).toBeLessThanOrEqual(5);
      walked.push(...page.changes.map((c) => c.leaf_index));
      after = page.next_after;
      pages++;
    }
    expect(pages).toBe(Math.ceil((await t.store.treeSize()) / 5));
    expect(walked).toEqual(all.changes.map((c) => c.leaf_index));
  });

  it('treats not_observed as a gap, and lists a correction that withdraws a reading, marked as one', async () => {
    const { observations } = await t.store.appendObservations(
      [
        githubObservation('acme/widget', '2025-05-01', 'alive'),
        githubObservation('acme/widget', '2025-05-02', 'not_observed'),
        githubObservation('acme/widget', '2025-05-03', 'alive'),
        githubObservation('acme/widget', '2025-05-04', 'archived'),
      ],
      deps.notary.seal,
    );
    const archived = observations[3]!.leaf_index;
    const {
      observations: [correction],
    } = await t.store.appendObservations(
      [{ ...githubObservation('acme/widget', '2025-05-04', 'alive'), corrects: archived }],
      deps.notary.seal,
    );
    const { body } = await get<ChangesAnswer>('/api/v1/changes');
    expect(body.changes.map((c) => [c.leaf_index, c.from, c.to, c.interval, c.correction])).toEqual([
      [archived, 'alive', 'archived', { after: '2025-05-03', on_or_before: '2025-05-04' }, null],
      [correction!.leaf_index, 'archived', 'alive', null, { corrects: archived }],
    ]);
    expect(body.next).toBeNull();
    expect(body.scanned_through).toBe(correction!.leaf_index);
    // since counts the reading's date; a poll with after=scanned_through finds nothing new.
    expect((await get<ChangesAnswer>('/api/v1/changes?since=2025-05-05')).body.changes).toEqual([]);
    expect((await get<ChangesAnswer>(`/api/v1/changes?after=${body.scanned_through}`)).body.changes).toEqual([]);
  });

  it('answers Atom 1.0 with Accept or format=atom: a valid feed whose entries link to the entity', async () => {
    await t.store.appendObservations(
      [
        githubObservation('acme/widget', '2025-05-01', 'alive'),
        githubObservation('acme/widget', '2025-05-02', 'dormant'),
      ],
      deps.notary.seal,
    );
    await t.store.appendObservations([githubObservation('acme/widget', '2025-05-03', 'abandoned')], deps.notary.seal);
    const viaAccept = await get('/api/v1/changes?limit=1', { headers: { accept: 'application/atom+xml' } });
    const viaFormat = await get('/api/v1/changes?limit=1&format=atom');
    for (const res of [viaAccept, viaFormat]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/atom\+xml/);
      expect(XMLValidator.validate(res.text)).toBe(true);
      const doc = new XMLParser({
        ignoreAttributes: false,
        attributeNamePrefix: '',
        isArray: (name) => name === 'entry' || name === 'link',
      }).parse(res.text) as AtomDocument;
      const feed = doc.feed;
      expect(feed.xmlns).toBe('http://www.w3.org/2005/Atom');
      expect(feed.id).toBe('https://tended.example/api/v1/changes');
      expect(feed.updated).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      expect(feed.author.name).toBe('Tended');
      expect(feed.entry).toHaveLength(1);
      const entry = feed.entry[0]!;
      expect(entry.id).toBe('https://tended.example/api/chain/entries/1');
      expect(entry.title).toContain('alive → dormant');
      expect(entry.updated).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect(entry.link.find((l) => l.rel === 'alternate')!.href).toBe(
        'https://tended.example/api/v1/entity/acme/widget',
      );
      const next = feed.link.find((l) => l.rel === 'next');
      expect(next!.href).toContain('after=1');
      expect(res.headers.get('link')).toContain('rel="next"');
    }
    const nextHref = (
      new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (n) => n === 'link' }).parse(
        viaFormat.text,
      ) as AtomDocument
    ).feed.link.find((l) => l.rel === 'next')!.href;
    const second = await get(new URL(nextHref).pathname + new URL(nextHref).search);
    expect(second.text).toContain('dormant → abandoned');
  });

  it('refuses a malformed since, after, limit or format with a 422 naming the parameter', async () => {
    for (const [query, param] of [
      ['since=2025-02-30', 'since'],
      ['since=yesterday', 'since'],
      ['since=2027-01-01', 'since'],
      ['after=-1', 'after'],
      ['after=1.5', 'after'],
      ['limit=0', 'limit'],
      ['limit=501', 'limit'],
      ['limit=ten', 'limit'],
      ['format=rss', 'format'],
    ]) {
      const res = await get<ValidationAnswer>(`/api/v1/changes?${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.detail[0]).toMatchObject({
        loc: ['query', param],
        msg: anyOf(String),
        type: anyOf(String),
      });
      expect(res.headers.get('link')).toBeNull();
    }
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await get<OpenApiDocument>('/api/v1/docs')).body;
    expect(Object.keys(doc.paths['/api/v1/changes']!.get.responses[200]!.content)).toEqual([
      'application/json',
      'application/atom+xml',
    ]);
  });
});
