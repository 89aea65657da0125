/**
 * Gradle dependency lock files: `gradle.lockfile` (Gradle 6 and later, one per project) with
 * lines `group:artifact:version=conf1,conf2` and one `empty=conf…` line, and the older
 * per-configuration files `gradle/dependency-locks/<configuration>.lockfile` (Gradle 4.8–5.x)
 * with bare `group:artifact:version` lines. `#` starts a comment. Neither carries a format
 * version: both layouts are read. Each line is a resolved Maven package (`group:artifact`).
 *
 * No graph and no direct list: no reference has a scope or a path. `dev` rule: a package is dev
 * when every configuration it is locked in (over all its lines) is a test configuration, i.e.
 * one whose name starts with `test` or has a `Test` word in it (testCompileClasspath,
 * testRuntimeClasspath, testFixturesRuntimeClasspath, integrationTestRuntimeClasspath,
 * debugAndroidTestCompileClasspath…). Lines of the older layout name no configuration (the file
 * name does, and Tended sees only the text), so they carry no `dev`. One pass over the lines.
 */
import { normaliseComponent } from '../../domain/component.js';
import { ValidationError } from '../../domain/errors.js';
import {
  addUnresolved,
  type ComponentReference,
  type ParseResult,
  type UnlistedEntries,
  type UnresolvedEntry,
} from '../reference.js';

const MAX_INPUT = 200;

/** `test…`, or a camel-case `Test` word: `integrationTest…`, `androidTest…`, `…UnitTest…`. */
export function isTestConfiguration(name: string): boolean {
  return name.startsWith('test') || /Test(?:[A-Z]|$)/.test(name);
}

export function parseGradleLockfile(text: string): ParseResult {
  const out: { unresolved: UnresolvedEntry[]; unlisted?: UnlistedEntries } = { unresolved: [] };
  const found: { ref: ComponentReference['ref']; input: string; line: number; version: string }[] = [];
  /** Per maven id: false once it is locked in a configuration that is not a test one; true while only test ones. */
  const onlyTest = new Map<string, boolean>();
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    const coordinates = eq < 0 ? line : line.slice(0, eq);
    if (coordinates === 'empty') continue;
    const input = line.slice(0, MAX_INPUT);
    const location = `line ${i + 1}`;
    const parts = coordinates.split(':');
    if (parts.length !== 3 || parts.some((p) => p === '')) {
      addUnresolved(out, {
        input,
        location,
        reason:
          'a lock entry is group:artifact:version=configurations (`org.slf4j:slf4j-api:2.0.9=runtimeClasspath`); this one is not',
      });
      continue;
    }
    const [group, artifact, version] = parts as [string, string, string];
    let ref: ComponentReference['ref'];
    try {
      ref = normaliseComponent('maven', `${group}:${artifact}`);
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
      addUnresolved(out, { input, location, reason: e.issues[0]?.msg ?? 'not a Maven group:artifact' });
      continue;
    }
    if (eq >= 0 && onlyTest.get(ref.id) !== false) {
      // Configurations are split one at a time: a line of a million commas costs one pass.
      let test: boolean | undefined;
      for (let start = eq + 1; test !== false && start <= line.length;) {
        const comma = line.indexOf(',', start);
        const end = comma < 0 ? line.length : comma;
        if (end > start) test = isTestConfiguration(line.slice(start, end));
        start = end + 1;
      }
      if (test !== undefined) onlyTest.set(ref.id, test);
    }
    found.push({ ref, input: `${group}:${artifact}:${version}`.slice(0, MAX_INPUT), line: i + 1, version });
  }
  const references: ComponentReference[] = found.map((f) => ({
    ref: f.ref,
    input: f.input,
    location: `line ${f.line}`,
    line: f.line,
    tree: { resolvedVersion: f.version, ...(onlyTest.get(f.ref.id) === true ? { dev: true } : {}) },
  }));
  return { format: 'gradle-lockfile', references, ...out };
}
