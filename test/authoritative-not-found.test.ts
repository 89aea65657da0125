/**
 * Issue 34: `deleted` is "an authoritative HTTP 404 was read". Every reader, over real loopback
 * HTTP, is handed a table of hostile answers (a proxy's HTML 404, a redirect to another host that
 * answers the registry's very not-found, statuses no reader documents as gone, empty and garbled
 * 200s) and must never say `deleted` for any of them; and must say `deleted` for the registry's
 * own not-found where its methodology row says so. The dependents source has no state at all:
 * it must never turn any of them into a count.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseComponent, type ComponentKind } from '../src/domain/component.js';
import { classify, type State } from '../src/domain/state.js';
import { MemoryConditionalCache } from '../src/upstreams/http/memory-cache.js';
import { createSources } from '../src/upstreams/sources.js';
import type { UpstreamUrls } from '../src/upstreams/source.js';

const TODAY = '2026-03-01';

interface Canned {
  status: number;
  type?: string;
  body: string;
  location?: string;
}

const json = (status: number, body: unknown): Canned => ({
  status,
  type: 'application/json; charset=utf-8',
  body: JSON.stringify(body),
});
const text = (status: number, body: string, type = 'text/plain; charset=utf-8'): Canned => ({ status, type, body });

const PROXY_PAGE =
  '<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1><p>nginx</p></body></html>';

interface Reader {
  kind: ComponentKind;
  id: string;
  /** What the registry itself answers for a name it does not have (research; the simulator's NOT_FOUND). */
  own: Canned;
  /** What that own not-found makes: deleted where the methodology says the registry's 404 is a deletion. */
  ownState: State;
  /** Statuses this reader documents as a deletion, left out of the "undocumented status" rows. */
  documented?: number[];
}

