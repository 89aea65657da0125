import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { build } from '../src/http/app.js';
import { demoScenario } from '../src/simulator/demo.js';
import { startHarness, type Harness } from '../src/simulator/harness.js';
import type { CheckAnswer } from '../src/operations/check-components.js';
import { jsonOf, parsedAs, type DetailAnswer, type Json, type ValidationAnswer } from './support/json.js';
import { stringMatching } from './support/matchers.js';
import { githubObservation, recordDeps, sqliteTestStore, type TestStore } from './support/record.js';

/** What the tests read of the OpenAPI description. */
interface OpenApiDocument {
  components: {
    schemas: {
      SbomSubject: { properties: Record<string, unknown> };
      CheckAnswer: { properties: { subject: unknown } };
    };
  };
}

const corpus = (path: string) => readFileSync(new URL(`./corpus/${path}`, import.meta.url));

let t: TestStore;
let harness: Harness;
let app: ReturnType<typeof build>;
let deps: ReturnType<typeof recordDeps>;

beforeEach(async () => {
  t = await sqliteTestStore();
  harness = await startHarness({ scenario: demoScenario(), today: '2026-11-22' });
  deps = recordDeps(t.store, '2026-11-22T12:00:00Z');
  await t.store.initialiseLog(deps.notary.seal);
  await t.store.appendObservations(
    [
      { ...githubObservation('expressjs/express', '2026-11-01', 'alive') },
      {
        component: { kind: 'npm', id: 'express' },
        observed_at: '2026-11-01T06:00:00Z',
        observation_date: '2026-11-01',
        state: 'alive',
        source: 'https://registry.npmjs.org/express',
        evidence: { http_status: 200, latest_published: '2026-10-01T00:00:00.000Z' },
        method: 'npm: latest publish and deprecation of latest',
        corrects: null,
      },
      { ...githubObservation('actions/checkout', '2026-11-01', 'alive') },
    ],
    deps.notary.seal,
  );
  app = build({ ...deps, sources: harness.sources, logError: () => {} });
});
afterEach(async () => {
  await harness.close();
  await t.dispose();
});

/** POSTs `body` to `path`; the answer's body is read as JSON of the shape `T` (or is the text, when it is not JSON). */
const post = async <T = Json>(path: string, body: BodyInit, type: string) => {
  const res = await app.request(path, { method: 'POST', headers: { 'content-type': type }, body });
  const text = await res.text();
  let json: unknown;
  try {
    json = parsedAs(text);
  } catch {
    json = text;
  }
  return { status: res.status, body: json as T, headers: res.headers };
};

