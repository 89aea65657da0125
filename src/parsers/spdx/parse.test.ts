import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CORPUS as CORPUS_DIR, corpusRows } from '../../../test/support/corpus.js';
import { stringContaining } from '../../../test/support/matchers.js';
import { stringify } from 'yaml';
import { NO_PURL_REASON } from '../purl-entry.js';
import { looksCycloneDx } from '../cyclonedx/detect.js';
import { InputError, TooComplexError, type ParseResult } from '../reference.js';
import { looksSpdx } from './detect.js';
import { MAX_YAML_LIBRARY_BYTES, parseSpdx } from './parse.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function corpus(): { file: string; expected: number; note: string }[] {
  return corpusRows('spdx');
}

function figure(note: string, name: string): number {
  const m = new RegExp(`\\b${name}=(\\d+)`).exec(note);
  if (!m) throw new Error(`counting note has no ${name}`);
  return Number(m[1]);
}

/** Entries that carried a purl: the references, plus the unresolved ones refused for their purl. */
function purlInputs(r: ParseResult): string[] {
  return [
    ...r.references.map((x) => x.input),
    ...r.unresolved.filter((u) => u.reason !== NO_PURL_REASON).map((u) => u.input),
  ];
}

function onlyInputErrors(text: string): void {
  try {
    parseSpdx(text);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
  }
}

const rows = corpus();
const read = (file: string): string => readFileSync(`${CORPUS_DIR}${file}`, 'utf8');

describe('parseSpdx on the corpus', () => {
  it('covers every SPDX file in the corpus', () => {
    expect(rows.map((r) => r.file).sort()).toEqual(
      readdirSync(`${CORPUS_DIR}spdx`)
        .map((f) => `spdx/${f}`)
        .sort(),
    );
  });

  it.each(rows)('$file: every package accounted for, purl figures match', ({ file, expected, note }) => {
    const text = read(file);
    expect(looksSpdx(text)).toBe(true);
    expect(looksCycloneDx(text)).toBe(false);
    const r = parseSpdx(text);
    expect(r.format).toBe('spdx');
    expect(r.references.length + r.unresolved.length).toBe(expected);
    expect(purlInputs(r).length).toBe(figure(note, 'with_purl'));
    expect(new Set(purlInputs(r)).size).toBe(figure(note, 'distinct_purls'));
  });

  it('names the variant and locates packages by SPDXID', () => {
    const tag = parseSpdx(read('spdx/spdx-spec-SPDXTagExample-v2.3.spdx'));
    const json = parseSpdx(read('spdx/spdx-spec-SPDXJSONExample-v2.3.spdx.json'));
    expect(tag.variant).toBe('SPDX 2.3 tag-value');
    expect(json.variant).toBe('SPDX 2.3 JSON');
    expect(tag.unresolved).toEqual(json.unresolved);
    expect(tag.references).toEqual(json.references);
    expect(tag.references.find((r) => r.location === 'SPDXRef-fromDoap-0')).toEqual({
      ref: { kind: 'maven', id: 'org.apache.jena:apache-jena' },
      input: 'pkg:maven/org.apache.jena/apache-jena@3.12.0',
      location: 'SPDXRef-fromDoap-0',
      // The document has no dependency relationship (CONTAINS is not one), so no scope.
      tree: { resolvedVersion: '3.12.0' },
    });
    expect(parseSpdx(read('spdx/appbomination-3.0.spdx3.json')).variant).toBe('SPDX 3.0.1 JSON-LD');
    expect(parseSpdx(read('spdx/trivy-elasticsearch.spdx.json')).unresolved[0]?.reason).toMatch(/type "bitnami"/);
  });

  it('names the subject: the one package the document DESCRIBES (2.x) or its root element (3.0)', () => {
    const glibc = { name: 'glibc', version: '2.11.1', bom_ref: 'SPDXRef-Package' };
    // documentDescribes names a file and a package; the package is the subject.
    expect(parseSpdx(read('spdx/spdx-spec-SPDXJSONExample-v2.3.spdx.json')).subject).toEqual(glibc);
    // Tag-value says it with Relationship: SPDXRef-DOCUMENT DESCRIBES … lines.
    expect(parseSpdx(read('spdx/spdx-spec-SPDXTagExample-v2.3.spdx')).subject).toEqual(glibc);
    expect(parseSpdx(read('spdx/trivy-elasticsearch.spdx.json')).subject).toEqual({
      name: 'Elasticsearch',
      version: '8.9.1',
      purl: 'pkg:bitnami/elasticsearch@8.9.1?arch=arm64',
      bom_ref: 'SPDXRef-elasticsearch',
    });
    expect(parseSpdx(read('spdx/appbomination-2.2.spdx.json')).subject).toEqual({
      name: 'App-BOM-ination',
      version: '1.0',
      bom_ref: 'SPDXRef-1',
    });
    expect(parseSpdx(read('spdx/appbomination-3.0.spdx3.json')).subject).toEqual({
      name: 'App-BOM-ination',
      version: '1.0',
      bom_ref:
        'http://www.sourceauditor.com/spdxdocs/appbomination-src/e3b71037-57de-44c9-8b7f-4e8a62f45311-specv3/SPDXRef-gnrtd3',
    });
  });

  it('has no subject when the document describes no package, or several', () => {
    const doc = (extra: object): string =>
      JSON.stringify({
        spdxVersion: 'SPDX-2.3',
        SPDXID: 'SPDXRef-DOCUMENT',
        packages: [
          { SPDXID: 'SPDXRef-a', name: 'a' },
          { SPDXID: 'SPDXRef-b', name: 'b' },
        ],
        ...extra,
      });
    expect(parseSpdx(doc({})).subject).toBeNull();
    expect(parseSpdx(doc({ documentDescribes: ['SPDXRef-a', 'SPDXRef-b'] })).subject).toBeNull();
    expect(parseSpdx(doc({ documentDescribes: ['SPDXRef-missing', 42] })).subject).toBeNull();
    expect(
      parseSpdx(
        doc({
          relationships: [
            { spdxElementId: 'SPDXRef-b', relationshipType: 'DESCRIBED_BY', relatedSpdxElement: 'SPDXRef-DOCUMENT' },
          ],
        }),
      ).subject,
    ).toEqual({ name: 'b', bom_ref: 'SPDXRef-b' });
    expect(
      parseSpdx(
        doc({
          relationships: [
            { spdxElementId: 'SPDXRef-a', relationshipType: 'DESCRIBES', relatedSpdxElement: 'SPDXRef-b' },
          ],
        }),
      ).subject,
    ).toBeNull();
  });

  it.each(rows.filter((r) => r.file.endsWith('.spdx.json')))('$file reads the same as YAML', ({ file }) => {
    const json = parseSpdx(read(file));
    const yaml = stringify(JSON.parse(read(file)));
    expect(looksSpdx(yaml)).toBe(true);
    const r = parseSpdx(yaml);
    expect(r.variant).toBe(json.variant?.replace('JSON', 'YAML'));
    expect({ ...r, variant: '' }).toEqual({ ...json, variant: '' });
  });
});

