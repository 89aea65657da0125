import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { normaliseComponent, type ComponentKind } from '../src/domain/component.js';
import { upstreamEnv } from '../src/simulator/env.js';
import { parseScenario } from '../src/simulator/scenario.js';
import { startSimulator, type Simulator } from '../src/simulator/server.js';
import { databaseText } from './support/database-text.js';
import { postgresTestStore, sqliteTestStore, type TestStore, endToEndBackends } from './support/record.js';
import { serveAt, tended, type TendedProcess } from './support/tended-processes.js';
import { stringMatching } from './support/matchers.js';

/**
 * DESIGN §3 "Discovery", end to end over HTTP with the real CLI: a running service queues what its
 * readers name, a pass the same day observes the public names, and a private name (one its
 * upstream answers 404) leaves no trace in the log, pages, sitemap, org listing, change feed,
 * search, export, logs or any table of the database.
 */
const DAY = '2026-03-15';
const SECRET = 'secretco';
const fresh = { from: '2020-01-01', versions: { '1.0.0': '2026-03-01T00:00:00.000Z' } };
const alive = {
  from: '2020-01-01',
  created_at: '2021-01-01T00:00:00Z',
  pushed_at: '2026-03-01T10:00:00Z',
  last_commit: '2026-03-01T10:00:00Z',
};

