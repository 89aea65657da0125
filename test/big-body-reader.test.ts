/**
 * Big 200 bodies are read on another thread (src/upstreams/big-body-reader.ts) and say there
 * exactly what they say on the main thread: the same facts, the same unreadable answers with the
 * same evidence. A thread that dies or runs out of memory is an unreadable answer, and the next
 * body gets a fresh thread. Real HTTP over loopback; the threshold is set to 0 to send every body.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvidenceValue } from '../src/domain/observation.js';
import { CHANGES_PAGE_FACTS } from '../src/upstreams/npm/feed.js';
import { BigBodyReader } from '../src/upstreams/http/big-body-reader.js';
import { PIECE_ITEMS } from '../src/upstreams/http/big-body-worker.js';
import { HttpClient } from '../src/upstreams/http/client.js';
import { type RequestSpec } from '../src/upstreams/http/answer.js';
import type { FactsSpec } from '../src/upstreams/http/facts-spec.js';
import { MemoryConditionalCache } from '../src/upstreams/http/memory-cache.js';
import { PACKUMENT_FACTS } from '../src/upstreams/npm/facts.js';
import {
  ECHO_FACTS,
  ELSEWHERE_FACTS,
  EXITS_FACTS,
  HOARDS_FACTS,
  SLOW_FACTS,
  THROWS_FACTS,
} from './fixtures/hostile-facts.js';

const bodies = new Map<string, { type: string; body: string | Buffer }>();
let server: Server;
let base: string;
const reader = new BigBodyReader({ threads: 1, memoryMb: 64, idleMs: 2_000 });

beforeAll(async () => {
  server = createServer((req, res) => {
    const found = bodies.get(req.url ?? '');
    if (!found) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': found.type, etag: '"v1"' });
    res.end(found.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await reader.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function client(offThreadAboveBytes: number, concurrency = 4): HttpClient {
  return new HttpClient({
    upstream: 'test',
    base,
    userAgent: 'tended-test/1',
    timeoutMs: 10_000,
    concurrency,
    cache: new MemoryConditionalCache(),
    maxBodyBytes: 16 * 1024 * 1024,
    offThreadAboveBytes,
    bigBodies: reader,
  });
}

const packument = {
  name: 'left-pad',
  'dist-tags': { latest: '1.3.0' },
  versions: { '1.0.0': {}, '1.3.0': { license: 'WTFPL', dependencies: { b: '1', a: '2' } } },
  time: { '1.0.0': '2014-03-14T00:00:00.000Z', '1.3.0': '2018-04-09T00:00:00.000Z' },
};

const CASES: [string, string, string | Buffer, RequestSpec<EvidenceValue>][] = [
  [
    'a packument',
    'application/json',
    JSON.stringify(packument),
    { accept: 'application/json', facts: PACKUMENT_FACTS },
  ],
  [
    'a body that is no JSON',
    'text/html',
    '<html>proxy error</html>',
    { accept: 'application/json', facts: PACKUMENT_FACTS },
  ],
  ['a body the extractor refuses', 'application/json', '[1,2]', { accept: 'application/json', facts: PACKUMENT_FACTS }],
  ['an extractor that throws', 'application/json', '{"a":1}', { accept: 'application/json', facts: THROWS_FACTS }],
  [
    'a text body, with its headers',
    'text/plain',
    'module example.com/x\n',
    { accept: 'text/plain', body: 'text', facts: ECHO_FACTS },
  ],
  [
    'a bytes body',
    'application/gzip',
    Buffer.from([0x1f, 0x8b, 0, 0xff]),
    { accept: '*/*', body: 'bytes', facts: ECHO_FACTS },
  ],
];

