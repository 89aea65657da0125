import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateSigningKey } from '../src/config/signing-key.js';
import { normaliseComponent, type ComponentKind } from '../src/domain/component.js';
import type { State } from '../src/domain/state.js';
import { logNotary } from '../src/operations/deps.js';
import { openSqliteStore } from '../src/storage/sqlite/open.js';
import { githubObservation } from './support/record.js';
import { componentProperties, sbomValidators, withoutOurs, type SbomValidators } from './support/sbom-schemas.js';
import { serveAt, tended, type TendedProcess } from './support/tended-processes.js';

/**
 * `tended check FILE --format cyclonedx|spdx`: the SBOM checked, written back to stdout enriched, as a
 * real process over a real SQLite record (locally) and through a real `tended serve` (--url). The
 * output is validated against the official schemas (test/fixtures/sbom-schemas) and compared,
 * outside Tended's own fields, with the corpus file; the gate's exit code and sentence still hold.
 */
const AT = '2026-11-22 12:00:00';
const CDX = 'cyclonedx/trivy-nested-packages-bom.json';
const SPDX = 'spdx/spdx-spec-SPDXJSONExample-v2.3.spdx.json';

const HELD: [ComponentKind, string, State, Record<string, string>][] = [
  ['golang', 'github.com/aquasecurity/go-version', 'alive', {}],
  ['golang', 'golang.org/x/xerrors', 'eol', { eol_from: '2026-06-30' }],
  ['maven', 'org.apache.jena:apache-jena', 'abandoned', {}],
];

let dir: string;
let env: Record<string, string>;
let server: (TendedProcess & { url: string }) | undefined;
let schemas: SbomValidators;
const file = (corpusPath: string) => join(dir, corpusPath);
const input = (corpusPath: string) => JSON.parse(readFileSync(file(corpusPath), 'utf8')) as Record<string, unknown>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tended-cli-sbom-'));
  env = { DATABASE_URL: `sqlite:${join(dir, 'record', 'tended.db')}` };
  const key = loadOrCreateSigningKey(join(dir, 'record', 'checkpoint-key.pem'));
  const notary = logNotary('tended.local/log/v1', key.privateKey, key.publicKey);
  const store = await openSqliteStore(join(dir, 'record', 'tended.db'));
  await store.initialiseLog(notary.seal);
  await store.appendObservations(
    HELD.map(([kind, id, state, evidence]) => {
      const o = githubObservation('acme/x', '2026-11-01', state);
      return {
        ...o,
        component: normaliseComponent(kind, id),
        source: `https://upstream.test/${kind}/${id}`,
        evidence: { ...o.evidence, ...evidence },
      };
    }),
    notary.seal,
  );
  await store.close();
  for (const path of [CDX, SPDX, 'cyclonedx/proton-bridge-v1.6.3.bom.json']) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    copyFileSync(new URL(`./corpus/${path}`, import.meta.url), file(path));
  }
  writeFileSync(join(dir, 'package.json'), '{ "dependencies": { "express": "^4.18.0" } }\n');
  schemas = sbomValidators();
  server = await serveAt(env, AT);
}, 90_000);
afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const check = async (args: string[]) => tended(['check', ...args], env, AT).exited;

describe.each([
  ['locally', () => []],
  ['through --url', () => ['--url', server!.url]],
])('tended check FILE --format cyclonedx|spdx, %s', (_how, where: () => string[]) => {
  it('writes a CycloneDX 1.6 corpus SBOM back enriched, valid against the official schema, and still gates', async () => {
    const r = await check([file(CDX), '--format', 'cyclonedx', ...where()]);
    const out = JSON.parse(r.out) as Record<string, unknown>;
    expect(schemas.cdx['1.6']!(out), JSON.stringify(schemas.cdx['1.6']!.errors)).toBe(true);
    expect(withoutOurs(out, true)).toEqual(withoutOurs(input(CDX), true));
    expect(componentProperties(out, 'pkg:golang/github.com/aquasecurity/go-version')).toMatchObject({
      'tended:state': 'alive',
      'tended:as_of': '2026-11-22',
      'tended:observation_date': '2026-11-01',
      'tended:source': 'https://upstream.test/golang/github.com/aquasecurity/go-version',
    });
    const eol = componentProperties(out, 'pkg:golang/golang.org/x/xerrors');
    expect(eol['tended:state']).toBe('eol');
    expect(eol['cdx:lifecycle:milestone:endOfLife']).toBe('2026-06-30');
    // The gate is the same as with any other format: eol fails it, named on stderr.
    expect(r.err).toContain('tended: the check fails: 1 of 4 components as of 2026-11-22 is in a state that fails it');
    expect(r.err).toContain('golang:golang.org/x/xerrors eol (observed 2026-11-01');
    expect(r.code).toBe(1);
  }, 60_000);

  it('writes an SPDX 2.3 corpus SBOM back with annotations, valid against the official schema', async () => {
    const r = await check([file(SPDX), '--format', 'spdx', '--fail-on', 'none', ...where()]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out) as { packages: { name: string; annotations?: Record<string, unknown>[] }[] };
    expect(schemas.spdx(out), JSON.stringify(schemas.spdx.errors)).toBe(true);
    expect(withoutOurs(out, false)).toEqual(withoutOurs(input(SPDX), false));
    const jena = out.packages.find((p) => p.name === 'Jena')!;
    const ours = jena.annotations!.filter((a) => String(a['annotator']).startsWith('Tool: tended-'));
    expect(ours).toHaveLength(1);
    expect(String(ours[0]!['comment']).split('\n').slice(0, 2)).toEqual([
      'tended:state=abandoned',
      'tended:as_of=2026-11-22',
    ]);
  }, 60_000);

  it('refuses, with exit 2 and a sentence, a format that is not the file’s own and a file that is no SBOM', async () => {
    const other = await check([file(CDX), '--format', 'spdx', ...where()]);
    expect(other.code).toBe(2);
    expect(other.out).toBe('');
    expect(other.err).toContain(
      '--format spdx returns the submitted SBOM enriched in its own format, and this file is CycloneDX 1.6 JSON, not SPDX: Tended does not convert between formats; ask --format cyclonedx for it, or use --format table, json, sarif or markdown for the report.',
    );
    const old = await check([file('cyclonedx/proton-bridge-v1.6.3.bom.json'), '--format', 'cyclonedx', ...where()]);
    expect(old.code).toBe(2);
    expect(old.err).toContain('CycloneDX 1.2 has no component properties (they came in 1.3)');
    const manifest = await check([join(dir, 'package.json'), '--format', 'cyclonedx', ...where()]);
    expect(manifest.code).toBe(2);
    expect(manifest.out).toBe('');
    expect(manifest.err).toContain(
      'this file is package-json, not CycloneDX: Tended does not convert between formats; use --format table, json, sarif or markdown for the report.',
    );
  }, 60_000);
});

it('refuses --format cyclonedx for a directory: stdout holds one SBOM', async () => {
  const r = await check([join(dir, 'cyclonedx'), '--format', 'cyclonedx']);
  expect(r.code).toBe(2);
  expect(r.out).toBe('');
  expect(r.err).toContain(
    `--format cyclonedx writes one SBOM back to stdout, so it checks one file, and ${join(dir, 'cyclonedx')} is a directory`,
  );
}, 30_000);
