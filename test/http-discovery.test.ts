import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { build } from '../src/http/app.js';
import type { CheckAnswer } from '../src/operations/check-components.js';
import type { DiscoverySettings } from '../src/operations/discovery.js';
import type { EntityAnswer } from '../src/operations/read-entity.js';
import { demoScenario } from '../src/simulator/demo.js';
import { startHarness, type Harness } from '../src/simulator/harness.js';
import { jsonOf, type Json } from './support/json.js';
import type { ComponentToolAnswer, RpcAnswer, ToolCallResult } from './support/mcp-answers.js';
import { githubObservation, recordDeps, sqliteTestStore, type TestStore } from './support/record.js';

/**
 * Discovery's rules over the app's HTTP surface (DESIGN §3): what queues, what does not, the
 * per-request and daily bounds, TENDED_DISCOVERY=off, and the same through MCP.
 */
let t: TestStore;
let harness: Harness;
let deps: ReturnType<typeof recordDeps>;

beforeEach(async () => {
  t = await sqliteTestStore();
  harness = await startHarness({ scenario: demoScenario(), today: '2026-11-22' });
  deps = recordDeps(t.store, '2026-11-22T12:00:00Z');
  await t.store.initialiseLog(deps.notary.seal);
  await t.store.appendObservations([githubObservation('expressjs/express', '2026-11-01', 'alive')], deps.notary.seal);
});
afterEach(async () => {
  await harness.close();
  await t.dispose();
});

// No rate limit runs here, so no client's share applies (test/http-fairness.test.ts has those).
const app = (discovery: Omit<DiscoverySettings, 'clientShare'> | null) =>
  build({
    ...deps,
    sources: harness.sources,
    logError: () => {},
    discovery: discovery && { ...discovery, clientShare: discovery.dailyCap },
  });

interface Answer<T> {
  status: number;
  body: T;
}
/** A tools/call answer of /mcp, its structured content of the shape `T`. */
type ToolAnswer<T> = RpcAnswer<ToolCallResult<T>>;
/** GETs `path`, or POSTs `body` to it; the answer's body is read as JSON of the shape `T`. */
async function call<T = Json>(a: ReturnType<typeof build>, path: string, body?: unknown): Promise<Answer<T>> {
  const res = await a.request(
    path,
    body === undefined
      ? { headers: { accept: 'application/json' } }
      : {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify(body),
        },
  );
  return { status: res.status, body: await jsonOf<T>(res) };
}
const components = (names: string[]) => ({ components: names.map((name) => ({ name, kind: 'npm' })) });
const watched = async () => (await t.store.watchList()).map((w) => `${w.component.kind}:${w.component.id}`).sort();
const tool = (name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name, arguments: args },
});

