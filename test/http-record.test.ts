import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { build } from '../src/http/app.js';
import { fromBase64, leafHash, toBase64 } from '../src/notary/hash.js';
import { verifyCheckpoint } from '../src/notary/checkpoint.js';
import { verifyConsistency, verifyInclusion } from '../src/notary/merkle.js';
import { parseVerifierKey } from '../src/notary/note.js';
import type { RecordDeps } from '../src/operations/deps.js';
import type { HeadAnswer, readConsistencyProof, readInclusionProof } from '../src/operations/read-chain.js';
import type { EntityAnswer, OrgAnswer } from '../src/operations/read-entity.js';
import { startHarness, type Harness } from '../src/simulator/harness.js';
import { demoScenario } from '../src/simulator/demo.js';
import { parsedAs, type DetailAnswer, type Json, type ValidationAnswer } from './support/json.js';
import { anyOf, stringMatching } from './support/matchers.js';
import { githubObservation, recordDeps, sqliteTestStore, type TestStore } from './support/record.js';

type InclusionProofAnswer = Awaited<ReturnType<typeof readInclusionProof>>;
type ConsistencyProofAnswer = Awaited<ReturnType<typeof readConsistencyProof>>;
/** What these tests read of the OpenAPI description (a type, not an interface, so it is a Record to the validator). */
type OpenApiDocument = {
  openapi: string;
  info: { version: string };
  paths: Record<string, unknown>;
};

const demo = demoScenario();

let t: TestStore;
let harness: Harness;
let deps: ReturnType<typeof recordDeps> & { sources: Harness['sources'] };
let app: ReturnType<typeof build>;
const errors: unknown[] = [];

beforeEach(async () => {
  t = await sqliteTestStore();
  harness = await startHarness({ scenario: demo, today: '2026-11-22' });
  deps = { ...recordDeps(t.store, '2026-11-22T12:00:00Z'), sources: harness.sources };
  await t.store.initialiseLog(deps.notary.seal);
  errors.length = 0;
  app = build({ ...deps, logError: (e) => errors.push(e) });
});
afterEach(async () => {
  await harness.close();
  await t.dispose();
});

/** The answer at `path`, its body read as JSON of the shape `T` (or the text, when it is not JSON). */
const get = async <T = Json>(path: string, init?: RequestInit) => {
  const res = await app.request(path, init);
  const text = await res.text();
  let body: unknown;
  try {
    body = parsedAs(text);
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body: body as T, text };
};

async function seed(d: RecordDeps) {
  await d.store.appendObservations(
    [
      githubObservation('Acme/Widget', '2025-01-01', 'alive'),
      githubObservation('acme/widget', '2025-03-01', 'not_observed'),
      githubObservation('acme/widget', '2025-07-15', 'dormant'),
      githubObservation('acme/widget', '2025-09-01', 'alive'),
      githubObservation('acme/gadget', '2025-02-01', 'archived'),
    ],
    d.notary.seal,
  );
}

