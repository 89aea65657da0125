import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatOfFilename, parseManifest } from '../../operations/parse-submission.js';
import { CORPUS, corpusRows } from '../../../test/support/corpus.js';
import { looksGradleLockfile } from './detect.js';
import { isTestConfiguration, parseGradleLockfile } from './parse.js';

const LOCK = `# This is a Gradle generated file for dependency locking.
# Manual edits can break the build and are not advised.
# This file is expected to be part of source control.
com.google.guava:guava:33.0.0-jre=compileClasspath,runtimeClasspath,testCompileClasspath
org.junit.jupiter:junit-jupiter-api:5.10.1=testCompileClasspath,testRuntimeClasspath
org.mockito:mockito-core:5.8.0=integrationTestRuntimeClasspath,testRuntimeClasspath
org.mockito:mockito-core:5.7.0=runtimeClasspath
com.github.spotbugs:spotbugs:4.8.2=spotbugs
not-coordinates=compileClasspath
empty=annotationProcessor,testAnnotationProcessor
`;

describe('gradle.lockfile', () => {
  it('names each locked package with its version, dev when every configuration it is in is a test one', () => {
    const r = parseGradleLockfile(LOCK);
    expect(r.format).toBe('gradle-lockfile');
    expect(r.references.map((x) => [x.ref.id, x.tree?.resolvedVersion, x.tree?.dev ?? false, x.line])).toEqual([
      ['com.google.guava:guava', '33.0.0-jre', false, 4],
      ['org.junit.jupiter:junit-jupiter-api', '5.10.1', true, 5],
      // Also on runtimeClasspath (at another version): not dev.
      ['org.mockito:mockito-core', '5.8.0', false, 6],
      ['org.mockito:mockito-core', '5.7.0', false, 7],
      ['com.github.spotbugs:spotbugs', '4.8.2', false, 8],
    ]);
    expect(r.references.every((x) => x.tree?.scope === undefined)).toBe(true);
    expect(r.unresolved.map((u) => [u.input, u.location])).toEqual([['not-coordinates=compileClasspath', 'line 9']]);
  });

  it('reads the older per-configuration files, whose lines name no configuration (so no dev)', () => {
    const r = parseGradleLockfile('# This is a Gradle generated file for dependency locking.\njunit:junit:4.12\n');
    expect(r.references.map((x) => [x.ref.id, x.tree])).toEqual([['junit:junit', { resolvedVersion: '4.12' }]]);
  });

  it('calls test configurations by their names', () => {
    for (const c of [
      'testCompileClasspath',
      'testFixturesRuntimeClasspath',
      'integrationTestRuntimeClasspath',
      'debugAndroidTestCompileClasspath',
      'debugUnitTestRuntimeClasspath',
    ])
      expect(isTestConfiguration(c), c).toBe(true);
    for (const c of ['compileClasspath', 'runtimeClasspath', 'annotationProcessor', 'spotbugs', 'latestVersions'])
      expect(isTestConfiguration(c), c).toBe(false);
  });

  it('is recognised by its header or its lines and by its names, and does not take requirements', () => {
    expect(looksGradleLockfile(LOCK)).toBe(true);
    expect(looksGradleLockfile('org.slf4j:slf4j-api:2.0.9=runtimeClasspath\nempty=\n')).toBe(true);
    expect(looksGradleLockfile('requests==2.0\n')).toBe(false);
    expect(parseManifest(LOCK, {}).format).toBe('gradle-lockfile');
    expect(formatOfFilename('app/gradle.lockfile')).toBe('gradle-lockfile');
    expect(formatOfFilename('settings-gradle.lockfile')).toBe('gradle-lockfile');
    expect(formatOfFilename('gradle/dependency-locks/testRuntimeClasspath.lockfile')).toBe('gradle-lockfile');
    expect(formatOfFilename('other/thing.lockfile')).toBeNull();
  });

  const rows = corpusRows('gradle-lockfile');
  it('has real files in the corpus', () => expect(rows.length).toBeGreaterThanOrEqual(2));
  it.each(rows.map((r) => [r.file, r.expected] as const))('%s parses to its %i packages', (file, expected) => {
    const r = parseManifest(readFileSync(join(CORPUS, file), 'utf8'), {});
    expect(r.format).toBe('gradle-lockfile');
    expect(new Set(r.references.map((x) => x.ref.id)).size).toBe(expected);
    expect(r.references.every((x) => typeof x.tree?.resolvedVersion === 'string')).toBe(true);
    expect(r.unresolved).toEqual([]);
  });

  it('reads Mercury: JUnit is dev, the Eclipse compiler is not', () => {
    const r = parseGradleLockfile(readFileSync(join(CORPUS, 'gradle-lockfile/mercury.gradle.lockfile'), 'utf8'));
    expect(r.references.find((x) => x.ref.id === 'org.apiguardian:apiguardian-api')?.tree?.dev).toBe(true);
    expect(r.references.find((x) => x.ref.id === 'org.eclipse.jdt:ecj')?.tree?.dev).toBeUndefined();
  });
});