describe('POST /api/v1/manifest', () => {
  it('answers a components list with one dated result each, from the record, at as_of', async () => {
    const body = JSON.stringify({
      components: [
        { name: 'express', kind: 'npm' },
        { name: 'expressjs/express', kind: 'github' },
        { name: 'left-pad', kind: 'npm' },
      ],
    });
    const r = await post<CheckAnswer>('/api/v1/manifest', body, 'application/json');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ format: 'components', results_count: 3, unresolved_count: 0, license: 'CC-BY-4.0' });
    const byName = Object.fromEntries(r.body.results.map((x) => [x.input.name, x]));
    expect(byName['express']).toMatchObject({
      state: 'alive',
      observation_date: '2026-11-01',
      censoring_status: 'interval-censored',
      purl: ['express', 'pkg:npm/express'],
    });
    expect(byName['left-pad']).toMatchObject({
      state: 'not_observed',
      observation_date: null,
      censoring_status: 'not-observed-at-date',
    });
    const earlier = await post<CheckAnswer>('/api/v1/manifest?as_of=2026-10-01', body, 'application/json');
    expect(earlier.body.results.every((x) => x.censoring_status === 'not-observed-at-date')).toBe(true);
  });

  it("gives each state's meaning once per kind, and keeps only the notes that say something about one result", async () => {
    const body = JSON.stringify({
      components: [
        { name: 'express', kind: 'npm' },
        { name: 'expressjs/express', kind: 'github' },
        { name: 'left-pad', kind: 'npm' },
      ],
    });
    const r = await post<CheckAnswer>('/api/v1/manifest', body, 'application/json');
    // A dormant package and a dormant repository age by different dates, so the meanings are per kind.
    // left-pad was never read: its not_observed is "not checked", not a check that met a failure (issue 27 item 1).
    expect(r.body.state_definitions).toEqual({
      npm: {
        alive: 'latest published version 180 days ago or less',
        not_observed: stringMatching(/^not checked: the record holds no observation on or before this date/),
      },
      github: { alive: 'last commit 180 days ago or less' },
    });
    expect(r.body.state_definitions.npm!.not_observed).not.toMatch(/403|429|time-out|network/);
    for (const result of r.body.results) expect(result).not.toHaveProperty('state_definition');
    // Never observed: no per-result note; the source says "not checked", as does the answer's note.
    const leftPad = r.body.results.find((x) => x.input.name === 'left-pad');
    expect(leftPad).not.toHaveProperty('note');
    expect(leftPad!.source).toMatch(
      /^not checked: Tended holds no observation of npm:left-pad on or before 2026-11-22$/,
    );
    expect(r.body.note).toMatch(/"not checked" \(not_observed\), never "gone"/);
    // A reading too old to vouch for the date keeps the note that says why no state is asserted.
    await t.store.appendObservations([githubObservation('old/repo', '2026-03-01', 'alive')], deps.notary.seal);
    const stale = await post<CheckAnswer>(
      '/api/v1/manifest',
      JSON.stringify({ components: [{ name: 'old/repo', kind: 'github' }] }),
      'application/json',
    );
    expect(stale.body.results[0]).toMatchObject({
      state: 'unknown-stale',
      observation_date: '2026-03-01',
      note: stringMatching(/more than 180 days/),
    });
    expect(stale.body.state_definitions).toEqual({ github: { 'unknown-stale': stringMatching(/not a death/) } });
    // A failed read and a repository never read, of one kind: one sentence that claims a check for neither.
    await t.store.appendObservations(
      [githubObservation('limited/repo', '2026-11-20', 'not_observed')],
      deps.notary.seal,
    );
    const both = await post<CheckAnswer>(
      '/api/v1/manifest',
      JSON.stringify({
        components: [
          { name: 'limited/repo', kind: 'github' },
          { name: 'never/seen', kind: 'github' },
        ],
      }),
      'application/json',
    );
    expect(both.body.state_definitions.github!.not_observed).toBe(
      'where the result has an observation_date, the check met 403, 429, a time-out or a network failure; it is not dead; ' +
        'where it has none, not checked: the record holds no observation on or before this date, so nothing was read and no state is asserted; it is not a death',
    );
  });

  it('reads a pasted package.json, Dockerfile, workflow and requirements.txt, merging duplicates with every location', async () => {
    const pkg = await post(
      '/api/v1/manifest',
      JSON.stringify({ filename: 'package.json', content: corpus('package-json/express.package.json').toString() }),
      'application/json',
    );
    expect(pkg.status).toBe(200);
    expect(pkg.body).toMatchObject({ format: 'package-json', results_count: 44 });
    const docker = await post<CheckAnswer>(
      '/api/v1/manifest?format=dockerfile',
      corpus('dockerfile/grafana.Dockerfile'),
      'text/plain',
    );
    expect(docker.body.format).toBe('dockerfile');
    expect(docker.body.results.map((x) => x.purl[0])).toEqual(
      expect.arrayContaining(['docker.io/library/alpine:3.21', 'docker.io/library/node:22-alpine']),
    );
    const workflow = await post<CheckAnswer>(
      '/api/v1/manifest',
      JSON.stringify({ filename: 'build.yml', content: corpus('workflow/renovate-build.yml').toString() }),
      'application/json',
    );
    expect(workflow.body.format).toBe('workflow');
    const checkout = workflow.body.results.find((x) => x.input.name === 'actions/checkout');
    expect(checkout!.state).toBe('alive');
    expect(checkout!.input.locations.length).toBeGreaterThan(1);
    const reqs = await post('/api/v1/manifest', corpus('requirements/trivy-requirements_utf16le.txt'), 'text/plain');
    expect(reqs.body).toMatchObject({ format: 'requirements', results_count: 1 });
  });

  it('refuses what it cannot read with a 4xx that says what to send, and keeps nothing', async () => {
    expect((await post('/api/v1/manifest', '{"components": [', 'application/json')).status).toBe(422);
    const kind = await post<ValidationAnswer>(
      '/api/v1/manifest',
      '{"components":[{"name":"x","kind":"nope"}]}',
      'application/json',
    );
    expect(kind.status).toBe(422);
    expect(kind.body.detail[0]!.loc).toEqual(['body', 'components', 0, 'kind']);
    const unknown = await post<ValidationAnswer>(
      '/api/v1/manifest',
      'just some words\nthat are no manifest',
      'text/plain',
    );
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0]!.msg).toMatch(/Dockerfile/);
    expect((await post('/api/v1/manifest', 'x', 'image/png')).status).toBe(415);
  });

  it('changes nothing in the record: the store’s bytes are the same after a submission', async () => {
    const digest = () =>
      createHash('sha256')
        .update(readFileSync(t.url.slice('sqlite:'.length)))
        .digest('hex');
    const before = { db: digest(), size: await t.store.treeSize(), watch: await t.store.watchList() };
    await post(
      '/api/v1/manifest',
      JSON.stringify({ components: [{ name: '@private/secret-thing', kind: 'npm' }] }),
      'application/json',
    );
    await post('/api/v1/sbom', corpus('cyclonedx/cern-lhc-vdm-editor.bom.json'), 'application/vnd.cyclonedx+json');
    expect(digest()).toBe(before.db);
    expect(await t.store.treeSize()).toBe(before.size);
    expect(await t.store.watchList()).toEqual(before.watch);
    expect(await t.store.componentVersion({ kind: 'npm', id: '@private/secret-thing' })).toBeNull();
  });
});

