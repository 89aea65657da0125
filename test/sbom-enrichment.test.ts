import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../src/http/app.js';
import type { NewObservation } from '../src/domain/observation.js';
import type { State } from '../src/domain/state.js';
import { closedSources } from './support/limits.js';
import { recordDeps, sqliteTestStore, type TestStore } from './support/record.js';
import { componentProperties as properties, sbomValidators, withoutOurs } from './support/sbom-schemas.js';

/**
 * The SBOM written back (DESIGN §8e): real corpus SBOMs through a real server on loopback over a
 * real SQLite record, the answers validated against the official CycloneDX and SPDX JSON schemas
 * (test/fixtures/sbom-schemas/SOURCE.md) and compared, outside Tended's own fields, with the input.
 */
const corpus = (path: string) => readFileSync(new URL(`./corpus/${path}`, import.meta.url), 'utf8');

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

let t: TestStore;
let server: Server;
let url: string;
let cdx: Record<string, ValidateFunction>;
let spdx: ValidateFunction;

function observation(kind: NewObservation['component']['kind'], id: string, state: State, extra: Json = {}) {
  return {
    component: { kind, id },
    observed_at: '2026-11-01T06:00:00Z',
    observation_date: '2026-11-01',
    state,
    source: `https://example.invalid/${kind}/${id}`,
    evidence: { http_status: 200, ...extra },
    method: `${kind}: a reading for the test`,
    corrects: null,
  } as NewObservation;
}

