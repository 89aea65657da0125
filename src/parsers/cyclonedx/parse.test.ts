import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CORPUS as CORPUS_DIR, corpusRows } from '../../../test/support/corpus.js';
import { stringContaining } from '../../../test/support/matchers.js';
import { InputError, TooComplexError, type ParseResult } from '../reference.js';
import { looksCycloneDx } from './detect.js';
import { MAX_COMPONENT_DEPTH, MAX_XML_NAMES, parseCycloneDx } from './parse.js';
import { NO_PURL_REASON } from '../purl-entry.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function corpus(): { file: string; expected: number; note: string }[] {
  return corpusRows('cyclonedx');
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
    parseCycloneDx(text);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
  }
}

function nestedJson(depth: number): string {
  // Built as text: JSON.stringify itself recurses and would overflow on the deepest case.
  const open = '{"name":"n","components":['.repeat(depth - 1);
  const close = ']}'.repeat(depth - 1);
  return `{"bomFormat":"CycloneDX","specVersion":"1.6","components":[${open}{"name":"leaf","purl":"pkg:npm/leaf@1"}${close}]}`;
}

describe('parseCycloneDx on the corpus', () => {
  const rows = corpus();

  it('covers every CycloneDX file in the corpus', () => {
    expect(rows.map((r) => r.file).sort()).toEqual(
      readdirSync(`${CORPUS_DIR}cyclonedx`)
        .map((f) => `cyclonedx/${f}`)
        .sort(),
    );
  });

  it.each(rows)('$file: every entry accounted for, purl figures match', ({ file, expected, note }) => {
    const text = readFileSync(`${CORPUS_DIR}${file}`, 'utf8');
    expect(looksCycloneDx(text)).toBe(true);
    const r = parseCycloneDx(text);
    expect(r.format).toBe('cyclonedx');
    expect(r.variant).toMatch(/^CycloneDX 1\.\d (JSON|XML)$/);
    expect(r.references.length + r.unresolved.length).toBe(expected);
    expect(purlInputs(r).length).toBe(figure(note, 'with_purl'));
    expect(new Set(purlInputs(r)).size).toBe(figure(note, 'distinct_purls'));
    for (const u of r.unresolved) expect(u.reason.length).toBeGreaterThan(10);
  });

  it('reads the XML twin of juice-shop exactly like the JSON', () => {
    const json = parseCycloneDx(readFileSync(`${CORPUS_DIR}cyclonedx/juice-shop-bare.1.4.json`, 'utf8'));
    const xml = parseCycloneDx(readFileSync(`${CORPUS_DIR}cyclonedx/juice-shop-bare.1.4.xml`, 'utf8'));
    expect(xml.variant).toBe('CycloneDX 1.4 XML');
    expect(xml.references).toEqual(json.references);
  });

  it('names the subject (metadata.component) of juice-shop, in JSON and XML alike, and keeps it out of the results', () => {
    const json = parseCycloneDx(readFileSync(`${CORPUS_DIR}cyclonedx/juice-shop-bare.1.4.json`, 'utf8'));
    const xml = parseCycloneDx(readFileSync(`${CORPUS_DIR}cyclonedx/juice-shop-bare.1.4.xml`, 'utf8'));
    const subject = {
      name: 'juice-shop',
      version: '14.1.1',
      purl: 'pkg:npm/juice-shop@14.1.1?vcs_url=git%2Bhttps%3A//github.com/juice-shop/juice-shop.git',
      bom_ref: 'juice-shop@14.1.1',
    };
    expect(json.subject).toEqual(subject);
    expect(xml.subject).toEqual(subject);
    expect(json.references.map((x) => x.location)).not.toContain('bom-ref juice-shop@14.1.1');
  });

  it('reads a PHP project (laravel): every entry a composer package', () => {
    const r = parseCycloneDx(readFileSync(`${CORPUS_DIR}cyclonedx/laravel-7.12.0.1.1.xml`, 'utf8'));
    expect(r.variant).toBe('CycloneDX 1.1 XML');
    expect(r.unresolved).toEqual([]);
    expect(new Set(r.references.map((x) => x.ref.kind))).toEqual(new Set(['composer']));
  });

  it('names the purl type it does not observe, and the types it does', () => {
    const r = parseCycloneDx(
      JSON.stringify({
        bomFormat: 'CycloneDX',
        specVersion: '1.6',
        components: [{ name: 'openssl', purl: 'pkg:conan/openssl@3.0.0' }],
      }),
    );
    expect(r.unresolved[0]?.reason).toMatch(
      /type "conan".*npm, pypi, docker, oci, maven, golang, cargo, nuget, gem, composer, deb, apk and rpm/,
    );
  });
});