describe.each(
  endToEndBackends([
    ['sqlite', sqliteTestStore],
    ['postgres', postgresTestStore],
  ] as const),
)('discovery on %s', (_backend, open) => {
  let t: TestStore;
  let simulator: Simulator;
  let dir: string;
  let env: Record<string, string>;
  let serve: (TendedProcess & { url: string }) | null = null;
  const logs: string[] = [];

  beforeEach(async () => {
    t = await open();
    dir = mkdtempSync(join(tmpdir(), 'tended-discovery-'));
    simulator = await startSimulator({
      scenario: parseScenario({
        components: {
          'npm:tiny-public': [fresh],
          'npm:asked-not-queued': [fresh],
          'github:acme/discovered': [alive],
          // An owner nobody watches, with two public repositories: an org read queues them all.
          'github:orgco/tool-a': [alive],
          'github:orgco/tool-b': [alive],
          'maven:org.acme:public-lib': [{ from: '2020-01-01', versions: { '2.0': '2026-03-01T00:00:00Z' } }],
          'golang:example.com/public-mod': [{ from: '2020-01-01', versions: { 'v1.0.0': '2026-03-01T00:00:00Z' } }],
          // Not in the scenario, so their upstreams answer 404: @secretco/internal-billing, secretco/private-repo,
          // com.secretco:ledger (Central) and git.secretco.example/payroll (the Go proxy): for these two a
          // 404 proves no deletion ("not listed"), and a private name must vanish all the same.
        },
      }),
      clock: () => new Date(`${DAY}T12:00:00Z`),
    });
    env = {
      DATABASE_URL: t.url,
      TENDED_SIGNING_KEY: join(dir, 'checkpoint-key.pem'),
      ...upstreamEnv(simulator.urls),
    };
    logs.length = 0;
  });
  afterEach(async () => {
    await serve?.stop();
    serve = null;
    await simulator.close();
    await t.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = async (path: string, body: unknown) => {
    const r = await fetch(`${serve!.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(r.status, path).toBe(200);
    return (await r.json()) as {
      discovery?: { unheld: number; queued: number; not_queued: number; note: string };
      results: {
        input: { name: string };
        state: string;
        queued?: boolean;
        leaf_index: number | null;
        source: string;
      }[];
    };
  };
  const get = async (path: string, accept = 'application/json') => {
    const r = await fetch(`${serve!.url}${path}`, { headers: { accept } });
    return { status: r.status, text: await r.text() };
  };
  const ids = async () => (await t.store.watchList()).map((w) => `${w.component.kind}:${w.component.id}`);
  const observed = async (kind: ComponentKind, id: string) =>
    (await t.store.observationsOf(normaliseComponent(kind, id))).map((o) => [o.observation_date, o.state]);

  it('queues what reads name and submissions ask for; the same day’s pass reads the public ones and forgets the private ones', async () => {
    serve = await serveAt(env, `${DAY} 09:00:00`);

    // A submission that does not ask queues nothing, and says how to ask.
    const unasked = await post('/api/v1/manifest', {
      filename: 'package.json',
      content: JSON.stringify({ dependencies: { 'asked-not-queued': '^1.0.0' } }),
    });
    expect(unasked.discovery).toMatchObject({ unheld: 1, queued: 0, not_queued: 1 });
    expect(unasked.discovery!.note).toContain('?queue=true');
    expect(unasked.results[0]!.queued).toBeUndefined();
    expect(await ids()).toEqual([]);

    // One that asks queues its unheld components: a public name and a private one.
    const asked = await post('/api/v1/manifest?queue=true', {
      filename: 'package.json',
      content: JSON.stringify({ dependencies: { 'tiny-public': '^1.0.0', [`@${SECRET}/internal-billing`]: '^2.0.0' } }),
    });
    expect(asked.discovery).toMatchObject({ unheld: 2, queued: 2, not_queued: 0 });
    for (const r of asked.results) {
      expect(r, r.input.name).toMatchObject({ state: 'not_observed', queued: true, leaf_index: null });
      expect(r.source).toMatch(/^not checked yet; queued for observation/);
    }

    // An SBOM that asks: Maven and Go names, a public and a private one each.
    const sbom = await fetch(`${serve.url}/api/v1/sbom?queue=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/vnd.cyclonedx+json' },
      body: JSON.stringify({
        bomFormat: 'CycloneDX',
        specVersion: '1.6',
        components: [
          { type: 'library', name: 'public-lib', purl: 'pkg:maven/org.acme/public-lib@2.0' },
          { type: 'library', name: 'ledger', purl: `pkg:maven/com.${SECRET}/ledger@1.0` },
          { type: 'library', name: 'public-mod', purl: 'pkg:golang/example.com/public-mod@v1.0.0' },
          { type: 'library', name: 'payroll', purl: `pkg:golang/git.${SECRET}.example/payroll@v0.3.0` },
        ],
      }),
    });
    expect(sbom.status).toBe(200);
    expect(((await sbom.json()) as { discovery: unknown }).discovery).toMatchObject({ unheld: 4, queued: 4 });

    // An org read of an owner the record holds nothing under queues the owner; so does a private one.
    for (const owner of ['orgco', `${SECRET}-org`]) {
      const org = await get(`/api/v1/org/${owner}`);
      expect(org.status).toBe(200);
      expect(JSON.parse(org.text)).toMatchObject({
        components_count: 0,
        queued: true,
        note: stringMatching(/^Not checked yet; queued for observation\./),
      });
    }

    // A read naming one repository queues it.
    for (const repo of ['acme/discovered', `${SECRET}/private-repo`]) {
      const entity = await get(`/api/v1/entity/${repo}`);
      expect(entity.status).toBe(200);
      expect(JSON.parse(entity.text)).toMatchObject({
        state: 'not_observed',
        censoring_status: 'not-observed-at-date',
        leaf_index: null,
        queued: true,
        note: stringMatching(/^Not checked yet; queued for observation\./),
      });
    }
    expect((await ids()).sort()).toEqual([
      'github:acme/discovered',
      `github:${SECRET}/private-repo`,
      'golang:example.com/public-mod',
      `golang:git.${SECRET}.example/payroll`,
      `maven:com.${SECRET}:ledger`,
      'maven:org.acme:public-lib',
      `npm:@${SECRET}/internal-billing`,
      'npm:tiny-public',
    ]);
    expect(await t.store.treeSize(), 'queueing writes no leaf').toBe(0);

    const pass = await tended(['observe', '--once'], env, `${DAY} 12:00:00`).exited;
    expect(pass.code, pass.err).toBe(0);
    expect(pass.out).toMatch(/^observed 6 /);
    // Four private names, and the private owner.
    expect(pass.out).toMatch(/dropped 5 /);
    logs.push(pass.out, pass.err);

    expect(await observed('npm', 'tiny-public')).toEqual([[DAY, 'alive']]);
    expect(await observed('github', 'acme/discovered')).toEqual([[DAY, 'alive']]);
    expect(await observed('npm', 'asked-not-queued')).toEqual([]);
    expect(await observed('maven', 'org.acme:public-lib')).toEqual([[DAY, 'alive']]);
    expect(await observed('golang', 'example.com/public-mod')).toEqual([[DAY, 'alive']]);
    expect(await observed('github', 'orgco/tool-a')).toEqual([[DAY, 'alive']]);
    expect(await observed('github', 'orgco/tool-b')).toEqual([[DAY, 'alive']]);
    const orgco = await get('/api/v1/org/orgco');
    expect(JSON.parse(orgco.text)).toMatchObject({ components_count: 2 });
    expect(JSON.parse(orgco.text)).not.toHaveProperty('queued');
    expect((await ids()).sort()).toEqual([
      'github:acme/discovered',
      'github:orgco/tool-a',
      'github:orgco/tool-b',
      'golang:example.com/public-mod',
      'maven:org.acme:public-lib',
      'npm:tiny-public',
    ]);

    // The private names: in no leaf, page, listing, feed, search answer, export, log line or table.
    const size = await t.store.treeSize();
    expect(size).toBe(6);
    const leaves = await get(`/api/chain/entries?start=0&end=${size}`);
    expect(leaves.status).toBe(200);
    expect(leaves.text).toContain('tiny-public');
    // The org listing answers exactly as for an owner nobody ever asked about.
    const org = await get(`/api/v1/org/${SECRET}`);
    expect(JSON.parse(org.text)).toMatchObject({ components_count: 0, components: [] });
    expect(org.text.replaceAll(SECRET, 'OWNER')).toBe(
      (await get('/api/v1/org/nobodyco')).text.replaceAll('nobodyco', 'OWNER'),
    );
    const everywhere = [
      leaves.text,
      (await get('/api/v1/changes')).text,
      (await get('/', 'text/html')).text,
      (await get('/sitemap.xml', 'application/xml')).text,
      (await get('/llms.txt', 'text/plain')).text,
    ];
    // Searching for the private name answers exactly as for a name nobody ever asked about.
    const search = async (name: string) => {
      const r = await fetch(`${serve!.url}/search?q=${encodeURIComponent(name)}`, { headers: { accept: 'text/html' } });
      return { status: r.status, text: (await r.text()).replaceAll(name, 'NAME').replace(/nonce-[^']+/g, 'nonce') };
    };
    expect(await search(`@${SECRET}/internal-billing`)).toEqual(await search('@nobodyco/never-asked'));
    // Those two org reads queued their owners again, as any read does; the next pass forgets both.
    const again = await tended(['observe', '--once'], env, `${DAY} 12:20:00`).exited;
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(/dropped 2 /);
    logs.push(again.out, again.err);
    const exportFile = join(dir, 'export.jsonl');
    const exported = await tended(['export', '--out', exportFile], env, `${DAY} 12:30:00`).exited;
    expect(exported.code, exported.err).toBe(0);
    everywhere.push(readFileSync(exportFile, 'utf8'), exported.out, exported.err);
    await serve.stop();
    const served = serve.output();
    serve = null;
    everywhere.push(served.out, served.err, ...logs, await databaseText(t.url));
    for (const text of everywhere) expect(text).not.toContain(SECRET);
  }, 90_000);
});