describe('GET /api/v1/entity/{owner}/{repo}', () => {
  it('answers "not observed" for a repository it holds nothing for: not checked, never gone', async () => {
    const r = await get<EntityAnswer>('/api/v1/entity/acme/unknown');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      purl: ['acme/unknown', 'pkg:github/acme/unknown'],
      state: 'not_observed',
      observation_date: null,
      censoring_status: 'not-observed-at-date',
      series: [],
      state_changes: 0,
      license: 'CC-BY-4.0',
    });
    expect(r.body.source).toMatch(/^not checked/);
    // Issue 27 item 1: nothing was read, so the definition must not describe a check that met a failure.
    expect(r.body.state_definition).toMatch(/^not checked: the record holds no observation on or before this date/);
    expect(r.body.state_definition).not.toMatch(/403|429|time-out|network|check met/);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('link')).toMatch(/rel="license"/);
  });

  it('reads an exact date as observed-on-date, carries forward with the real date, and never looks ahead', async () => {
    await seed(deps);
    const exact = await get<EntityAnswer>('/api/v1/entity/acme/widget?as_of=2025-07-15');
    expect(exact.body).toMatchObject({
      state: 'dormant',
      observation_date: '2025-07-15',
      censoring_status: 'observed-on-date',
    });
    expect(exact.body.source).toBe('https://api.github.com/repos/acme/widget');
    expect(typeof exact.body.leaf_index).toBe('number');

    const between = await get<EntityAnswer>('/api/v1/entity/acme/widget?as_of=2025-08-01');
    expect(between.body).toMatchObject({
      state: 'dormant',
      observation_date: '2025-07-15',
      censoring_status: 'interval-censored',
    });
    expect(between.body.series.map((s) => s.observation_date)).toEqual(['2025-01-01', '2025-03-01', '2025-07-15']);

    const before = await get('/api/v1/entity/acme/widget?as_of=2024-12-31');
    expect(before.body).toMatchObject({
      state: 'not_observed',
      observation_date: null,
      censoring_status: 'not-observed-at-date',
      series: [],
      state_definition: stringMatching(/^not checked: /),
    });
  });

  // Issue 27 item 1: "not checked" (nothing read) and a read that failed share the state
  // not_observed, and the answer must say which one it is.
  it('tells a date before coverage (not checked) from a check that failed (not_observed)', async () => {
    await seed(deps);
    await t.store.appendObservations(
      [
        githubObservation('acme/limited', '2025-05-01', 'not_observed', {
          evidence: { http_status: 429, unreachable: 'rate_limited' },
        }),
      ],
      deps.notary.seal,
    );
    const failed = await get<EntityAnswer>('/api/v1/entity/acme/limited?as_of=2025-05-02');
    expect(failed.body).toMatchObject({
      state: 'not_observed',
      observation_date: '2025-05-01',
      state_definition: 'the check met 403, 429, a time-out or a network failure; it is not dead',
      note: 'The check of 2025-05-01 could not read the upstream: the upstream asked Tended to wait (a rate limit). No state is asserted; it is not a death.',
    });
    const before = await get<EntityAnswer>('/api/v1/entity/acme/limited?as_of=2025-04-30');
    expect(before.body).toMatchObject({ state: 'not_observed', observation_date: null });
    expect(before.body.state_definition).toMatch(/^not checked: /);
    expect(before.body.note).toContain('"not checked", never "gone"');
  });

  it('dates each state change to the first observation that read it, skipping failed checks', async () => {
    await seed(deps);
    const r = await get<EntityAnswer>('/api/v1/entity/acme/widget?as_of=2025-09-30');
    expect(r.body.state_changes).toBe(2);
    expect(r.body.mutations).toEqual([
      expect.objectContaining({
        from: 'alive',
        to: 'dormant',
        observed: '2025-07-15',
        interval: { after: '2025-01-01', on_or_before: '2025-07-15' },
      }),
      expect.objectContaining({
        from: 'dormant',
        to: 'alive',
        observed: '2025-09-01',
        interval: { after: '2025-07-15', on_or_before: '2025-09-01' },
      }),
    ]);
    expect(r.body.series).toHaveLength(4);
  });

  it('asserts no state when the observation is more than 180 days old, but still shows its date and source', async () => {
    await seed(deps);
    const r = await get<EntityAnswer>('/api/v1/entity/acme/widget?as_of=2026-03-01');
    expect(r.body).toMatchObject({
      state: 'unknown-stale',
      observation_date: '2025-09-01',
      censoring_status: 'interval-censored',
    });
    expect(r.body.last_asserted).toMatchObject({ state: 'alive', observation_date: '2025-09-01' });
    const today = await get('/api/v1/entity/acme/widget');
    expect(today.body).toMatchObject({ as_of: '2026-11-22', state: 'unknown-stale' });
  });

  it('answers with the new observation as soon as it is appended, and 304 to a client holding the current answer', async () => {
    await seed(deps);
    const before = await get<EntityAnswer>('/api/v1/entity/acme/widget?as_of=2025-09-30');
    expect(before.body.state).toBe('alive');
    const etag = before.headers.get('etag')!;
    expect(
      (await app.request('/api/v1/entity/acme/widget?as_of=2025-09-30', { headers: { 'if-none-match': etag } })).status,
    ).toBe(304);
    await deps.store.appendObservations([githubObservation('acme/widget', '2025-09-20', 'archived')], deps.notary.seal);
    const after = await get('/api/v1/entity/acme/widget?as_of=2025-09-30', { headers: { 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ state: 'archived', observation_date: '2025-09-20' });
    expect(after.headers.get('etag')).not.toBe(etag);
  });

  it.each([
    ['2025-02-30', 'impossible'],
    ['yesterday', 'malformed'],
    ['2025-7-01', 'malformed'],
    ['2026-11-23', 'after today'],
  ])('refuses as_of=%s (%s) with a 422 in the spec’s shape', async (asOf) => {
    const r = await get<ValidationAnswer>(`/api/v1/entity/acme/widget?as_of=${asOf}`);
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ loc: ['query', 'as_of'], type: anyOf(String) });
    expect(r.body.detail[0]!.msg).toMatch(/YYYY-MM-DD|today/);
    expect(r.headers.get('link')).toBeNull();
  });

  it('refuses a path that cannot name a GitHub repository', async () => {
    const r = await get<ValidationAnswer>(`/api/v1/entity/${'a'.repeat(40)}/widget`);
    expect(r.status).toBe(422);
    expect(r.body.detail[0]!.loc[0]).toBe('path');
  });
});

