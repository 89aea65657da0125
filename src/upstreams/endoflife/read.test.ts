import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../simulator/server.js';
import { HttpClient } from '../http/client.js';
import { MemoryConditionalCache } from '../http/memory-cache.js';
import { isEolOn, isSupportedOn, type ReleaseFacts } from './facts.js';
import { EndoflifeReader } from './read.js';

const TODAY = '2026-03-01';
let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator({
    clock: () => new Date(`${TODAY}T12:00:00Z`),
    scenario: {
      components: {},
      endoflife: {
        nodejs: {
          aliases: ['node'],
          phases: [
            {
              from: '2020-01-01',
              releases: [
                { name: '20', eolFrom: '2026-04-30', latest: '20.19.0', latestDate: '2025-03-13' },
                { name: '18', eolFrom: '2025-04-30' },
              ],
            },
            { from: '2026-06-01', releases: [{ name: '20', eolFrom: '2026-04-30' }] },
          ],
        },
        debian: {
          phases: [
            {
              from: '2020-01-01',
              releases: [
                { name: '12', codename: 'Bookworm', eolFrom: '2026-06-10', eoesFrom: '2028-06-30' },
                { name: '3', eol: true },
              ],
            },
          ],
        },
        broken: { phases: [{ from: '2020-01-01', fail: 'server_error' }] },
        limited: { phases: [{ from: '2020-01-01', fail: 'rate_limit_429' }] },
        garbled: { phases: [{ from: '2020-01-01', fail: 'malformed' }] },
      },
    },
  });
});
afterAll(() => sim.close());

function reader(): EndoflifeReader {
  const client = new HttpClient({
    upstream: 'endoflife',
    base: sim.urls.endoflife,
    userAgent: 'tended-test',
    timeoutMs: 300,
    concurrency: 2,
    cache: new MemoryConditionalCache(),
    maxBodyBytes: 1 << 20,
  });
  return new EndoflifeReader(client, sim.urls.endoflife);
}

describe('endoflife.date reader against the simulator', () => {
  it('reads a product and its release cycles', async () => {
    const p = await reader().product('nodejs');
    expect(p.kind).toBe('product');
    if (p.kind !== 'product') return;
    expect(p.url).toBe(`${sim.urls.endoflife}/api/v1/products/nodejs/`);
    expect(p.product.releases).toEqual([
      {
        name: '20',
        codename: null,
        is_eol: false,
        eol_from: '2026-04-30',
        is_maintained: true,
        eoes_from: null,
        latest: '20.19.0',
        latest_date: '2025-03-13',
      },
      {
        name: '18',
        codename: null,
        is_eol: true,
        eol_from: '2025-04-30',
        is_maintained: false,
        eoes_from: null,
        latest: null,
        latest_date: null,
      },
    ]);
  });

  it('follows an alias 301 to the canonical product', async () => {
    const p = await reader().product('node');
    expect(p.kind).toBe('product');
    expect(p.url).toBe(`${sim.urls.endoflife}/api/v1/products/nodejs/`);
    expect(p.evidence['redirects']).toEqual([
      {
        status: 301,
        from: `${sim.urls.endoflife}/api/v1/products/node/`,
        to: `${sim.urls.endoflife}/api/v1/products/nodejs/`,
      },
    ]);
  });

  it('an unknown product is a 404 with an HTML body: unknown, not a failure and not "not end-of-life"', async () => {
    const p = await reader().product('no-such-product');
    expect(p).toMatchObject({ kind: 'unknown', evidence: { http_status: 404 } });
  });

  it.each([
    ['broken', 'server_error', 502],
    ['limited', 'rate_limited', 429],
    ['garbled', 'unparsable', 200],
  ])('%s → unreachable %s', async (name, reason, status) => {
    const p = await reader().product(name);
    expect(p.kind).toBe('unreachable');
    if (p.kind === 'unreachable') {
      expect(p.signals.unreachable).toBe(reason);
      expect(p.evidence['http_status']).toBe(status);
    }
  });

  it('reuses a product answer for a while: thousands of tags share a few products', async () => {
    const r = reader();
    await r.product('debian');
    const before = sim.requests.length;
    await Promise.all([r.product('debian'), r.product('debian')]);
    expect(sim.requests.length).toBe(before);
  });
});

describe('isEolOn', () => {
  const release = (r: Partial<ReleaseFacts>): ReleaseFacts => ({
    name: '1',
    codename: null,
    is_eol: false,
    eol_from: null,
    is_maintained: true,
    eoes_from: null,
    latest: null,
    latest_date: null,
    ...r,
  });
  it.each([
    [release({ is_eol: true }), true],
    [release({ eol_from: '2026-03-01' }), true],
    [release({ eol_from: '2026-03-02' }), false],
    [release({}), false],
    // Extended support does not undo end-of-life.
    [release({ eol_from: '2025-01-01', is_maintained: true, eoes_from: '2028-01-01' }), true],
  ])('%j → %s', (r, eol) => {
    expect(isEolOn(r, TODAY)).toBe(eol);
  });

  // Issue 27 item 7: what makes a distribution release alive whatever its latest point release's age.
  it.each([
    [release({ eol_from: '2029-05-31' }), true],
    [release({ eol_from: '2029-05-31', is_maintained: null }), true],
    // The listing's own word that no support goes on, though no end-of-life date has come.
    [release({ eol_from: '2029-05-31', is_maintained: false }), false],
    [release({ is_maintained: null }), false],
    [release({ is_eol: true }), false],
    [release({ eol_from: '2025-01-01', is_maintained: true, eoes_from: '2028-01-01' }), false],
  ])('isSupportedOn %j → %s', (r, supported) => {
    expect(isSupportedOn(r, TODAY)).toBe(supported);
  });
});