const READERS: Reader[] = [
  {
    kind: 'github',
    id: 'octo/gone',
    own: json(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' }),
    ownState: 'deleted',
    documented: [451],
  },
  { kind: 'npm', id: 'gone-pkg', own: json(404, { error: 'Not found' }), ownState: 'deleted' },
  { kind: 'pypi', id: 'gone-project', own: json(404, { message: 'Not Found' }), ownState: 'deleted' },
  {
    kind: 'docker',
    id: 'acme/app:1.0',
    own: json(404, { message: "httperror 404: tag '1.0' not found", errinfo: { namespace: 'acme' } }),
    ownState: 'deleted',
  },
  {
    kind: 'nuget',
    id: 'Gone.Package',
    own: text(
      404,
      '<?xml version="1.0" encoding="utf-8"?><Error><Code>BlobNotFound</Code><Message>The specified blob does not exist.</Message></Error>',
      'application/xml',
    ),
    ownState: 'deleted',
  },
  { kind: 'cargo', id: 'gone-crate', own: text(404, 'not found'), ownState: 'deleted', documented: [410, 451] },
  { kind: 'composer', id: 'acme/gone', own: json(404, '404 not found, no packages here'), ownState: 'deleted' },
  { kind: 'gem', id: 'gone-gem', own: text(404, 'This rubygem could not be found.'), ownState: 'deleted' },
  // Central and the Go proxy remove nothing: their own 404 is no deletion either.
  { kind: 'maven', id: 'org.acme:gone', own: text(404, PROXY_PAGE, 'text/html'), ownState: 'not_observed' },
  {
    kind: 'golang',
    id: 'example.com/gone',
    own: text(404, 'not found: module example.com/gone'),
    ownState: 'not_observed',
  },
  // endoflife.date's 404 is its HTML page: a release it does not list is not_listed.
  { kind: 'distro', id: 'debian/12', own: text(404, PROXY_PAGE, 'text/html'), ownState: 'not_observed' },
];

/** The hostile answers; `foreign` sends the reader to the other server, which answers the registry's own not-found. */
type Hostile = { name: string; answer: (r: Reader) => Canned | 'foreign'; skip?: (r: Reader) => boolean };

const HOSTILE: Hostile[] = [
  { name: "404 with a proxy's HTML page", answer: () => text(404, PROXY_PAGE, 'text/html; charset=utf-8') },
  { name: '404 with an HTML page labelled text/plain', answer: () => text(404, PROXY_PAGE) },
  { name: "302 to another host that answers the registry's own not-found", answer: () => 'foreign' },
  ...[400, 403, 410, 451, 500, 502].map<Hostile>((status) => ({
    name: `${status} with a JSON error`,
    answer: () => json(status, { error: 'Not found' }),
    skip: (r) => r.documented?.includes(status) === true,
  })),
  { name: '200 with an empty body', answer: () => text(200, '', 'application/json') },
  { name: '200 with garbled JSON', answer: () => text(200, '{"name": "trunc', 'application/json') },
  { name: '200 with an empty object', answer: () => json(200, {}) },
  { name: '200 with an empty list', answer: () => json(200, []) },
  { name: '200 with an HTML page', answer: () => text(200, PROXY_PAGE, 'text/html') },
];

let script: (req: IncomingMessage) => Canned | 'foreign' = () => text(500, '');
let foreignAnswer: Canned = text(500, '');
let registry: Server;
let elsewhere: Server;

function send(res: ServerResponse, c: Canned): void {
  res.writeHead(c.status, {
    ...(c.type ? { 'content-type': c.type } : {}),
    ...(c.location ? { location: c.location } : {}),
    'content-length': Buffer.byteLength(c.body),
  });
  res.end(c.body);
}

const origin = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

beforeAll(async () => {
  elsewhere = await listen((_req, res) => send(res, foreignAnswer));
  registry = await listen((req, res) => {
    const a = script(req);
    send(res, a === 'foreign' ? { status: 302, body: '', location: `${origin(elsewhere)}${req.url ?? '/'}` } : a);
  });
});
afterAll(async () => {
  await Promise.all([registry, elsewhere].map((s) => new Promise((resolve) => s.close(resolve))));
});

function sources() {
  const base = origin(registry);
  const urls: UpstreamUrls = {
    github: base,
    npm: base,
    pypi: base,
    endoflife: base,
    dockerhub: base,
    dependents: base,
    dependentsRegistry: 'npmjs.org',
    maven: `${base}/maven2`,
    goproxy: base,
    rubygems: base,
    packagist: base,
    crates: base,
    cratesIndex: base,
    nuget: base,
    osv: base,
  };
  return createSources({
    urls,
    githubToken: null,
    userAgent: 'tended-test',
    timeoutMs: 3_000,
    concurrency: 2,
    cache: new MemoryConditionalCache(),
  });
}

async function stateOf(r: Reader) {
  const reading = await sources()[r.kind].read(normaliseComponent(r.kind, r.id), TODAY);
  return { reading, state: classify(reading.signals, TODAY) };
}

describe.each(READERS)('$kind: only the registry’s own not-found is a deletion', (r) => {
  it.each(HOSTILE.filter((h) => !h.skip?.(r)))('$name → never deleted', async (h) => {
    foreignAnswer = r.own;
    script = () => h.answer(r);
    const { reading, state } = await stateOf(r);
    expect(state, JSON.stringify(reading.evidence)).not.toBe('deleted');
    // For a reader whose registry's 404 is a deletion, the evidence keeps the way the answer came and why it is none.
    if (h.name.startsWith('302') && r.ownState === 'deleted') {
      expect(reading.evidence['http_status']).toBe(404);
      expect(reading.evidence['redirects']).toMatchObject([
        { status: 302, to: `${origin(elsewhere)}${new URL(reading.source).pathname}` },
      ]);
      expect(reading.evidence['not_authoritative']).toMatch(/redirect left the registry/);
    }
    if (h.name.startsWith('404 with') && r.ownState === 'deleted')
      expect(reading.evidence['not_authoritative']).toMatch(/HTML page/);
  });

  it(`the registry's own not-found → ${r.ownState}`, async () => {
    script = () => r.own;
    const { reading, state } = await stateOf(r);
    expect(state, JSON.stringify(reading.evidence)).toBe(r.ownState);
    expect(reading.source.startsWith(origin(registry))).toBe(true);
  });

  it(`the registry's own not-found after a redirect on its own host → ${r.ownState}`, async () => {
    script = (req) =>
      req.url?.startsWith('/moved') ? r.own : { status: 301, body: '', location: `/moved${req.url ?? '/'}` };
    const { state } = await stateOf(r);
    expect(state).toBe(r.ownState);
  });
});

describe('dependents: no hostile answer becomes a count', () => {
  it.each([
    ...HOSTILE.map((h) => [h.name, h.answer] as const),
    ['its own 404', () => json(404, { error: 'Not Found' })] as const,
  ])('%s → no count', async (_name, answer) => {
    foreignAnswer = json(404, { error: 'Not Found' });
    script = () => answer({ kind: 'npm', id: 'x', own: foreignAnswer, ownState: 'not_observed' });
    const reading = await sources().dependents.read(normaliseComponent('npm', 'gone-pkg'));
    expect(reading.dependents).toBeNull();
  });
});
