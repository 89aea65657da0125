import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CORPUS } from '../../../test/support/corpus.js';
import type { ComponentReference, ParseResult } from '../reference.js';
import { parseSpdx } from './parse.js';

function read(file: string): ParseResult {
  return parseSpdx(readFileSync(`${CORPUS}${file}`, 'utf8'));
}

function byInput(r: ParseResult, start: string): ComponentReference {
  const found = r.references.find((x) => x.input.startsWith(start));
  if (!found) throw new Error(`no reference starting ${start}`);
  return found;
}

describe('SPDX: scope and paths from dependency relationships', () => {
  it('App-BOM-ination 2.2 and 3.0: the described package’s dependencies are direct, a test one dev', () => {
    // 2.2: `commons-lang3 DEPENDENCY_OF App-BOM-ination`, `junit TEST_DEPENDENCY_OF App-BOM-ination`,
    // `hamcrest-core DEPENDENCY_OF junit`. 3.0: the same as dependsOn, junit's in a test-scoped relationship.
    for (const file of ['spdx/appbomination-2.2.spdx.json', 'spdx/appbomination-3.0.spdx3.json']) {
      const r = read(file);
      expect(byInput(r, 'pkg:maven/org.apache.commons/commons-lang3@').tree).toEqual({
        resolvedVersion: '3.4',
        scope: 'direct',
        via: [],
      });
      expect(byInput(r, 'pkg:maven/junit/junit@').tree).toEqual({
        resolvedVersion: '4.12',
        scope: 'direct',
        via: [],
        dev: true,
      });
      expect(byInput(r, 'pkg:maven/org.hamcrest/hamcrest-core@').tree).toEqual({
        resolvedVersion: '1.3',
        scope: 'transitive',
        via: ['junit'],
        dev: true,
      });
    }
  });

  it('gives versions but no scope where no dependency relationship starts from a described package', () => {
    // trivy: only CONTAINS; cargo-sbom: DEPENDS_ON between crates but nothing DESCRIBED (its
    // versions are its purls').
    for (const file of ['spdx/trivy-elasticsearch.spdx.json', 'spdx/cargo-sbom-cargo-binary.spdx.json']) {
      const r = read(file);
      for (const x of r.references) {
        expect(x.tree?.scope).toBeUndefined();
        expect(x.tree?.resolvedVersion).toBeTruthy();
      }
    }
    expect(byInput(read('spdx/cargo-sbom-cargo-binary.spdx.json'), 'pkg:cargo/anstream@').tree).toEqual({
      resolvedVersion: '0.3.2',
    });
  });

  it('reads tag-value relationships: DEPENDS_ON, DEPENDENCY_OF reversed, optional, and not CONTAINS', () => {
    const pkg = (name: string, version: string) => [
      `PackageName: ${name}`,
      `SPDXID: SPDXRef-${name}`,
      `PackageVersion: ${version}`,
      `ExternalRef: PACKAGE-MANAGER purl pkg:npm/${name}@${version}`,
    ];
    const r = parseSpdx(
      [
        'SPDXVersion: SPDX-2.3',
        'SPDXID: SPDXRef-DOCUMENT',
        'Relationship: SPDXRef-DOCUMENT DESCRIBES SPDXRef-app',
        'Relationship: SPDXRef-app DEPENDS_ON SPDXRef-a',
        'Relationship: SPDXRef-opt OPTIONAL_DEPENDENCY_OF SPDXRef-app',
        'Relationship: SPDXRef-b DEPENDENCY_OF SPDXRef-a',
        'Relationship: SPDXRef-app CONTAINS SPDXRef-c',
        ...pkg('app', '9'),
        ...pkg('a', '1'),
        ...pkg('b', '2'),
        ...pkg('c', '3'),
        ...pkg('opt', '4'),
      ].join('\n'),
    );
    expect(r.references.map((x) => [x.input, x.tree])).toEqual([
      // The described package is the project: a version, no scope.
      ['pkg:npm/app@9', { resolvedVersion: '9' }],
      ['pkg:npm/a@1', { resolvedVersion: '1', scope: 'direct', via: [] }],
      ['pkg:npm/b@2', { resolvedVersion: '2', scope: 'transitive', via: ['a'] }],
      ['pkg:npm/c@3', { resolvedVersion: '3', scope: 'transitive' }],
      ['pkg:npm/opt@4', { resolvedVersion: '4', scope: 'direct', via: [], optional: true }],
    ]);
  });

  it('SPDX 3: a path through a package without a purl says so', () => {
    const el = (id: string, purl?: string) => ({
      type: 'software_Package',
      spdxId: id,
      name: id,
      software_packageVersion: '1',
      ...(purl ? { software_packageUrl: purl } : {}),
    });
    const r = parseSpdx(
      JSON.stringify({
        '@context': 'https://spdx.org/rdf/3.0.1/spdx-context.jsonld',
        '@graph': [
          { type: 'Relationship', from: 'root', relationshipType: 'dependsOn', to: ['vendored'] },
          { type: 'Relationship', from: 'vendored', relationshipType: 'hasOptionalDependency', to: ['x'] },
          { type: 'SpdxDocument', rootElement: ['root'] },
          el('root'),
          el('vendored'),
          el('x', 'pkg:npm/x@1'),
        ],
      }),
    );
    expect(r.references[0]?.tree).toEqual({
      resolvedVersion: '1',
      scope: 'transitive',
      via: ['vendored'],
      viaUnresolved: 'vendored',
    });
  });
});
