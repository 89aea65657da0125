import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseComponent } from '../../domain/component.js';
import { classify, type State } from '../../domain/state.js';
import { startHarness, type Harness } from '../../simulator/harness.js';
import type { DockerPhase, EolProduct } from '../../simulator/scenario-phases.js';
import { objectContaining } from '../../../test/support/matchers.js';

const TODAY = '2026-03-01';
const tag = (extra: Omit<DockerPhase, 'from'> = { tag_last_pushed: '2026-02-10T18:07:12.123456Z' }): DockerPhase[] => [
  { from: '2020-01-01', ...extra },
];
const product = (
  releases: NonNullable<EolProduct['phases'][number]['releases']>,
  aliases: string[] = [],
): EolProduct => ({ aliases, phases: [{ from: '2020-01-01', releases }] });

const IMAGES = {
  'node:22-alpine3.21': tag(),
  'node:18-alpine': tag(),
  'node:20-alpine3.19': tag(),
  'node:hydrogen': tag(),
  'node:latest': tag(),
  'node:25': tag(),
  'python:3.12-slim-bookworm': tag(),
  'python:3.12-slim-bullseye': tag(),
  'python:3.8.18': tag(),
  'debian:bookworm': tag(),
  'debian:bullseye': tag(),
  'ubuntu:22.04': tag(),
  'ubuntu:focal': tag(),
  'redis:7': tag(),
  'bitnami/redis:7': tag(),
  'postgres:16': tag(),
  'openjdk:17': tag({ tag_last_pushed: '2022-07-01T00:00:00Z' }),
  'acme/app:fresh': tag(),
  'acme/app:old': tag({ tag_last_pushed: '2025-06-01T00:00:00Z' }),
  'acme/app:ancient': tag({ tag_last_pushed: '2023-01-01T00:00:00Z' }),
  'acme/app:legacy': tag({ last_updated: '2025-12-01T00:00:00Z' }),
  'acme/app:gone': tag({ fail: 'not_found' }),
  'acme/app:limited': tag({ fail: 'rate_limit_429' }),
  'acme/app:error': tag({ fail: 'server_error' }),
  'acme/app:hangs': tag({ fail: 'timeout' }),
  'acme/app:resets': tag({ fail: 'reset' }),
  'acme/app:malformed': tag({ fail: 'malformed' }),
  'acme/app:unauthorized': tag({ fail: 'unauthorized' }),
};

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    today: TODAY,
    scenario: {
      components: Object.fromEntries(Object.entries(IMAGES).map(([k, v]) => [`docker:${k}`, v])),
      endoflife: {
        nodejs: product(
          [
            { name: '22', eolFrom: '2027-04-30' },
            { name: '20', eolFrom: '2026-04-30' },
            { name: '18', eolFrom: '2025-04-30' },
          ],
          ['node'],
        ),
        python: product([
          { name: '3.12', eolFrom: '2028-10-31' },
          { name: '3.8', eolFrom: '2024-10-07' },
        ]),
        debian: product([
          { name: '12', codename: 'Bookworm', eolFrom: '2026-06-10', eoesFrom: '2028-06-30' },
          { name: '11', codename: 'Bullseye', eolFrom: '2024-08-14', eoesFrom: '2026-08-31' },
        ]),
        'alpine-linux': product(
          [
            { name: '3.21', eolFrom: '2026-11-01' },
            { name: '3.19', eolFrom: '2025-11-01' },
          ],
          ['alpine'],
        ),
        ubuntu: product([
          { name: '22.04', codename: 'Jammy Jellyfish', eolFrom: '2027-06-01' },
          { name: '20.04', codename: 'Focal Fossa', eolFrom: '2025-05-31' },
        ]),
        postgresql: { phases: [{ from: '2020-01-01', fail: 'server_error', status: 503 }] },
      },
    },
  });
});
afterAll(() => h.close());

async function read(name: string) {
  const ref = normaliseComponent('docker', name);
  const reading = await h.newSources().docker.read(ref, TODAY);
  return { reading, state: classify(reading.signals, TODAY) };
}

const eolCheck = (product: string, cycle: string, eol: boolean) => objectContaining({ product, cycle, eol });