describe('discovery over HTTP', () => {
  it('leaves a held component alone and queues only the unheld ones a submission asks for', async () => {
    const a = app({ enabled: true, dailyCap: 100 });
    const r = await call<CheckAnswer>(a, '/api/v1/manifest?queue=true', {
      components: [
        { name: 'expressjs/express', kind: 'github' },
        { name: 'left-pad', kind: 'npm' },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.discovery).toMatchObject({ unheld: 1, queued: 1, not_queued: 0 });
    expect(r.body.results.map((x) => [x.input.name, x.queued ?? false])).toEqual([
      ['expressjs/express', false],
      ['left-pad', true],
    ]);
    expect(await watched()).toEqual(['npm:left-pad']);
    const held = await call<EntityAnswer>(a, '/api/v1/entity/expressjs/express');
    expect(held.body.queued).toBeUndefined();
    expect(await watched()).toEqual(['npm:left-pad']);
  });

  it('answers a repository read named like a held package with where the package is, and still queues the repository', async () => {
    // npm's left-padded, held; `npm/left-padded` as a repository, not.
    const pkg = {
      ...githubObservation('acme/x', '2026-11-01', 'archived'),
      component: { kind: 'npm', id: 'left-padded' },
    } as const;
    await t.store.appendObservations([{ ...pkg, source: 'https://registry.npmjs.org/left-padded' }], deps.notary.seal);
    const a = app({ enabled: true, dailyCap: 100 });
    const r = await call<EntityAnswer>(a, '/api/v1/entity/npm/left-padded');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      kind: 'github',
      state: 'not_observed',
      queued: true,
      see_also: {
        kind: 'npm',
        id: 'left-padded',
        facts: '/v1/trust_score/npm/left-padded',
        page: '/npm/left-padded',
        badge: '/badge/npm/left-padded.svg',
      },
    });
    expect(r.body.note).toMatch(
      /^This path reads GitHub repositories.*npm package left-padded: its answer is at \/v1\/trust_score\/npm\/left-padded/,
    );
    expect(await watched()).toContain('github:npm/left-padded');
    // The answer it points at is the package's.
    expect((await call(a, r.body.see_also!.facts)).body).toMatchObject({ kind: 'npm', state: 'archived' });
    // A registry's name with a package the record does not hold, and an owner that is no registry: no see_also.
    for (const path of ['/api/v1/entity/npm/never-held', '/api/v1/entity/acme/left-padded'])
      expect((await call<EntityAnswer>(a, path)).body.see_also).toBeUndefined();
  });

  it('queues at most 1,000 new names a request, and says how many were left and what to do', async () => {
    const names = Array.from({ length: 1_500 }, (_, i) => `unheld-${i}`);
    const many = await call<CheckAnswer>(
      app({ enabled: true, dailyCap: 100_000 }),
      '/api/v1/manifest?queue=true',
      components(names),
    );
    expect(many.body.discovery).toMatchObject({ unheld: 1_500, queued: 1_000, not_queued: 500 });
    expect(many.body.discovery!.note).toMatch(/at most 1,000 names; 500 were not queued: send them in another request/);
    expect((await watched()).length).toBe(1_000);
    expect(many.body.results.filter((x) => x.queued).length).toBe(1_000);
  });

  it('stops at the daily bound across requests and reads, and says so', async () => {
    const a = app({ enabled: true, dailyCap: 3 });
    const first = await call<CheckAnswer>(a, '/api/v1/manifest?queue=true', components(['a-1', 'a-2']));
    expect(first.body.discovery).toMatchObject({ queued: 2 });
    // Every asked name takes room, queued before or not: `a-1` is answered as `b-2`, never asked about.
    const second = await call<CheckAnswer>(a, '/api/v1/manifest?queue=true', components(['b-1', 'b-2', 'a-1']));
    expect(second.body.discovery).toMatchObject({ unheld: 3, queued: 1, not_queued: 2 });
    expect(second.body.discovery!.note).toMatch(/daily bound on queued names \(3\) is reached; 2 were not queued/);
    expect(second.body.results.map((x) => [x.input.name, x.queued ?? false])).toEqual([
      ['b-1', true],
      ['b-2', false],
      ['a-1', false],
    ]);
    const entity = await call<EntityAnswer>(a, '/api/v1/entity/acme/over-the-bound');
    expect(entity.status).toBe(200);
    expect(entity.body.queued).toBeUndefined();
    expect(entity.body.note).toMatch(/did not queue it for observation: today's bound on names queued/);
    expect((await watched()).length).toBe(3);
  });

  it('with TENDED_DISCOVERY=off queues nothing, and says so only when asked', async () => {
    const a = app({ enabled: false, dailyCap: 100 });
    const asked = await call<CheckAnswer>(a, '/api/v1/manifest?queue=true', components(['left-pad']));
    expect(asked.body.discovery).toMatchObject({ unheld: 1, queued: 0 });
    expect(asked.body.discovery!.note).toMatch(/TENDED_DISCOVERY=off\): nothing was queued/);
    const entity = await call<EntityAnswer>(a, '/api/v1/entity/acme/unheld');
    expect(entity.body.queued).toBeUndefined();
    expect(entity.body.note).toMatch(/^No observation of acme\/unheld on or before 2026-11-22/);
    const mcp = await call<ToolAnswer<ComponentToolAnswer>>(
      a,
      '/mcp',
      tool('check_component', { kind: 'npm', name: 'other' }),
    );
    expect(mcp.body.result!.structuredContent.queued).toBeUndefined();
    expect(await watched()).toEqual([]);
  });

  it('refuses a queue flag that is neither true nor false with a sentence, and queues nothing', async () => {
    const r = await call(app({ enabled: true, dailyCap: 100 }), '/api/v1/manifest?queue=yes', components(['left-pad']));
    expect(r.status).toBe(422);
    expect(JSON.stringify(r.body)).toMatch(/queue must be true or false/);
    expect(await watched()).toEqual([]);
  });

  it('queues through MCP as through the API: one-component tools always, check_manifest and check_sbom when asked', async () => {
    const a = app({ enabled: true, dailyCap: 100 });
    const one = await call<ToolAnswer<ComponentToolAnswer>>(
      a,
      '/mcp',
      tool('check_component', { kind: 'npm', name: 'left-pad' }),
    );
    expect(one.body.result!.structuredContent).toMatchObject({ state: 'not_observed', queued: true, leaf_index: null });
    expect(one.body.result!.structuredContent.note).toMatch(/^Not checked yet; queued for observation/);
    const series = await call<ToolAnswer<EntityAnswer>>(
      a,
      '/mcp',
      tool('get_series', { owner: 'acme', repo: 'asked' }),
    );
    expect(series.body.result!.structuredContent.queued).toBe(true);
    const content = JSON.stringify({ dependencies: { 'not-asked': '1.0.0' } });
    const unasked = await call<ToolAnswer<CheckAnswer>>(
      a,
      '/mcp',
      tool('check_manifest', { content, filename: 'package.json' }),
    );
    expect(unasked.body.result!.structuredContent.discovery).toMatchObject({ unheld: 1, queued: 0 });
    expect(unasked.body.result!.structuredContent.discovery!.note).toContain('queue: true');
    const sbom = JSON.stringify({
      bomFormat: 'CycloneDX',
      specVersion: '1.5',
      components: [{ type: 'library', name: 'sbom-asked', purl: 'pkg:npm/sbom-asked@1.0.0' }],
    });
    const asked = await call<ToolAnswer<CheckAnswer>>(a, '/mcp', tool('check_sbom', { content: sbom, queue: true }));
    expect(asked.body.result!.structuredContent.discovery).toMatchObject({ unheld: 1, queued: 1 });
    expect(await watched()).toEqual(['github:acme/asked', 'npm:left-pad', 'npm:sbom-asked']);
  });
});