describe('GET /api/v1/org/{org}', () => {
  it('lists the held repositories under the owner at as_of, and says so when it holds none', async () => {
    await seed(deps);
    const r = await get<OrgAnswer>('/api/v1/org/acme?as_of=2025-02-15');
    expect(r.status).toBe(200);
    expect(r.body.components.map((c) => [c.purl[0], c.state, c.censoring_status])).toEqual([
      ['acme/gadget', 'archived', 'interval-censored'],
      ['acme/widget', 'alive', 'interval-censored'],
    ]);
    const none = await get<OrgAnswer>('/api/v1/org/nobody');
    expect(none.body).toMatchObject({ components_count: 0, components: [] });
    expect(none.body.note).toMatch(/not checked/);
  });
});

describe('the log over HTTP', () => {
  it('publishes a head whose checkpoint verifies, leaves whose hashes prove inclusion, and consistency between sizes', async () => {
    await deps.store.appendObservations([githubObservation('acme/a', '2025-01-01', 'alive')], deps.notary.seal);
    const older = (await get<HeadAnswer>('/api/chain/head')).body;
    await seed(deps);
    const head = (await get<HeadAnswer>('/api/chain/head')).body;
    expect(head).toMatchObject({ tree_size: 6, origin: deps.notary.origin, prev_head_hash: older.head_hash });
    const note = await get('/api/chain/checkpoint');
    expect(note.headers.get('content-type')).toMatch(/^text\/plain/);
    const { size, root } = verifyCheckpoint(note.text, parseVerifierKey(head.verifier_key), head.origin);
    expect(size).toBe(6);
    for (let index = 0; index < size; index++) {
      const entry = await app.request(`/api/chain/entries/${index}`);
      const bytes = new Uint8Array(await entry.arrayBuffer());
      const proof = (await get<InclusionProofAnswer>(`/api/chain/proof/inclusion?index=${index}&size=${size}`)).body;
      expect(proof.leaf_hash).toBe(toBase64(leafHash(bytes)));
      expect(verifyInclusion(leafHash(bytes), index, size, proof.hashes.map(fromBase64), root)).toBe(true);
    }
    const consistency = (await get<ConsistencyProofAnswer>(`/api/chain/proof/consistency?from=${older.tree_size}&to=6`))
      .body;
    expect(verifyConsistency(1, 6, consistency.hashes.map(fromBase64), fromBase64(older.root_hash), root)).toBe(true);
    const page = await get('/api/chain/entries?start=0&end=6');
    expect(page.text.trim().split('\n')).toHaveLength(6);
  });

  it('answers bad proof parameters with clear 4xx answers', async () => {
    await seed(deps);
    expect((await get('/api/chain/proof/inclusion?index=9')).status).toBe(422);
    expect((await get('/api/chain/proof/inclusion?index=-1')).status).toBe(422);
    expect((await get<ValidationAnswer>('/api/chain/proof/inclusion?index=abc')).body.detail[0]!.loc).toEqual([
      'query',
      'index',
    ]);
    expect((await get('/api/chain/proof/consistency?from=0&to=3')).status).toBe(422);
    const missing = await get<DetailAnswer>('/api/chain/entries/99');
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toMatch(/holds 5 leaves/);
    // Past the largest safe integer: one item saying so, not the same item twice.
    const huge = await get<ValidationAnswer>('/api/chain/entries/99999999999999999999999');
    expect(huge.status).toBe(422);
    expect(huge.body.detail).toEqual([
      {
        loc: ['path', 'index'],
        msg: 'index is larger than any log can hold (at most 9007199254740991)',
        type: 'too_big',
      },
    ]);
    expect((await get<ValidationAnswer>('/api/chain/proof/inclusion?index=9007199254740992')).body.detail).toHaveLength(
      1,
    );
  });
});