describe('POST /api/v1/sbom', () => {
  it.each([
    ['cyclonedx/cern-lhc-vdm-editor.bom.json', 'application/vnd.cyclonedx+json', 43],
    ['cyclonedx/laravel-7.12.0.1.1.xml', 'application/xml', 62],
    ['spdx/spdx-spec-SPDXTagExample-v2.3.spdx', 'text/spdx', 4],
    ['spdx/appbomination-3.0.spdx3.json', 'application/ld+json', 7],
  ])('%s: every entry is a result or an unresolved entry with its reason', async (file, type, entries) => {
    const r = await post<CheckAnswer>('/api/v1/sbom', corpus(file), type);
    expect(r.status).toBe(200);
    const located = r.body.results.reduce((n: number, x) => n + x.input.locations.length, 0);
    expect(located + r.body.unresolved_count).toBe(entries);
    for (const u of r.body.unresolved) expect(u.reason.length).toBeGreaterThan(10);
  });

  it('names the SBOM’s subject apart from its results, null when it has none; manifests have no subject', async () => {
    const cdx = await post<CheckAnswer>(
      '/api/v1/sbom',
      corpus('cyclonedx/cern-lhc-vdm-editor.bom.json'),
      'application/vnd.cyclonedx+json',
    );
    expect(cdx.status).toBe(200);
    expect(cdx.body.subject).toEqual({
      name: 'lhc-vdm-editor',
      version: '0.0.1',
      purl: 'pkg:npm/lhc-vdm-editor@0.0.1',
      bom_ref: 'pkg:npm/lhc-vdm-editor@0.0.1',
    });
    expect(cdx.body.results.map((x) => x.input.name)).not.toContain('lhc-vdm-editor');
    const spdx = await post<CheckAnswer>(
      '/api/v1/sbom',
      corpus('spdx/spdx-spec-SPDXTagExample-v2.3.spdx'),
      'text/spdx',
    );
    expect(spdx.body.subject).toEqual({ name: 'glibc', version: '2.11.1', bom_ref: 'SPDXRef-Package' });
    const none = await post('/api/v1/sbom', corpus('cyclonedx/laravel-7.12.0.1.1.xml'), 'application/xml');
    expect(none.status).toBe(200);
    expect(none.body).toHaveProperty('subject', null);
    const manifest = await post(
      '/api/v1/manifest',
      JSON.stringify({ components: [{ name: 'express', kind: 'npm' }] }),
      'application/json',
    );
    expect(manifest.body).not.toHaveProperty('subject');
    const doc = await jsonOf<OpenApiDocument>(await app.request('/api/v1/docs'));
    expect(doc.components.schemas.SbomSubject.properties).toHaveProperty('bom_ref');
    expect(doc.components.schemas.CheckAnswer.properties.subject).toEqual({
      anyOf: [{ $ref: '#/components/schemas/SbomSubject' }, { type: 'null' }],
    });
  });

  it('refuses a body over 4 MB while it streams in, with or without a declared length', async () => {
    const big = JSON.stringify({
      bomFormat: 'CycloneDX',
      specVersion: '1.5',
      components: [],
      pad: 'x'.repeat(4 * 1024 * 1024),
    });
    const declared = await post<DetailAnswer>('/api/v1/sbom', big, 'application/vnd.cyclonedx+json');
    expect(declared.status).toBe(413);
    expect(declared.body.detail).toMatch(/4 MB/);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > 16 * 1024 * 1024) return controller.close();
        sent += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
      },
    });
    const streamed = await app.request('/api/v1/sbom', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(sent).toBeLessThan(6 * 1024 * 1024);
  });

  it('answers malformed, hostile and foreign bodies with a 4xx, never a 5xx', async () => {
    expect((await post('/api/v1/sbom', '{"hello":"world"}', 'application/json')).status).toBe(422);
    const bomb =
      '<?xml version="1.0"?><!DOCTYPE bom [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><bom xmlns="http://cyclonedx.org/schema/bom/1.5"><components><component type="library"><name>&b;</name></component></components></bom>';
    const r = await post('/api/v1/sbom', bomb, 'application/xml');
    expect(r.status).toBe(422);
    expect((await post('/api/v1/sbom', 'x', 'image/png')).status).toBe(415);
    expect(
      (
        await post(
          '/api/v1/sbom',
          corpus('cyclonedx/cern-lhc-vdm-editor.bom.json').subarray(0, 5000),
          'application/json',
        )
      ).status,
    ).toBe(422);
  });
});