describe('parseCycloneDx on npm sbom output for this repository', () => {
  it('gives one reference per component with a purl and leaves nothing unaccounted', () => {
    const text = execFileSync('npm', ['sbom', '--sbom-format', 'cyclonedx'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const bom = JSON.parse(text) as { components: { purl?: string }[] };
    const withPurl = bom.components.filter((c) => typeof c.purl === 'string');
    expect(withPurl.length).toBeGreaterThan(10);
    const r = parseCycloneDx(text);
    expect(r.variant).toMatch(/^CycloneDX 1\.\d JSON$/);
    expect(r.references.map((x) => x.input)).toEqual(withPurl.map((c) => c.purl));
    expect(r.unresolved).toEqual([]);
    expect(r.references.map((x) => x.ref)).toContainEqual({ kind: 'npm', id: 'fast-xml-parser' });
  });
});

describe('parseCycloneDx rules', () => {
  it('leaves out metadata.component, counts its children, and locates entries without bom-ref by path', () => {
    const r = parseCycloneDx(
      JSON.stringify({
        bomFormat: 'CycloneDX',
        specVersion: '1.7',
        metadata: {
          component: {
            name: 'me',
            purl: 'pkg:npm/me@1',
            components: [{ name: 'part', purl: 'pkg:pypi/Flask_Login@1' }],
          },
        },
        components: [
          {
            name: 'a',
            'bom-ref': 'a-ref',
            purl: 'pkg:npm/a@1',
            components: [{ name: 'b' }, { name: 'c', purl: 'pkg:conan/c@1' }],
          },
        ],
      }),
    );
    expect(r.variant).toBe('CycloneDX 1.7 JSON');
    expect(r.references).toEqual([
      {
        ref: { kind: 'pypi', id: 'flask-login' },
        input: 'pkg:pypi/Flask_Login@1',
        location: 'metadata.component.components[0]',
        tree: { resolvedVersion: '1' },
      },
      {
        ref: { kind: 'npm', id: 'a' },
        input: 'pkg:npm/a@1',
        location: 'bom-ref a-ref',
        tree: { resolvedVersion: '1' },
      },
    ]);
    expect(r.unresolved).toEqual([
      { input: 'b', location: 'components[0].components[0]', reason: NO_PURL_REASON },
      { input: 'pkg:conan/c@1', location: 'components[0].components[1]', reason: stringContaining('"conan"') },
    ]);
  });

  it('names the subject with only the fields it gives, and null when there is no metadata.component', () => {
    const bom = (metadata: unknown): string =>
      JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.6', metadata, components: [] });
    expect(
      parseCycloneDx(bom({ component: { group: 'org.acme', name: 'app', version: '2.0', 'bom-ref': 'app' } })).subject,
    ).toEqual({ name: 'org.acme/app', version: '2.0', bom_ref: 'app' });
    expect(parseCycloneDx(bom({ component: { purl: 'pkg:npm/x@1', name: 7 } })).subject).toEqual({
      name: '(unnamed)',
      purl: 'pkg:npm/x@1',
    });
    expect(parseCycloneDx(bom({ component: { name: ['not', 'a', 'string'] } })).subject).toBeNull();
    expect(parseCycloneDx(bom({ tools: [] })).subject).toBeNull();
    expect(parseCycloneDx(JSON.stringify({ bomFormat: 'CycloneDX', components: [] })).subject).toBeNull();
    expect(parseCycloneDx('<bom xmlns="http://cyclonedx.org/schema/bom/1.4"><components/></bom>').subject).toBeNull();
  });

  it('reads nested XML components and a lone <component>', () => {
    const r = parseCycloneDx(
      `<?xml version="1.0"?><bom xmlns="http://cyclonedx.org/schema/bom/1.5"><metadata><component type="application"><name>me</name><purl>pkg:npm/me@1</purl></component></metadata>
      <components><component type="library" bom-ref="x"><name>x</name><purl>pkg:npm/x@1</purl><components><component><name>y</name></component></components></component></components></bom>`,
    );
    expect(r.variant).toBe('CycloneDX 1.5 XML');
    expect(r.references).toEqual([
      { ref: { kind: 'npm', id: 'x' }, input: 'pkg:npm/x@1', location: 'bom-ref x', tree: { resolvedVersion: '1' } },
    ]);
    expect(r.unresolved).toEqual([{ input: 'y', location: 'components[0].components[0]', reason: NO_PURL_REASON }]);
    expect(r.subject).toEqual({ name: 'me', purl: 'pkg:npm/me@1' });
  });

  it('reads &amp; and the other predefined references in XML values as the characters they stand for', () => {
    // Syft's form: the qualifiers of an OS package purl joined by an escaped `&`.
    const r = parseCycloneDx(
      `<bom xmlns="http://cyclonedx.org/schema/bom/1.4"><components>
      <component type="library" bom-ref="pkg:apk/alpine/musl@1.2.3-r4?arch=x86_64&amp;distro=alpine-3.17.2&amp;package-id=1"><name>musl</name>
        <purl>pkg:apk/alpine/musl@1.2.3-r4?arch=x86_64&amp;upstream=musl&amp;distro=alpine-3.17.2</purl></component>
      <component type="library"><name>adduser</name><purl>pkg:deb/debian/adduser@3.115?arch=all&#38;distro=debian-9</purl></component>
      <component type="library"><name>a &lt;b&gt; &amp; c</name></component></components></bom>`,
    );
    expect(r.references).toEqual([
      {
        ref: { kind: 'distro', id: 'alpine-linux/3.17' },
        input: 'pkg:apk/alpine/musl@1.2.3-r4?arch=x86_64&upstream=musl&distro=alpine-3.17.2',
        location: 'bom-ref pkg:apk/alpine/musl@1.2.3-r4?arch=x86_64&distro=alpine-3.17.2&package-id=1',
        tree: { resolvedVersion: '1.2.3-r4' },
      },
      {
        ref: { kind: 'distro', id: 'debian/9' },
        input: 'pkg:deb/debian/adduser@3.115?arch=all&distro=debian-9',
        location: 'components[1]',
        tree: { resolvedVersion: '3.115' },
      },
    ]);
    expect(r.unresolved).toEqual([{ input: 'a <b> & c', location: 'components[2]', reason: NO_PURL_REASON }]);
  });

  it.each([
    ['malformed JSON', '{"bomFormat": "CycloneDX", ', /JSON is malformed/],
    ['JSON that is not CycloneDX', '{"spdxVersion": "SPDX-2.3"}', /bomFormat/],
    ['components not a list', '{"bomFormat": "CycloneDX", "components": {}}', /list of components/],
    ['malformed XML', '<bom xmlns="http://cyclonedx.org/schema/bom/1.4"><components></bom>', /malformed on line 1/],
    ['XML in another namespace', '<bom xmlns="http://example.com/bom"></bom>', /namespace/],
    ['plain text', 'hello', /starts with "hello"/],
  ])('refuses %s with an InputError', (_name, text, message) => {
    expect(() => parseCycloneDx(text)).toThrow(InputError);
    expect(() => parseCycloneDx(text)).toThrow(message);
  });

  it('refuses a billion-laughs file quickly, without expanding anything', () => {
    const lol = `<?xml version="1.0"?><!DOCTYPE bom [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`).join('')}]><bom xmlns="http://cyclonedx.org/schema/bom/1.4"><components><component><name>&lol9;</name></component></components></bom>`;
    const start = performance.now();
    expect(() => parseCycloneDx(lol)).toThrow(/DTDs and entities are not accepted/);
    expect(performance.now() - start).toBeLessThan(200);
  });

  it('leaves undeclared entity references as text', () => {
    const r = parseCycloneDx(
      '<bom xmlns="http://cyclonedx.org/schema/bom/1.4"><components><component><name>&lol9;</name></component></components></bom>',
    );
    expect(r.unresolved).toHaveLength(1);
  });

  it(`accepts ${MAX_COMPONENT_DEPTH} levels of nesting and refuses more`, () => {
    expect(parseCycloneDx(nestedJson(MAX_COMPONENT_DEPTH)).unresolved).toHaveLength(MAX_COMPONENT_DEPTH - 1);
    expect(() => parseCycloneDx(nestedJson(MAX_COMPONENT_DEPTH + 1))).toThrow(/nested more than 64 levels/);
    // Refused before JSON.parse builds them: too deep as JSON.
    expect(() => parseCycloneDx(nestedJson(100_000))).toThrow(TooComplexError);
    expect(() =>
      parseCycloneDx(`{"bomFormat":"CycloneDX","components":[{"properties":${'['.repeat(300)}${']'.repeat(300)}}]}`),
    ).toThrow(/more than 256 levels deep/);
    // A deep non-component entry must be described, not serialised.
    const deepEntry = parseCycloneDx(`{"bomFormat":"CycloneDX","components":[${'['.repeat(250)}${']'.repeat(250)}]}`);
    expect(deepEntry.unresolved).toEqual([
      { input: '(a list)', location: 'components[0]', reason: stringContaining('not a component') },
    ]);
    const deepXml = `<bom xmlns="http://cyclonedx.org/schema/bom/1.4">${'<components><component>'.repeat(100_000)}${'</component></components>'.repeat(100_000)}</bom>`;
    expect(() => parseCycloneDx(deepXml)).toThrow(/nested more than/);
  });
});

describe('parseCycloneDx XML bounds', () => {
  const BOM = '<bom xmlns="http://cyclonedx.org/schema/bom/1.5">';

  it(`reads XML components nested ${MAX_COMPONENT_DEPTH} deep, each level two elements`, () => {
    const open = '<components><component><name>x</name>'.repeat(MAX_COMPONENT_DEPTH);
    const r = parseCycloneDx(`${BOM}${open}${'</component></components>'.repeat(MAX_COMPONENT_DEPTH)}</bom>`);
    expect(r.unresolved).toHaveLength(MAX_COMPONENT_DEPTH);
  });

  it('refuses XML past its bounds with a TooComplexError that says which', () => {
    const names = Array.from({ length: 60 }, (_, i) => `n${i}`.padEnd(3_000, 'x'));
    const red = `${BOM}${names.map((n) => `<${n}>`).join('')}${'<x/>'.repeat(40_000)}${names
      .reverse()
      .map((n) => `</${n}>`)
      .join('')}</bom>`;
    const start = performance.now();
    expect(() => parseCycloneDx(red)).toThrow(TooComplexError);
    expect(() => parseCycloneDx(red)).toThrow(/an element name of 3,000 characters on line 1/);
    expect(performance.now() - start).toBeLessThan(500);
    expect(() => parseCycloneDx(`${BOM}<components>${'<component/>'.repeat(150_000)}</components></bom>`)).toThrow(
      /more than 150,000 nodes/,
    );
    const many = Array.from({ length: MAX_XML_NAMES }, (_, i) => `<e${i}/>`).join('');
    expect(() => parseCycloneDx(`${BOM}${many}</bom>`)).toThrow(/more than 500 different element and attribute names/);
    expect(() =>
      parseCycloneDx(`${BOM}${many.slice(0, many.indexOf(`<e${MAX_XML_NAMES - 2}/>`))}</bom>`),
    ).not.toThrow();
  });
});

describe('parseCycloneDx properties', () => {
  const small = [
    'cern-lhc-vdm-editor.bom.json',
    'laravel-7.12.0.1.1.xml',
    'cbom-algorithm.bom.json',
    'trivy-nested-packages-bom.json',
  ].map((f) => readFileSync(`${CORPUS_DIR}cyclonedx/${f}`));

  it('throws nothing but InputError on arbitrary strings', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), onlyInputErrors), { numRuns: 500 });
    fc.assert(
      fc.property(
        fc.constantFrom('{"bomFormat":"CycloneDX","components":', '<bom xmlns="http://cyclonedx.org/schema/bom/1.6">'),
        fc.string(),
        (a, b) => onlyInputErrors(a + b),
      ),
      { numRuns: 300 },
    );
  });

  it('throws nothing but InputError on corpus files with flipped bytes or cut short', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...small),
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
