import { describe, expect, it } from 'vitest';
import { namedInText, successorOf } from './successor.js';

/**
 * Real npm deprecation messages, word for word: each is the `deprecated` field of the version
 * named, as https://registry.npmjs.org/<name> serves it and as `npm install` prints it ("npm warn
 * deprecated <name>@<version>: <message>"); collected from public install logs quoted in public
 * repositories (found through the code index, 2026-11-29). The expected successor is what the rule
 * of `namedInText` reads: null where the message names no package, or more than one.
 */
const NPM_MESSAGES: [string, string, string | null][] = [
  ['@humanwhocodes/config-array@0.13.0', 'Use @eslint/config-array instead', '@eslint/config-array'],
  ['@humanwhocodes/object-schema@2.0.3', 'Use @eslint/object-schema instead', '@eslint/object-schema'],
  ['sourcemap-codec@1.4.8', 'Please use @jridgewell/sourcemap-codec instead', '@jridgewell/sourcemap-codec'],
  ['@npmcli/move-file@2.0.1', 'This functionality has been moved to @npmcli/fs', '@npmcli/fs'],
  [
    'babel-eslint@10.1.0',
    'babel-eslint is now @babel/eslint-parser. This package will no longer receive updates.',
    '@babel/eslint-parser',
  ],
  ['@hapi/address@2.1.4', "Moved to 'npm install @sideway/address'", '@sideway/address'],
  ['eslint-loader@2.2.1', 'This loader has been deprecated. Please use eslint-webpack-plugin', 'eslint-webpack-plugin'],
  ['jade@1.11.0', 'Jade has been renamed to pug, please install the latest version of pug instead of jade', 'pug'],
  [
    'to-iso-string@0.0.2',
    'to-iso-string has been deprecated, use @segment/to-iso-string instead.',
    '@segment/to-iso-string',
  ],
  [
    '@babel/plugin-proposal-class-properties@7.18.6',
    'This proposal has been merged to the ECMAScript standard and thus this plugin is no longer maintained. Please use @babel/plugin-transform-class-properties instead.',
    '@babel/plugin-transform-class-properties',
  ],
  // Two packages named: which one is the person's to choose, never ours.
  ['node-sass@4.14.1', 'Node Sass is no longer supported. Please use `sass` or `sass-embedded` instead.', null],
  // A product, not a package name (npm names are lower-case).
  [
    'tslint@5.20.1',
    'TSLint has been deprecated in favor of ESLint. Please see https://github.com/palantir/tslint/issues/4534 for more information.',
    null,
  ],
  ['request@2.88.2', 'request has been deprecated, see https://github.com/request/request/issues/3142', null],
  ['phantomjs-prebuilt@2.1.16', 'this package is now deprecated', null],
  ['domexception@2.0.1', "Use your platform's native DOMException instead", null],
  ['w3c-hr-time@1.0.2', "Use your platform's native performance.now() and performance.timeOrigin.", null],
  [
    'inflight@1.0.6',
    'This module is not supported, and leaks memory. Do not use it. Check out lru-cache if you want a good and tested way to coalesce async requests by a key value, which is much more comprehensive and powerful.',
    null,
  ],
  ['glob@7.2.3', 'Glob versions prior to v9 are no longer supported', null],
  ['rimraf@3.0.2', 'Rimraf versions prior to v4 are no longer supported', null],
  [
    'uuid@3.4.0',
    'Please upgrade  to version 7 or higher.  Older versions may use Math.random() in certain circumstances, which is known to be problematic.  See https://v8.dev/blog/math-random for details.',
    null,
  ],
  ['@esbuild-kit/esm-loader@2.6.5', 'Merged into tsx: https://tsx.hirok.io', null],
  ['source-map-url@0.4.1', 'See https://github.com/lydell/source-map-url#deprecated', null],
  ['workbox-cacheable-response@6.6.0', 'workbox-background-sync@6.6.0', null],
];

describe('a successor read out of a free-text npm deprecation message', () => {
  it.each(NPM_MESSAGES)('%s: %s → %s', (nameAt, message, expected) => {
    const name = nameAt.slice(0, nameAt.lastIndexOf('@'));
    expect(namedInText(message, 'npm')).toBe(expected);
    const answer = successorOf({ kind: 'npm', id: name }, { deprecated: message });
    expect(answer).toEqual(expected === null ? null : { kind: 'npm', name: expected });
  });

  it('never names the package itself, and reads a long message in linear time', () => {
    expect(successorOf({ kind: 'npm', id: 'pug' }, { deprecated: 'renamed to pug' })).toBeNull();
    const long = `${'use x '.repeat(50_000)}instead`;
    const started = performance.now();
    namedInText(long, 'npm');
    expect(performance.now() - started).toBeLessThan(200);
  });
});

describe('the other registries: structured fields as the readers store them', () => {
  it.each<[string, Parameters<typeof successorOf>[0], Record<string, unknown>, unknown]>([
    [
      'NuGet alternatePackage',
      { kind: 'nuget', id: 'microsoft.azure.storage.blob' },
      { alternate_package: 'Azure.Storage.Blobs' },
      { kind: 'nuget', name: 'azure.storage.blobs' },
    ],
    ['NuGet, no alternate', { kind: 'nuget', id: 'x' }, { deprecation: ['Legacy'] }, null],
    [
      'Packagist abandoned with a replacement',
      { kind: 'composer', id: 'swiftmailer/swiftmailer' },
      { abandoned: 'symfony/mailer' },
      { kind: 'composer', name: 'symfony/mailer' },
    ],
    ['Packagist abandoned: true', { kind: 'composer', id: 'a/b' }, { abandoned: true }, null],
    ['Packagist abandoned naming no package', { kind: 'composer', id: 'a/b' }, { abandoned: 'see the README' }, null],
    [
      'Maven relocation (groupId and artifactId)',
      { kind: 'maven', id: 'mysql:mysql-connector-java' },
      { relocated: { group_id: 'com.mysql', artifact_id: 'mysql-connector-j', version: '8.0.33', message: null } },
      { kind: 'maven', name: 'com.mysql:mysql-connector-j' },
    ],
    [
      'Maven relocation of the groupId only',
      { kind: 'maven', id: 'commons-lang:commons-lang' },
      { relocated: { group_id: 'org.apache.commons', artifact_id: null, version: null, message: null } },
      { kind: 'maven', name: 'org.apache.commons:commons-lang' },
    ],
    [
      'Maven relocation to a version only',
      { kind: 'maven', id: 'g:a' },
      { relocated: { group_id: null, artifact_id: null, version: '2', message: null } },
      null,
    ],
    [
      'PEP 792 reason naming a project',
      { kind: 'pypi', id: 'old' },
      { project_status: 'deprecated', project_status_reason: 'Use new-thing instead.' },
      { kind: 'pypi', name: 'new-thing' },
    ],
    [
      'PEP 792 reason naming none',
      { kind: 'pypi', id: 'old' },
      { project_status: 'archived', project_status_reason: 'No longer maintained.' },
      null,
    ],
    [
      'PEP 792 status active',
      { kind: 'pypi', id: 'old' },
      { project_status: 'active', project_status_reason: 'Use new-thing instead.' },
      null,
    ],
    [
      'a crate with a RustSec advisory: OSV names no alternative',
      { kind: 'cargo', id: 'failure' },
      { declaration: { advisory: 'RUSTSEC-2020-0036' } },
      null,
    ],
  ])('%s', (_, ref, evidence, expected) => {
    expect(successorOf(ref, evidence as never)).toEqual(expected);
  });
});