beforeAll(async () => {
  t = await sqliteTestStore();
  const deps = recordDeps(t.store, '2026-11-22T12:00:00Z');
  await t.store.initialiseLog(deps.notary.seal);
  await t.store.appendObservations(
    [
      observation('golang', 'github.com/aquasecurity/go-version', 'alive'),
      observation('golang', 'golang.org/x/xerrors', 'eol', { eol_from: '2026-06-30' }),
      observation('cargo', 'strsim', 'abandoned'),
      observation('cargo', 'anstream', 'alive'),
      observation('npm', 'express', 'alive'),
    ],
    deps.notary.seal,
  );
  const app = build({ ...deps, sources: closedSources(), logError: () => {} });
  const listener = getRequestListener(app.fetch);
  server = createServer((req, res) => void listener(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ({ cdx, spdx } = sbomValidators());
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.dispose();
});

const post = async (query: string, body: string, type: string) => {
  const r = await fetch(`${url}/api/v1/sbom${query}`, { method: 'POST', headers: { 'content-type': type }, body });
  return { status: r.status, type: r.headers.get('content-type') ?? '', text: await r.text() };
};

function schemaErrors(validate: ValidateFunction, doc: unknown): string[] {
  validate(doc);
  return (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}

/** Every object's keys, in order, depth first: deep equality does not see key order. */
function keyOrder(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => keyOrder(v, out));
  else if (isObject(value)) for (const [k, v] of Object.entries(value)) out.push(k, ...keyOrder(v, []));
  return out;
}

describe('POST /api/v1/sbom?format=cyclonedx', () => {
  it('returns a CycloneDX 1.6 SBOM from the corpus enriched, valid against the official schema, the rest as it was', async () => {
    const input = corpus('cyclonedx/trivy-nested-packages-bom.json');
    const r = await post('?format=cyclonedx', input, 'application/vnd.cyclonedx+json');
    expect(r.status).toBe(200);
    expect(r.type).toBe('application/vnd.cyclonedx+json; version=1.6');
    const out = JSON.parse(r.text) as Json;
    expect(cdx['1.6']!(out), JSON.stringify(cdx['1.6']!.errors)).toBe(true);
    const before = JSON.parse(input) as Json;
    expect(JSON.stringify(before)).not.toContain('cdx:lifecycle:milestone:endOfLife');
    expect(withoutOurs(out, true)).toEqual(withoutOurs(before, true));
    expect(keyOrder(withoutOurs(out, true))).toEqual(keyOrder(withoutOurs(before, true)));
    expect(properties(out, 'pkg:golang/github.com/aquasecurity/go-version')).toMatchObject({
      'aquasecurity:trivy:PkgType': 'gobinary',
      'tended:state': 'alive',
      'tended:as_of': '2026-11-22',
      'tended:observation_date': '2026-11-01',
      'tended:censoring_status': expect.any(String) as string,
      'tended:source': 'https://example.invalid/golang/github.com/aquasecurity/go-version',
      'tended:leaf_index': expect.stringMatching(/^\d+$/) as string,
    });
    const eol = properties(out, 'pkg:golang/golang.org/x/xerrors');
    expect(eol['tended:state']).toBe('eol');
    expect(eol['cdx:lifecycle:milestone:endOfLife']).toBe('2026-06-30');
    // A component the record holds nothing of says so, undated.
    const unheld = properties(out, 'pkg:golang/github.com/aquasecurity/go-pep440-version');
    expect(unheld['tended:state']).toBe('not_observed');
    expect(unheld).not.toHaveProperty('tended:observation_date');
    // Written in the submission's own indentation.
    expect(r.text.split('\n')[1]).toMatch(/^ {2}"/);
  });

  it('is idempotent: an enriched SBOM enriched again is the same, byte for byte', async () => {
    const once = await post(
      '?format=cyclonedx',
      corpus('cyclonedx/trivy-nested-packages-bom.json'),
      'application/json',
    );
    const twice = await post('?format=cyclonedx', once.text, 'application/json');
    expect(twice.status).toBe(200);
    expect(twice.text).toBe(once.text);
  });

  it('keeps properties of other namespaces in order and replaces only ours', async () => {
    const doc = {
      bomFormat: 'CycloneDX',
      specVersion: '1.5',
      version: 1,
      components: [
        {
          type: 'library',
          name: 'express',
          purl: 'pkg:npm/express@4.0.0',
          properties: [
            { name: 'cdx:npm:package:development', value: 'false' },
            { name: 'tended:state', value: 'abandoned' },
            { name: 'tended:stale', value: 'from an older Tended' },
            { name: 'z', value: '1' },
          ],
        },
      ],
    };
    const r = await post('?format=cyclonedx', JSON.stringify(doc), 'application/json');
    const out = JSON.parse(r.text) as { components: { properties: Json[] }[] };
    expect(cdx['1.5']!(out)).toBe(true);
    expect(out.components[0]!.properties.map((p) => p['name'])).toEqual([
      'cdx:npm:package:development',
      'z',
      'tended:state',
      'tended:as_of',
      'tended:observation_date',
      'tended:censoring_status',
      'tended:source',
      'tended:leaf_index',
    ]);
    expect(out.components[0]!.properties[2]).toEqual({ name: 'tended:state', value: 'alive' });
    expect(r.text).not.toContain('\n');
  });

  it('enriches the largest corpus SBOM (CycloneDX 1.4, 1,115 components), valid against the 1.4 schema', async () => {
    const input = corpus('cyclonedx/juice-shop-bare.1.4.json');
    const r = await post('?format=cyclonedx', input, 'application/json');
    expect(r.status).toBe(200);
    const out = JSON.parse(r.text) as Json;
    expect(cdx['1.4']!(out), JSON.stringify(cdx['1.4']!.errors?.slice(0, 3))).toBe(true);
    expect(withoutOurs(out, true)).toEqual(withoutOurs(JSON.parse(input), true));
    expect(r.text.match(/"tended:state"/g)?.length).toBe(1115);
  });

  it('answers a format that is not the SBOM’s own, or a form it cannot write back, with a 422 sentence', async () => {
    const spdxAsCdx = await post('?format=cyclonedx', corpus('spdx/trivy-elasticsearch.spdx.json'), 'application/json');
    expect(spdxAsCdx.status).toBe(422);
    expect(spdxAsCdx.text).toContain('Tended does not convert between formats; ask format=spdx');
    const xml = await post('?format=cyclonedx', corpus('cyclonedx/laravel-7.12.0.1.1.xml'), 'application/xml');
    expect(xml.status).toBe(422);
    expect(xml.text).toContain('CycloneDX 1.1 XML cannot be written back yet');
    const tagValue = await post('?format=spdx', corpus('spdx/spdx-spec-SPDXTagExample-v2.3.spdx'), 'text/spdx');
    expect(tagValue.status).toBe(422);
    expect(tagValue.text).toContain('tag-value cannot be written back yet');
    const old = await post('?format=cyclonedx', corpus('cyclonedx/proton-bridge-v1.6.3.bom.json'), 'application/json');
    expect(old.status).toBe(422);
    expect(old.text).toContain('CycloneDX 1.2 has no component properties');
    const unknown = await post('?format=csv', corpus('cyclonedx/trivy-nested-packages-bom.json'), 'application/json');
    expect(unknown.status).toBe(422);
    expect(unknown.text).toContain('format is cyclonedx or spdx');
  });

  it('leaves the JSON answer as it was when no format is asked', async () => {
    const r = await post('', corpus('cyclonedx/trivy-nested-packages-bom.json'), 'application/json');
    expect(r.type).toMatch(/^application\/json/);
    expect(JSON.parse(r.text)).toHaveProperty('results_count', 4);
  });
});

describe('POST /api/v1/sbom?format=spdx', () => {
  // The spdx-spec example is valid as written; cargo-sbom's is not (a file with an empty checksums
  // list), nor is Trivy's (PACKAGE_MANAGER for PACKAGE-MANAGER, and more): enriched, each has exactly the
  // schema errors it came with, none of ours.
  it.each([
    ['spdx/spdx-spec-SPDXJSONExample-v2.3.spdx.json', 0],
    ['spdx/cargo-sbom-cargo-binary.spdx.json', 1],
    ['spdx/trivy-elasticsearch.spdx.json', 5],
  ])(
    'returns %s (SPDX 2.3) enriched with annotations, adding no error against the official schema (it had %d), the rest as it was',
    async (file, errors) => {
      const input = corpus(file);
      const r = await post('?format=spdx', input, 'application/spdx+json');
      expect(r.status).toBe(200);
      expect(r.type).toBe('application/spdx+json');
      const out = JSON.parse(r.text) as Json;
      const before = schemaErrors(spdx, JSON.parse(input));
      expect(before).toHaveLength(errors);
      expect(schemaErrors(spdx, out)).toEqual(before);
      expect(withoutOurs(out, false)).toEqual(withoutOurs(JSON.parse(input), false));
      expect(keyOrder(withoutOurs(out, false))).toEqual(keyOrder(withoutOurs(JSON.parse(input), false)));
      const again = await post('?format=spdx', r.text, 'application/spdx+json');
      expect(again.text).toBe(r.text);
    },
  );

  it('writes each result as one OTHER annotation, one fact a line', async () => {
    const r = await post('?format=spdx', corpus('spdx/cargo-sbom-cargo-binary.spdx.json'), 'application/json');
    const doc = JSON.parse(r.text) as { packages: { name: string; annotations?: Json[] }[] };
    const strsim = doc.packages.find((p) => p.name === 'strsim')!;
    expect(strsim.annotations).toHaveLength(1);
    const a = strsim.annotations![0]!;
    expect(a['annotator']).toMatch(/^Tool: tended-\d+\.\d+\.\d+$/);
    expect(a['annotationType']).toBe('OTHER');
    expect(a['annotationDate']).toBe('2026-11-22T00:00:00Z');
    expect(String(a['comment']).split('\n').slice(0, 3)).toEqual([
      'tended:state=abandoned',
      'tended:as_of=2026-11-22',
      'tended:observation_date=2026-11-01',
    ]);
  });
});