describe('parseSpdx on npm sbom output for this repository', () => {
  it('gives one reference per package with a purl and leaves nothing unaccounted', () => {
    const text = execFileSync('npm', ['sbom', '--sbom-format', 'spdx'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const doc = JSON.parse(text) as {
      packages: { externalRefs?: { referenceType: string; referenceLocator: string }[] }[];
    };
    const purls = doc.packages.flatMap((p) =>
      (p.externalRefs ?? []).filter((x) => x.referenceType === 'purl').map((x) => x.referenceLocator),
    );
    expect(purls.length).toBeGreaterThan(10);
    expect(purls.length).toBe(doc.packages.length);
    const r = parseSpdx(text);
    expect(r.variant).toBe('SPDX 2.3 JSON');
    expect(r.references.map((x) => x.input)).toEqual(purls);
    expect(r.unresolved).toEqual([]);
    expect(r.references.map((x) => x.ref)).toContainEqual({ kind: 'npm', id: 'tended' });
  });
});

describe('parseSpdx rules', () => {
  it('accepts PACKAGE_MANAGER and PACKAGE-MANAGER, ignores other references and files', () => {
    const r = parseSpdx(
      JSON.stringify({
        spdxVersion: 'SPDX-2.2',
        packages: [
          {
            SPDXID: 'SPDXRef-a',
            name: 'a',
            externalRefs: [
              { referenceCategory: 'PACKAGE_MANAGER', referenceType: 'purl', referenceLocator: 'pkg:npm/a@1' },
            ],
          },
          {
            SPDXID: 'SPDXRef-b',
            name: 'b',
            versionInfo: '2',
            externalRefs: [
              { referenceCategory: 'SECURITY', referenceType: 'cpe23Type', referenceLocator: 'cpe:2.3:a:b' },
            ],
          },
          {
            name: 'c',
            externalRefs: [
              {
                referenceCategory: 'PACKAGE-MANAGER',
                referenceType: 'purl',
                referenceLocator: 'pkg:github/Owner/Repo',
              },
            ],
          },
        ],
        files: [{ SPDXID: 'SPDXRef-f', fileName: './x' }],
      }),
    );
    expect(r.references).toEqual([
      { ref: { kind: 'npm', id: 'a' }, input: 'pkg:npm/a@1', location: 'SPDXRef-a', tree: { resolvedVersion: '1' } },
      { ref: { kind: 'github', id: 'owner/repo' }, input: 'pkg:github/Owner/Repo', location: 'packages[2]' },
    ]);
    expect(r.unresolved).toEqual([{ input: 'b@2', location: 'SPDXRef-b', reason: NO_PURL_REASON }]);
  });

  it('reads SPDX 3.0 externalIdentifier purls and packages listed under element', () => {
    const r = parseSpdx(
      JSON.stringify({
        '@context': 'https://spdx.org/rdf/3.0.1/spdx-context.jsonld',
        element: [
          'urn:x:only-an-id',
          {
            type: 'software_Package',
            spdxId: 'urn:p1',
            name: 'p1',
            externalIdentifier: [
              { type: 'ExternalIdentifier', externalIdentifierType: 'packageUrl', identifier: 'pkg:pypi/Requests@2' },
            ],
          },
          { type: 'software_File', spdxId: 'urn:f', name: 'f' },
        ],
      }),
    );
    expect(r.references).toEqual([
      {
        ref: { kind: 'pypi', id: 'requests' },
        input: 'pkg:pypi/Requests@2',
        location: 'urn:p1',
        tree: { resolvedVersion: '2' },
      },
    ]);
    expect(r.unresolved).toEqual([]);
  });

  it('reads tag-value packages, <text> spanning lines and comments', () => {
    const r = parseSpdx(
      [
        '## header comment',
        'SPDXVersion: SPDX-2.3',
        'PackageName: left',
        'SPDXID: SPDXRef-left',
        'PackageComment: <text>a comment',
        'PackageName: not-a-package',
        '</text>',
        'ExternalRef: PACKAGE_MANAGER purl pkg:docker/library/node@18',
        'FileName: ./f',
        'SPDXID: SPDXRef-file',
        'PackageName: right',
      ].join('\r\n'),
    );
    expect(r.references).toEqual([
      {
        ref: { kind: 'docker', id: 'docker.io/library/node:18' },
        input: 'pkg:docker/library/node@18',
        location: 'SPDXRef-left',
        tree: { resolvedVersion: '18' },
      },
    ]);
    expect(r.unresolved).toEqual([{ input: 'right', location: 'package on line 11', reason: NO_PURL_REASON }]);
  });

  it.each([
    ['malformed JSON', '{"spdxVersion": ', /JSON is malformed/],
    ['JSON that is not SPDX', '{"bomFormat": "CycloneDX"}', /spdxVersion/],
    ['a tag-value line without a tag', 'SPDXVersion: SPDX-2.3\nthis is not a tag', /line 2/],
    ['an unclosed <text>', 'SPDXVersion: SPDX-2.3\nPackageComment: <text>open', /never closed/],
    ['malformed YAML', 'spdxVersion: [unclosed', /as YAML/],
    ['YAML that is not SPDX', 'just: a mapping', /spdxVersion/],
    ['plain text', 'hello', /spdxVersion/],
  ])('refuses %s with an InputError', (_name, text, message) => {
    expect(() => parseSpdx(text)).toThrow(InputError);
    expect(() => parseSpdx(text)).toThrow(message);
  });

  it('refuses YAML alias bombs quickly', () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i += 1)
      lines.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    const start = performance.now();
    expect(() => parseSpdx(`spdxVersion: SPDX-2.3\n${lines.join('\n')}\n`)).toThrow(TooComplexError);
    expect(performance.now() - start).toBeLessThan(500);
  });

  it('reads big block-style YAML quickly, and passes other YAML to yaml only up to 1 MB', () => {
    const pkg = (i: number) =>
      `- SPDXID: SPDXRef-p${i}\n  name: p${i}\n  versionInfo: "1.0"\n  comment: >-\n    folded\n    text\n  externalRefs:\n  - referenceCategory: PACKAGE-MANAGER\n    referenceType: purl\n    referenceLocator: pkg:npm/p${i}@1.0.0\n`;
    const big = `spdxVersion: SPDX-2.3\nSPDXID: SPDXRef-DOCUMENT\ndocumentDescribes:\n- SPDXRef-p0\npackages:\n${Array.from({ length: 20_000 }, (_, i) => pkg(i)).join('')}`;
    expect(big.length).toBeGreaterThan(MAX_YAML_LIBRARY_BYTES * 3);
    const r = parseSpdx(big);
    expect(r.references).toHaveLength(20_000);
    expect(r.subject).toEqual({ name: 'p0', version: '1.0', purl: 'pkg:npm/p0@1.0.0', bom_ref: 'SPDXRef-p0' });
    // The same packages in flow style: yaml reads a small file, and a big one is refused, saying where and why.
    const flow = (n: number) =>
      `spdxVersion: SPDX-2.3\npackages: [${Array.from({ length: n }, (_, i) => `{name: p${i}, externalRefs: [{referenceCategory: PACKAGE-MANAGER, referenceType: purl, referenceLocator: "pkg:npm/p${i}@1"}]}`).join(', ')}]\n`;
    expect(parseSpdx(flow(100)).references).toHaveLength(100);
    expect(() => parseSpdx(flow(12_000))).toThrow(TooComplexError);
    expect(() => parseSpdx(flow(12_000))).toThrow(
      /it is 1\.\d MB of SPDX YAML, and line 2 holds a flow list \(\[a, b\]\)\. Tended reads SPDX YAML over 1 MB only in the block style/,
    );
  });

  it('reads YAML aliases within bounds, and refuses one list of references aliased by every package', () => {
    const refs = (n: number) =>
      `r: &r\n${'- {referenceCategory: SECURITY, referenceType: cpe23Type}\n'.repeat(n)}- {referenceCategory: PACKAGE-MANAGER, referenceType: purl, referenceLocator: "pkg:npm/a@1"}\n`;
    const shared = parseSpdx(
      `spdxVersion: SPDX-2.3\n${refs(2)}packages:\n- {name: x, externalRefs: *r}\n- {name: y, externalRefs: *r}\n`,
    );
    expect(shared.references.map((x) => x.location)).toEqual(['packages[0]', 'packages[1]']);
    // Each package's loop over the list would be the list's length again: 3,000 × 900 entries.
    const packages = '- {name: x, externalRefs: *r}\n'.repeat(900);
    expect(() => parseSpdx(`spdxVersion: SPDX-2.3\n${refs(3_000)}packages:\n${packages}`)).toThrow(
      /aliases add [\d,]+ nodes/,
    );
    expect(() => parseSpdx('spdxVersion: SPDX-2.3\npackages: &p\n- name: x\n  externalRefs: *p\n')).toThrow(
      TooComplexError,
    );
  });

  it('refuses deep nesting with an InputError', () => {
    expect(() => parseSpdx(`spdxVersion: ${'['.repeat(100_000)}`)).toThrow(InputError);
    // JSON too: refused before JSON.parse, SPDX 2 and SPDX 3 alike.
    expect(() =>
      parseSpdx(`{"spdxVersion":"SPDX-2.3","packages":${'['.repeat(100_000)}${']'.repeat(100_000)}}`),
    ).toThrow(TooComplexError);
    expect(() =>
      parseSpdx(
        `{"@context":"https://spdx.org/rdf/3.0.1/spdx-context.jsonld","@graph":[{"type":"software_Package","name":${'['.repeat(300)}${']'.repeat(300)}}]}`,
      ),
    ).toThrow(/more than 256 levels deep/);
    // A deep non-package entry within the bound is described, not serialised.
    const r = parseSpdx(`{"spdxVersion":"SPDX-2.3","packages":${'['.repeat(250)}${']'.repeat(250)}}`);
    expect(r.unresolved).toEqual([
      { input: '(a list)', location: 'packages[0]', reason: stringContaining('not a package') },
    ]);
  });

  it('sniffs SPDX and not CycloneDX', () => {
    expect(looksSpdx('{"bomFormat":"CycloneDX"}')).toBe(false);
    expect(looksSpdx('## c\nSPDXVersion: SPDX-2.2\n')).toBe(true);
    expect(looksSpdx('spdxVersion: "SPDX-2.3"\n')).toBe(true);
    expect(looksSpdx('{"@context": "https://spdx.org/rdf/3.0.1/spdx-context.jsonld", "@graph": []}')).toBe(true);
    expect(looksSpdx('name: x')).toBe(false);
  });
});

describe('parseSpdx properties', () => {
  const files = rows.map((r) => readFileSync(`${CORPUS_DIR}${r.file}`));

  it('throws nothing but InputError on arbitrary strings', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), onlyInputErrors), { numRuns: 500 });
    fc.assert(
      fc.property(
        fc.constantFrom(
          'SPDXVersion: SPDX-2.3\n',
          'spdxVersion: SPDX-2.3\npackages:\n',
          '{"@context":"spdx.org/rdf/3","@graph":',
        ),
        fc.string(),
        (a, b) => onlyInputErrors(a + b),
      ),
      { numRuns: 300 },
    );
  });

  it('throws nothing but InputError on corpus files with flipped bytes or cut short', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...files),
        fc.array(fc.record({ at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }), { maxLength: 8 }),
        fc.option(fc.nat()),
        (file, flips, cut) => {
          const b = Buffer.from(file);
          for (const f of flips) b[f.at % b.length] = f.byte;
          onlyInputErrors(b.subarray(0, cut === null ? b.length : cut % b.length).toString('utf8'));
        },
      ),
      { numRuns: 300 },
    );
  });
});