describe('POST /api/v1/dispute', () => {
  const post = <T = Json>(body: string, contentType = 'application/json') =>
    get<T>('/api/v1/dispute', { method: 'POST', headers: { 'content-type': contentType }, body });

  it('re-reads the upstream and appends a dated correction, once per component per day', async () => {
    await deps.store.appendObservations(
      [{ ...githubObservation('acme/rocket', '2026-11-22', 'deleted'), evidence: { http_status: 404 } }],
      deps.notary.seal,
    );
    const r = await post('{"kind":"github","name":"acme/rocket"}');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      kind_of_record: 'correction',
      disputed: { state: 'deleted' },
      reread: { state: 'archived', corrects: 0 },
      license: 'CC-BY-4.0',
    });
    const entity = await get('/api/v1/entity/acme/rocket');
    expect(entity.body).toMatchObject({ state: 'archived', observation_date: '2026-11-22' });
    const again = await post<DetailAnswer>('{"kind":"github","name":"acme/rocket"}');
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/one dispute per component per day/);
    expect(await deps.store.treeSize()).toBe(2);
  });

  it('refuses what it cannot act on with a clear 4xx and appends nothing', async () => {
    expect((await post('{"kind":"github",')).status).toBe(422);
    const missing = await post<ValidationAnswer>('{"kind":"github"}');
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0]!.loc).toEqual(['body', 'name']);
    // Every refusal says what to send, not zod's "Invalid input: expected string, received undefined".
    const empty = await post<ValidationAnswer>('{}');
    expect(empty.status).toBe(422);
    expect(empty.body.detail.map((d) => d.loc)).toEqual([
      ['body', 'kind'],
      ['body', 'name'],
    ]);
    expect(empty.body.detail[0]!.msg).toMatch(/kind must be a string, one of github, npm, pypi, docker/);
    expect(empty.body.detail[1]!.msg).toMatch(/name must name the component, e\.g\. "left-pad"/);
    for (const d of empty.body.detail) expect(d.msg).not.toMatch(/Invalid input/);
    const list = await post<ValidationAnswer>('[]');
    expect(list.status).toBe(422);
    expect(list.body.detail).toEqual([
      { loc: ['body'], msg: stringMatching(/JSON object naming one component/), type: 'invalid_type' },
    ]);
    const broken = await post<ValidationAnswer>('{"kind":');
    expect(broken.status).toBe(422);
    expect(broken.body.detail).toEqual([
      {
        loc: ['body'],
        msg: stringMatching(/^The body is not valid JSON at line 1, column 9: .*\{"kind": "npm", "name": "left-pad"\}/),
        type: 'value_error.json',
      },
    ]);
    const kind = await post<ValidationAnswer>('{"kind":"conan","name":"openssl"}');
    expect(kind.status).toBe(422);
    expect(kind.body.detail[0]!.msg).toMatch(/github/);
    const unknown = await post<DetailAnswer>('{"kind":"npm","name":"never-seen"}');
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toMatch(/not checked/);
    // A body of another type is refused in the project's JSON shape, naming the type to send.
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/json;']) {
      const wrongType = await post('{"kind":"github","name":"acme/rocket"}', type);
      expect(wrongType.status, type).toBe(415);
      expect(wrongType.headers.get('content-type'), type).toMatch(/^application\/json/);
      expect(wrongType.body, type).toEqual({
        detail: `Content-Type "${type}" is not one this route reads; send one of application/json.`,
      });
    }
    const untyped = await get('/api/v1/dispute', {
      method: 'POST',
      body: new TextEncoder().encode('{"kind":"github","name":"acme/rocket"}'),
    });
    expect(untyped.status).toBe(415);
    expect(untyped.body).toEqual({
      detail: 'A body without a Content-Type is not one this route reads; send one of application/json.',
    });
    expect((await post('{"kind":"github"}', 'application/json; charset=utf-8')).status).toBe(422);
    expect(await deps.store.treeSize()).toBe(0);
  });
});