describe('docker reader against the simulator', () => {
  it.each<[string, State, Record<string, unknown>]>([
    [
      'node:22-alpine3.21',
      'alive',
      {
        tag_last_pushed: '2026-02-10T18:07:12.123456Z',
        eol_checks: [eolCheck('nodejs', '22', false), eolCheck('alpine-linux', '3.21', false)],
      },
    ],
    [
      'node:18-alpine',
      'eol',
      {
        eol_checks: [eolCheck('nodejs', '18', true)],
        eol_unchecked: [expect.stringMatching(/Alpine without its version/)],
      },
    ],
    // The worst cycle wins: a current Node on an end-of-life Alpine.
    [
      'node:20-alpine3.19',
      'eol',
      { eol_checks: [eolCheck('nodejs', '20', false), eolCheck('alpine-linux', '3.19', true)] },
    ],
    ['node:hydrogen', 'eol', { eol_checks: [eolCheck('nodejs', '18', true)] }],
    ['node:latest', 'alive', { eol_checks: [], eol_unchecked: [expect.stringMatching(/names no release cycle/)] }],
    ['node:25', 'alive', { eol_unchecked: [expect.stringMatching(/lists no release cycle/)] }],
    [
      'python:3.12-slim-bookworm',
      'alive',
      { eol_checks: [eolCheck('python', '3.12', false), eolCheck('debian', '12', false)] },
    ],
    [
      'python:3.12-slim-bullseye',
      'eol',
      {
        eol_checks: [
          eolCheck('python', '3.12', false),
          expect.objectContaining({ product: 'debian', cycle: '11', eol: true, is_maintained: true }),
        ],
      },
    ],
    ['python:3.8.18', 'eol', { eol_checks: [eolCheck('python', '3.8', true)] }],
    ['debian:bookworm', 'alive', { eol_checks: [eolCheck('debian', '12', false)] }],
    ['debian:bullseye', 'eol', { eol_checks: [eolCheck('debian', '11', true)] }],
    ['ubuntu:22.04', 'alive', { eol_checks: [eolCheck('ubuntu', '22.04', false)] }],
    ['ubuntu:focal', 'eol', { eol_checks: [eolCheck('ubuntu', '20.04', true)] }],
    ['redis:7', 'alive', { eol_unchecked: [expect.stringMatching(/no product redis \(HTTP 404\)/)] }],
    ['bitnami/redis:7', 'alive', { eol_unchecked: [expect.stringMatching(/not an official image/)] }],
    ['openjdk:17', 'archived', { deprecated: expect.stringMatching(/deprecated since July 2022/) }],
    ['acme/app:fresh', 'alive', { http_status: 200, tag_status: 'active' }],
    ['acme/app:old', 'dormant', { tag_last_pushed: '2025-06-01T00:00:00Z' }],
    ['acme/app:ancient', 'abandoned', { tag_last_pushed: '2023-01-01T00:00:00Z' }],
    ['acme/app:legacy', 'alive', { tag_last_pushed: null, last_updated: '2025-12-01T00:00:00Z' }],
    ['acme/app:gone', 'deleted', { http_status: 404, message: "httperror 404: tag 'gone' not found" }],
    ['acme/app:never-pushed', 'deleted', { http_status: 404 }],
    [
      'acme/app:limited',
      'not_observed',
      {
        http_status: 429,
        unreachable: 'rate_limited',
        x_retry_after: expect.any(Number),
        rate_limit_rule: 'x-ratelimit-remaining',
      },
    ],
    ['acme/app:error', 'not_observed', { http_status: 500, unreachable: 'server_error' }],
    ['acme/app:hangs', 'not_observed', { unreachable: 'timeout' }],
    ['acme/app:resets', 'not_observed', { unreachable: 'network' }],
    ['acme/app:malformed', 'not_observed', { unreachable: 'unparsable' }],
    ['acme/app:unauthorized', 'not_observed', { unreachable: 'unauthorized' }],
    // Without the listing, end-of-life cannot be ruled out.
    ['postgres:16', 'not_observed', { http_status: 503, unreachable: 'server_error', eol_product: 'postgresql' }],
  ])('%s → %s', async (name, state, evidence) => {
    const { reading } = await read(name);
    expect(classify(reading.signals, TODAY)).toBe(state);
    expect(reading.evidence).toMatchObject(evidence);
    expect(reading.method).toMatch(/Docker Hub/);
  });

  it('rests an eol state on the listing it read, and an age on the tag', async () => {
    expect((await read('node:18-alpine')).reading.source).toBe(`${h.simulator.urls.endoflife}/api/v1/products/nodejs/`);
    expect((await read('acme/app:old')).reading.source).toBe(
      `${h.simulator.urls.dockerhub}/v2/namespaces/acme/repositories/app/tags/old`,
    );
  });

  it.each([
    ['ghcr.io/acme/tool:1', /only Docker Hub/],
    ['node@sha256:' + 'a'.repeat(64), /digest alone/],
  ])('%s is not read: not_observed, said why, nothing asked', async (name, why) => {
    const before = h.simulator.requests.length;
    const { reading, state } = await read(name);
    expect(state).toBe('not_observed');
    expect(reading.signals.unreachable).toBe('unsupported');
    expect(reading.evidence['not_read']).toMatch(why);
    expect(h.simulator.requests.length).toBe(before);
  });

  it('a second read of an unchanged tag is 304s with the same facts', async () => {
    const sources = h.newSources();
    const ref = normaliseComponent('docker', 'python:3.12-slim-bookworm');
    const first = await sources.docker.read(ref, TODAY);
    const fresh = h.newSources();
    const before = h.simulator.requests.length;
    const second = await fresh.docker.read(ref, TODAY);
    expect(h.simulator.requests.slice(before).map((r) => [r.status, r.conditional])).toEqual([
      [304, true],
      [304, true],
      [304, true],
    ]);
    expect(second.signals).toEqual(first.signals);
    expect(second.evidence).toMatchObject({
      http_status: 304,
      eol_checks: [expect.objectContaining({ http_status: 304 }), expect.objectContaining({ http_status: 304 })],
    });
  });
});