describe('a big body read on another thread', () => {
  it.each(CASES)('answers %s exactly as the main thread does', async (_name, type, body, spec) => {
    const path = `/case/${CASES.findIndex((c) => c[2] === body)}`;
    bodies.set(path, { type, body });
    const before = reader.counts.read;
    const offThread = await client(0).get(`${base}${path}`, spec);
    expect(reader.counts.read).toBe(before + 1);
    const onThread = await client(Number.POSITIVE_INFINITY).get(`${base}${path}`, spec);
    expect(reader.counts.read).toBe(before + 1);
    expect(offThread).toEqual(onThread);
  });

  it('brings a long list of facts back in pieces, whole and in order', async () => {
    const rows = Array.from({ length: PIECE_ITEMS * 2 + 345 }, (_, i) => ({
      seq: i + 1,
      id: `package-${i}`,
      changes: [{ rev: `1-${i}` }],
    }));
    bodies.set('/_changes', {
      type: 'application/json',
      body: JSON.stringify({ results: rows, last_seq: rows.length }),
    });
    const spec = { accept: 'application/json', facts: CHANGES_PAGE_FACTS };
    const offThread = await client(0).get(`${base}/_changes`, spec);
    const onThread = await client(Number.POSITIVE_INFINITY).get(`${base}/_changes`, spec);
    expect(offThread.kind === 'facts' && offThread.facts.results.length).toBe(rows.length);
    expect(offThread).toEqual(onThread);
  });

  it('answers a dead thread, an exhausted one or a missing extractor as unreadable, and reads on', async () => {
    bodies.set('/x', { type: 'application/json', body: '{"ok":true}' });
    const failed = reader.counts.failed;
    const get = (facts: FactsSpec<EvidenceValue>) => client(0).get(`${base}/x`, { accept: 'application/json', facts });
    expect(await get(EXITS_FACTS)).toMatchObject({
      kind: 'unreachable',
      reason: 'unparsable',
      evidence: { http_status: 200, error: 'the body could not be read: the reading thread stopped' },
    });
    expect(await get(HOARDS_FACTS)).toMatchObject({
      kind: 'unreachable',
      reason: 'unparsable',
      evidence: { http_status: 200, error: 'the body could not be read: reading it needed more than 64 MB of memory' },
    });
    expect(reader.counts.failed).toBe(failed + 2);
    expect(await get(ELSEWHERE_FACTS)).toMatchObject({
      kind: 'unreachable',
      evidence: { error: 'the body could not be read: no extractor for elsewhere/1 on the reading thread' },
    });
    expect(await get(ECHO_FACTS)).toMatchObject({ kind: 'facts', facts: { body: { ok: true }, etag: '"v1"' } });
  }, 30_000);

  it('reads one body at a time per thread; the others wait with their bytes only', async () => {
    const bytes = () => new TextEncoder().encode(JSON.stringify(packument));
    const reads = [1, 2, 3].map(() => reader.read(PACKUMENT_FACTS, 'json', [bytes()], new Headers()));
    expect(reader.load).toEqual({ reading: 1, waiting: 2 });
    for (const read of await Promise.all(reads))
      expect(read).toMatchObject({ facts: { latest: '1.3.0', versions: 2 } });
    expect(reader.load).toEqual({ reading: 0, waiting: 0 });
  });

  it("holds a request's slot while its body waits: a client's concurrency bounds the bodies waiting", async () => {
    bodies.set('/slow', { type: 'application/json', body: '{"ok":true}' });
    const slow = client(0, 2);
    let mostWaiting = 0;
    const probe = setInterval(() => (mostWaiting = Math.max(mostWaiting, reader.load.waiting)), 5);
    const answers = await Promise.all(
      [1, 2, 3, 4, 5, 6].map(() => slow.get(`${base}/slow`, { accept: 'application/json', facts: SLOW_FACTS })),
    );
    clearInterval(probe);
    for (const answer of answers) expect(answer).toMatchObject({ kind: 'facts', facts: { slow: true } });
    // Two requests at a time: one body read, at most one waiting, never the six downloaded at once.
    expect(mostWaiting).toBe(1);
  });
});

/** Every spec in src/, as the reading thread must find it: exported from the module its `from` names. */
describe('every facts spec', () => {
  const root = join(import.meta.dirname, '..', 'src');
  const files = (readdirSync(root, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => join(root, f));
  const declaring = files.filter((f) =>
    /^(?:export )?const \w+(?:: FactsSpec<| = parsedBy\()/m.test(readFileSync(f, 'utf8')),
  );

  it('is exported, never a module-local constant', () => {
    expect(declaring.length).toBeGreaterThan(20);
    for (const file of declaring) {
      const local = readFileSync(file, 'utf8').match(/^(?:const|let) \w+(?:: FactsSpec<| = parsedBy\()/gm);
      expect(local, relative(root, file)).toBeNull();
    }
  });

  it.each(declaring.map((f) => [relative(root, f), f]))('in %s names its own module', async (_name, file) => {
    const exports = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const specs = Object.values(exports).filter(
      (v): v is FactsSpec<EvidenceValue> => typeof v === 'object' && v !== null && 'extract' in v && 'version' in v,
    );
    expect(specs.length).toBeGreaterThan(0);
    for (const spec of specs) {
      expect(spec.from).toBe(pathToFileURL(file).href);
      expect(specs.filter((s) => s.version === spec.version)).toHaveLength(1);
    }
  });
});