describe('errors, CORS and the description', () => {
  it('answers unknown routes 404, wrong methods 405 with Allow, and GET bodies 400 — all JSON with detail', async () => {
    const unknown = await get('/api/v2/nothing');
    expect(unknown).toMatchObject({ status: 404, body: { detail: stringMatching(/nothing at/) } });
    const wrong = await get<DetailAnswer>('/api/v1/entity/acme/widget', { method: 'PUT' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toContain('GET');
    expect(wrong.body.detail).toMatch(/not allowed/);
    const body = await get('/api/v1/entity/acme/widget', { method: 'POST', body: '{}' });
    expect(body.status).toBe(405);
    const withBody = await app.request(
      new Request('http://localhost/api/v1/entity/acme/widget', { method: 'GET', headers: { 'content-length': '2' } }),
    );
    expect(withBody.status).toBe(400);
    expect(withBody.headers.get('access-control-allow-origin')).toBe('*');
    expect(unknown.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('sends a GET or HEAD with a trailing slash to the address without it, and never claims GET is not allowed', async () => {
    await seed(deps);
    for (const [path, to] of [
      ['/healthz/', '/healthz'],
      ['/api/v1/entity/acme/widget/', '/api/v1/entity/acme/widget'],
      ['/api/v1/entity/acme/widget/?as_of=2025-08-01', '/api/v1/entity/acme/widget?as_of=2025-08-01'],
      ['/api/chain/head//', '/api/chain/head'],
      ['/npm/express/', '/npm/express'],
    ]) {
      for (const method of ['GET', 'HEAD']) {
        const r = await app.request(path!, { method });
        expect(r.status, `${method} ${path}`).toBe(308);
        expect(r.headers.get('location'), `${method} ${path}`).toBe(to);
      }
    }
    // Followed, the redirect gives the route's own answer.
    const followed = await get('/api/v1/entity/acme/widget?as_of=2025-08-01');
    expect(followed.body).toMatchObject({ state: 'dormant' });
    // Another method is not redirected (the client would send its body again): a 404 naming the address.
    const put = await get<DetailAnswer>('/api/v1/entity/acme/widget/', { method: 'PUT' });
    expect(put.status).toBe(404);
    expect(put.body.detail).toBe(
      'There is nothing at /api/v1/entity/acme/widget/; the address is /api/v1/entity/acme/widget, without the trailing slash, and it takes GET or HEAD.',
    );
    const post = await get<DetailAnswer>('/api/v1/dispute/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"kind":"github","name":"acme/widget"}',
    });
    expect(post.status).toBe(404);
    expect(post.body.detail).toMatch(
      /the address is \/api\/v1\/dispute, without the trailing slash, and it takes POST/,
    );
    // Never off-site: `//host/` is not sent to `//host`.
    const offsite = await app.request('//evil.example/');
    expect(offsite.status).toBe(404);
    expect(offsite.headers.get('location')).toBeNull();
    expect(await deps.store.treeSize()).toBe(5);
  });

  it('answers an unexpected failure with a 500 that carries no stack trace, and logs it', async () => {
    await t.store.close();
    const r = await get<DetailAnswer>('/api/v1/entity/acme/widget');
    expect(r.status).toBe(500);
    expect(r.body.detail).toMatch(/nothing was changed/);
    expect(r.text).not.toMatch(/at .*\.(ts|js):\d+/);
    expect(errors).toHaveLength(1);
    const health = await get('/healthz');
    expect(health).toMatchObject({ status: 503, body: { status: 'unavailable' } });
  });

  it('reports health with the store and the log size', async () => {
    await seed(deps);
    expect((await get('/healthz')).body).toEqual({
      status: 'ok',
      store: 'sqlite',
      tree_size: 5,
      dependencies: { store: 'up' },
    });
  });

  it('allows cross-origin preflight with the MCP and API-key headers', async () => {
    const r = await app.request('/api/v1/entity/a/b', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://example.org',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-api-key, mcp-protocol-version',
      },
    });
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('access-control-allow-headers')).toMatch(/mcp-protocol-version/i);
  });

  it('describes every route of the spec in a valid OpenAPI 3.1 document, version 0.1.0', async () => {
    const doc = (await get<OpenApiDocument>('/api/v1/docs')).body;
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(doc.info.version).toBe('0.1.0');
    const paths = Object.keys(doc.paths);
    for (const p of [
      '/api/v1/entity/{owner}/{repo}',
      '/api/v1/org/{org}',
      '/api/v1/manifest',
      '/api/v1/sbom',
      '/api/chain/head',
      '/api/chain/checkpoint',
      '/api/chain/entries/{index}',
      '/api/chain/proof/inclusion',
      '/api/chain/proof/consistency',
      '/verify',
      '/v1/trust_score/{kind}/{id}',
      '/v1/schema_history/{kind}/{id}',
      '/v1/dependency_risk/{kind}/{id}',
      '/mcp',
      '/healthz',
    ]) {
      expect(paths).toContain(p);
    }
  });
});