describe('any body at all', () => {
  it('is answered 200 or a 4xx with a sentence, never a 5xx', async () => {
    const types = [
      'application/json',
      'text/plain',
      'application/xml',
      'application/vnd.cyclonedx+json',
      'text/spdx',
      'application/yaml',
      'image/png',
      '',
    ];
    const seeds = [
      'package-json/express.package.json',
      'cyclonedx/cern-lhc-vdm-editor.bom.json',
      'spdx/spdx-spec-SPDXTagExample-v2.3.spdx',
      'workflow/syft-release.yaml',
    ].map((f) => corpus(f).toString());
    const body = fc.oneof(
      fc.string({ maxLength: 400 }),
      fc.json({ maxDepth: 4 }),
      fc
        .tuple(fc.constantFrom(...seeds), fc.nat(), fc.nat(), fc.string({ maxLength: 8 }))
        .map(([text, at, cut, insert]) => {
          const i = at % text.length;
          return text.slice(0, i) + insert + text.slice(i + 1, i + 1 + (cut % text.length));
        }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/api/v1/manifest', '/api/v1/sbom'),
        fc.constantFrom(...types),
        body,
        async (path, type, text) => {
          const r = await post<DetailAnswer | ValidationAnswer>(path, text, type);
          expect(r.status).toBeLessThan(500);
          if (r.status >= 400) {
            expect(r.body.detail).toBeDefined();
            const sentence = typeof r.body.detail === 'string' ? r.body.detail : r.body.detail[0]!.msg;
            expect(sentence.length).toBeGreaterThan(10);
          }
        },
      ),
      { numRuns: 300 },
    );
  }, 60_000);
});
