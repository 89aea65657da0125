import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CORPUS, corpusFiles } from '../../../test/support/corpus.js';
import type { ComponentReference, ParseResult } from '../reference.js';
import { parseCycloneDx } from './parse.js';

function read(file: string): ParseResult {
  return parseCycloneDx(readFileSync(`${CORPUS}${file}`, 'utf8'));
}

function byInput(r: ParseResult, start: string): ComponentReference {
  const found = r.references.find((x) => x.input.startsWith(start));
  if (!found) throw new Error(`no reference starting ${start}`);
  return found;
}

function bom(fields: Record<string, unknown>): string {
  return JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.5', ...fields });
}

const npm = (name: string, version = '1.0.0') => ({
  'bom-ref': `${name}@${version}`,
  name,
  version,
  purl: `pkg:npm/${name}@${version}`,
});

describe('CycloneDX: scope and paths from the dependencies graph', () => {
  it('juice-shop: what metadata.component depends on is direct, the rest transitive with a path from it', () => {
    for (const file of ['cyclonedx/juice-shop-bare.1.4.json', 'cyclonedx/juice-shop-bare.1.4.xml']) {
      const r = read(file);
      // 71 bom-refs in juice-shop@14.1.1's dependsOn, each a component with a purl.
      expect(r.references.filter((x) => x.tree?.scope === 'direct')).toHaveLength(71);
      for (const x of r.references) {
        expect(x.tree?.resolvedVersion).toBeTruthy();
        expect(x.tree?.scope).toBeDefined();
        if (x.tree?.scope === 'direct') expect(x.tree.via).toEqual([]);
      }
      // Read by hand: juice-shop → glob@7.2.3 → inflight@1.0.6.
      expect(byInput(r, 'pkg:npm/glob@7.2.3').tree).toEqual({ resolvedVersion: '7.2.3', scope: 'direct', via: [] });
      expect(byInput(r, 'pkg:npm/inflight@').tree).toEqual({
        resolvedVersion: '1.0.6',
        scope: 'transitive',
        via: ['glob'],
      });
      // juice-shop → pug → pug-code-gen → constantinople → @babel/types → @babel/helper-string-parser;
      // the path names a scoped component as the SBOM does, group/name.
      expect(byInput(r, 'pkg:npm/%40babel/helper-string-parser@').tree).toEqual({
        resolvedVersion: '7.19.4',
        scope: 'transitive',
        via: ['pug', 'pug-code-gen', 'constantinople', '@babel/types'],
      });
    }
  });

  it('trivy: a path through a component without a purl (the OS) says so', () => {
    const r = read('cyclonedx/trivy-alpine-3.13.1.cdx.json');
    expect(byInput(r, 'pkg:apk/alpine/musl@').tree).toEqual({
      resolvedVersion: '1.2.2-r0',
      scope: 'transitive',
      via: ['alpine'],
      viaUnresolved: 'alpine',
    });
    const fluentd = read('cyclonedx/trivy-fluentd-multiple-lockfiles.cdx.json');
    expect(byInput(fluentd, 'pkg:gem/fluentd@').tree).toMatchObject({ scope: 'direct', via: [] });
    expect(byInput(fluentd, 'pkg:deb/debian/adduser@').tree).toMatchObject({ via: ['debian', 'apt'] });
  });

  it('dropwizard: a subject the graph never mentions has the graph roots as its direct dependencies', () => {
    const r = read('cyclonedx/dropwizard-1.3.15.bom.xml');
    expect(r.subject?.bom_ref).toBe('pkg:maven/io.dropwizard/dropwizard-parent@1.3.15');
    expect(r.references.filter((x) => x.tree?.scope === 'direct')).toHaveLength(29);
    expect(byInput(r, 'pkg:maven/junit/junit@').tree).toEqual({ resolvedVersion: '4.12', scope: 'direct', via: [] });
    // org.jdbi/jdbi3-guava is a root and lists guava.
    expect(byInput(r, 'pkg:maven/com.google.guava/guava@').tree).toEqual({
      resolvedVersion: '24.1.1-jre',
      scope: 'transitive',
      via: ['org.jdbi/jdbi3-guava'],
    });
  });

  it('gives versions but no scope when the graph has no entry for the subject, or there is no graph', () => {
    // cargo-sbom: the subject has no bom-ref and the project is a component of the graph.
    // cern-lhc-vdm-editor: no dependencies array at all.
    for (const file of ['cyclonedx/cargo-sbom-cargo-binary.cdx.json', 'cyclonedx/cern-lhc-vdm-editor.bom.json']) {
      const r = read(file);
      expect(r.references.length).toBeGreaterThan(30);
      for (const x of r.references) expect(Object.keys(x.tree ?? {})).toEqual(['resolvedVersion']);
    }
  });

  it('every corpus SBOM with a direct set gives every reference a scope', () => {
    for (const file of corpusFiles('cyclonedx')) {
      const r = read(file);
      if (!r.references.some((x) => x.tree?.scope === 'direct')) continue;
      for (const x of r.references) {
        expect(x.tree?.scope, `${file} ${x.input}`).toBeDefined();
        if (x.tree?.scope === 'transitive' && x.tree.via) expect(x.tree.via.length).toBeGreaterThan(0);
      }
    }
  });

  it('a component the graph lists nowhere, or without a bom-ref, is transitive with no path', () => {
    const r = parseCycloneDx(
      bom({
        metadata: { component: { 'bom-ref': 'app', name: 'app' } },
        components: [npm('a'), npm('b'), npm('lone'), { name: 'noref', version: '2', purl: 'pkg:npm/noref@2' }],
        dependencies: [
          { ref: 'app', dependsOn: ['a@1.0.0'] },
          { ref: 'a@1.0.0', dependsOn: ['b@1.0.0', 'app', 'missing'] },
          // A cycle back to a: b stays at its shortest path.
          { ref: 'b@1.0.0', dependsOn: ['a@1.0.0', 7] },
        ],
      }),
    );
    expect(r.references.map((x) => [x.input, x.tree])).toEqual([
      ['pkg:npm/a@1.0.0', { resolvedVersion: '1.0.0', scope: 'direct', via: [] }],
      ['pkg:npm/b@1.0.0', { resolvedVersion: '1.0.0', scope: 'transitive', via: ['a'] }],
      ['pkg:npm/lone@1.0.0', { resolvedVersion: '1.0.0', scope: 'transitive' }],
      ['pkg:npm/noref@2', { resolvedVersion: '2', scope: 'transitive' }],
    ]);
  });

  it('reads the XML graph, nested <dependency> elements and a lone one alike', () => {
    const r = parseCycloneDx(
      `<bom xmlns="http://cyclonedx.org/schema/bom/1.4"><metadata><component bom-ref="app"><name>app</name></component></metadata>
      <components>
        <component bom-ref="a"><group>org.x</group><name>a</name><version>1</version><purl>pkg:maven/org.x/a@1</purl></component>
        <component bom-ref="b"><name>b</name><version>2</version><purl>pkg:maven/org.x/b@2</purl></component>
        <component bom-ref="c"><name>c</name><version>3</version><purl>pkg:maven/org.x/c@3</purl></component>
      </components>
      <dependencies><dependency ref="app"><dependency ref="a"><dependency ref="b"/></dependency></dependency>
        <dependency ref="b"><dependency ref="c"/></dependency></dependencies></bom>`,
    );
    expect(r.references.map((x) => x.tree)).toEqual([
      { resolvedVersion: '1', scope: 'direct', via: [] },
      { resolvedVersion: '2', scope: 'transitive', via: ['org.x/a'] },
      { resolvedVersion: '3', scope: 'transitive', via: ['org.x/a', 'b'] },
    ]);
  });
});
