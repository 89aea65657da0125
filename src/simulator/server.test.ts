import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scenario } from './scenario.js';
import { startSimulator, type Simulator } from './server.js';
import { clockedNode } from '../../test/support/clock.js';

const scenario: Scenario = {
  components: {
    'github:acme/app': [
      { from: '2025-01-01', pushed_at: '2025-01-10T00:00:00Z' },
      { from: '2025-06-01', pushed_at: '2025-05-30T00:00:00Z' },
      { from: '2026-01-01', archived: true },
    ],
    'npm:pkg': [{ from: '2025-01-01', versions: { '1.0.0': '2025-01-02T00:00:00.000Z' } }],
    'pypi:proj': [{ from: '2025-01-01', releases: { '1.0': '2025-01-02T00:00:00Z' }, project_status: 'archived' }],
    'docker:node:22': [{ from: '2025-01-01', tag_last_pushed: '2025-01-02T00:00:00Z' }],
  },
  endoflife: {
    nodejs: { aliases: ['node'], phases: [{ from: '2020-01-01', releases: [{ name: '22', eolFrom: '2027-04-30' }] }] },
  },
};

let now = new Date('2025-03-01T12:00:00Z');
let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ scenario, clock: () => now });
});
afterAll(() => sim.close());

describe('the simulator server', () => {
  it('serves every upstream under its own prefix on one loopback port', () => {
    const port = new URL(sim.url).port;
    expect(sim.url).toBe(`http://127.0.0.1:${port}`);
    expect(sim.urls).toEqual({
      github: `${sim.url}/github`,
      npm: `${sim.url}/npm`,
      pypi: `${sim.url}/pypi`,
      endoflife: `${sim.url}/endoflife`,
      dockerhub: `${sim.url}/dockerhub`,
      dependents: `${sim.url}/dependents`,
      dependentsRegistry: 'npmjs.org',
      maven: `${sim.url}/maven/maven2`,
      goproxy: `${sim.url}/goproxy`,
      rubygems: `${sim.url}/rubygems`,
      packagist: `${sim.url}/packagist`,
      cratesIndex: `${sim.url}/cratesindex`,
      crates: `${sim.url}/crates`,
      nuget: `${sim.url}/nuget`,
      osv: `${sim.url}/osv`,
      osvExport: `${sim.url}/osvexport`,
    });
  });

  it.each([
    ['/github/repos/acme/app', 200],
    ['/npm/pkg', 200],
    ['/pypi/pypi/proj/json', 200],
    ['/dockerhub/v2/namespaces/library/repositories/node/tags/22', 200],
    ['/dockerhub/v2/repositories/library/node/tags/22', 200],
    ['/endoflife/api/v1/products/nodejs/', 200],
    ['/endoflife/api/v1/products/node/', 301],
    ['/dependents/api/v1/registries/npmjs.org/packages/pkg', 404],
    ['/osvexport/crates.io/modified_id.csv', 200],
    ['/osvexport/crates.io/RUSTSEC-2020-0036.json', 404],
    ['/nowhere', 404],
  ])('GET %s → %i', async (path, status) => {
    const res = await fetch(`${sim.url}${path}`, { redirect: 'manual' });
    expect(res.status).toBe(status);
    await res.arrayBuffer();
  });

  it('answers only GET and HEAD', async () => {
    const res = await fetch(`${sim.urls.npm}/pkg`, { method: 'POST' });
    expect(res.status).toBe(405);
  });

  it('dates its answers by its clock, and picks the phase in force on that date', async () => {
    const read = async () => {
      const res = await fetch(`${sim.urls.github}/repos/acme/app`);
      return { date: res.headers.get('date'), body: (await res.json()) as { pushed_at: string; archived: boolean } };
    };
    now = new Date('2025-03-01T12:00:00Z');
    expect(await read()).toMatchObject({
      date: 'Sat, 01 Mar 2025 12:00:00 GMT',
      body: { pushed_at: '2025-01-10T00:00:00Z', archived: false },
    });
    now = new Date('2025-07-01T12:00:00Z');
    expect((await read()).body).toMatchObject({ pushed_at: '2025-05-30T00:00:00Z', archived: false });
    now = new Date('2026-02-01T12:00:00Z');
    expect((await read()).body).toMatchObject({ pushed_at: '2025-05-30T00:00:00Z', archived: true });
    now = new Date('2024-12-31T12:00:00Z');
    const before = await fetch(`${sim.urls.github}/repos/acme/app`);
    expect(before.status).toBe(404);
    now = new Date('2025-03-01T12:00:00Z');
  });

  it('gives GitHub weak ETags and the others strong ones, and answers 304 to a match (weak comparison)', async () => {
    const gh = await fetch(`${sim.urls.github}/repos/acme/app`);
    const etag = gh.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"/);
    expect(gh.headers.get('last-modified')).toBeTruthy();
    expect(
      (await fetch(`${sim.urls.github}/repos/acme/app`, { headers: { 'if-none-match': etag.slice(2) } })).status,
    ).toBe(304);
    expect(
      (
        await fetch(`${sim.urls.github}/repos/acme/app`, {
          headers: { 'if-modified-since': gh.headers.get('last-modified')! },
        })
      ).status,
    ).toBe(304);
    const npm = await fetch(`${sim.urls.npm}/pkg`);
    expect(npm.headers.get('etag')).toMatch(/^"/);
    const again = await fetch(`${sim.urls.npm}/pkg`, { headers: { 'if-none-match': npm.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(sim.requests.at(-1)).toEqual({ method: 'GET', path: '/npm/pkg', status: 304, conditional: true });
  });

  it('counts an unauthenticated 304 against the GitHub limit, an authorized one not (research §1.5)', async () => {
    const first = await fetch(`${sim.urls.github}/repos/acme/app`);
    const etag = first.headers.get('etag')!;
    const used = () =>
      fetch(`${sim.urls.github}/repos/acme/app`, { headers: { 'if-none-match': etag } }).then((r) =>
        Number(r.headers.get('x-ratelimit-used')),
      );
    const a = await used();
    expect(await used()).toBe(a + 1);
    const authorized = () =>
      fetch(`${sim.urls.github}/repos/acme/app`, {
        headers: { 'if-none-match': etag, authorization: 'Bearer t' },
      }).then((r) => Number(r.headers.get('x-ratelimit-used')));
    const b = await authorized();
    expect(await authorized()).toBe(b);
  });

  it('serves the Simple API as JSON only when asked for it, with the PEP 792 status', async () => {
    const html = await fetch(`${sim.urls.pypi}/simple/proj/`);
    expect(html.headers.get('content-type')).toMatch(/text\/html/);
    const res = await fetch(`${sim.urls.pypi}/simple/proj/`, {
      headers: { accept: 'application/vnd.pypi.simple.v1+json' },
    });
    expect(res.headers.get('content-type')).toBe('application/vnd.pypi.simple.v1+json');
    expect(await res.json()).toMatchObject({
      meta: { 'api-version': '1.4' },
      'project-status': { status: 'archived' },
    });
  });

  it('gives the abbreviated packument, without publish times, to a client that asks for it', async () => {
    const corgi = await fetch(`${sim.urls.npm}/pkg`, {
      headers: { accept: 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*' },
    });
    const body = (await corgi.json()) as Record<string, unknown>;
    expect(body['time']).toBeUndefined();
    expect(body['dist-tags']).toEqual({ latest: '1.0.0' });
    const full = (await (await fetch(`${sim.urls.npm}/pkg`)).json()) as Record<string, unknown>;
    expect(full['time']).toMatchObject({ '1.0.0': '2025-01-02T00:00:00.000Z' });
  });

  it('answers endoflife.date 404s with HTML, as the real site does', async () => {
    const res = await fetch(`${sim.urls.endoflife}/api/v1/products/nope/`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
  });

  it('takes a new scenario without a restart', async () => {
    const other = await startSimulator({ scenario, clock: () => now });
    try {
      other.setScenario({
        components: { 'npm:other': [{ from: '2020-01-01', versions: { '1.0.0': '2020-01-01T00:00:00.000Z' } }] },
      });
      expect((await fetch(`${other.urls.npm}/pkg`)).status).toBe(404);
      expect((await fetch(`${other.urls.npm}/other`)).status).toBe(200);
      expect(() => other.setScenario({ components: { 'npm:x': [{ from: 'soon' }] } })).toThrow(/must be a date/);
    } finally {
      await other.close();
    }
  });
});

describe('chaos', () => {
  async function statuses(seed: number): Promise<number[]> {
    const s = await startSimulator({ scenario, clock: () => now, chaos: { rate: 0.5, seed }, hangMs: 50 });
    try {
      for (let i = 0; i < 40; i++) {
        await fetch(`${s.urls.npm}/pkg`, { signal: AbortSignal.timeout(200) })
          .then((r) => r.arrayBuffer())
          .catch(() => undefined);
      }
      return s.requests.map((r) => r.status);
    } finally {
      await s.close();
    }
  }

  it('replaces a seeded share of answers with faults, the same for the same seed', async () => {
    const a = await statuses(3);
    expect(a).toEqual(await statuses(3));
    expect(a).not.toEqual(await statuses(4));
    const faults = a.filter((s) => s !== 200);
    expect(faults.length).toBeGreaterThan(8);
    expect(faults.length).toBeLessThan(32);
    for (const s of faults) expect([0, 403, 429, 500]).toContain(s);
  });

  it('closes at once even while answers hang', async () => {
    const s = await startSimulator({
      scenario: { components: { 'npm:slow': [{ from: '2020-01-01', fail: 'timeout' }] } },
      clock: () => now,
    });
    const pending = fetch(`${s.urls.npm}/slow`).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    const t = Date.now();
    await s.close();
    expect(Date.now() - t).toBeLessThan(1000);
    expect(await pending).toBeInstanceOf(Error);
  });
});

describe('the process clock', () => {
  it('moves the default clock, and with it the phase in force', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tended-sim-'));
    const script = join(dir, 'probe.mts');
    const server = new URL('./server.ts', import.meta.url).pathname;
    writeFileSync(
      script,
      `import { startSimulator } from ${JSON.stringify(server)};
const sim = await startSimulator({ scenario: { components: { 'npm:x': [{ from: '2025-01-01', versions: { '1.0.0': '2025-01-02T00:00:00.000Z' } }, { from: '2026-01-01', fail: 'not_found' }] } } });
const res = await fetch(sim.urls.npm + '/x');
process.stdout.write(JSON.stringify({ date: res.headers.get('date'), status: res.status }));
await sim.close();
`,
    );
    const run = async (at: string) => {
      const clock = clockedNode(at);
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', ...clock.args, script], {
        cwd: process.cwd(),
        timeout: 20_000,
        env: { ...process.env, ...clock.env },
      });
      return JSON.parse(stdout) as { date: string; status: number };
    };
    try {
      const before = await run('2025-06-01 12:00:00');
      expect(before.status).toBe(200);
      expect(before.date).toMatch(/ Jun 2025 /);
      const after = await run('2026-06-01 12:00:00');
      expect(after.status).toBe(404);
      expect(after.date).toMatch(/ Jun 2026 /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
