import { describe, expect, it } from 'vitest';
import { MAVEN_PART_MAX } from '../../domain/package-names.js';
import { InputError } from '../reference.js';
import { looksPom } from './detect.js';
import { MAX_POM_BYTES, parsePom } from './parse.js';

const POM = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-parent</artifactId><version>3.3.0</version></parent>
  <groupId>com.acme</groupId>
  <artifactId>app</artifactId>
  <properties><jackson.group>com.fasterxml.jackson.core</jackson.group></properties>
  <dependencies>
    <dependency><groupId>org.apache.commons</groupId><artifactId>commons-lang3</artifactId><version>3.14.0</version></dependency>
    <dependency><groupId>\${jackson.group}</groupId><artifactId>jackson-databind</artifactId></dependency>
    <dependency><groupId>\${project.groupId}</groupId><artifactId>app-core</artifactId></dependency>
    <dependency><groupId>\${from.parent}</groupId><artifactId>mystery</artifactId></dependency>
    <dependency><artifactId>no-group</artifactId></dependency>
  </dependencies>
  <dependencyManagement><dependencies>
    <dependency><groupId>org.junit</groupId><artifactId>junit-bom</artifactId><type>pom</type><scope>import</scope></dependency>
  </dependencies></dependencyManagement>
  <build><plugins><plugin><artifactId>maven-surefire-plugin</artifactId></plugin></plugins></build>
  <profiles><profile><id>ci</id><dependencies>
    <dependency><groupId>org.jacoco</groupId><artifactId>org.jacoco.agent</artifactId></dependency>
  </dependencies></profile></profiles>
</project>
`;

describe('pom.xml', () => {
  it('names dependencies, managed ones, plugins, profiles and the parent, resolving its own properties', () => {
    const r = parsePom(POM);
    expect(r.format).toBe('pom');
    expect(r.references.map((x) => [x.ref.id, x.location])).toEqual([
      ['org.apache.commons:commons-lang3', 'dependencies.dependency[0]'],
      ['com.fasterxml.jackson.core:jackson-databind', 'dependencies.dependency[1]'],
      ['com.acme:app-core', 'dependencies.dependency[2]'],
      ['org.junit:junit-bom', 'dependencyManagement.dependencies.dependency[0]'],
      ['org.apache.maven.plugins:maven-surefire-plugin', 'build.plugins.plugin[0]'],
      ['org.jacoco:org.jacoco.agent', 'profiles.profile[0].dependencies.dependency[0]'],
      ['org.springframework.boot:spring-boot-starter-parent', 'parent'],
    ]);
    expect(r.unresolved.map((u) => [u.input, u.location])).toEqual([
      ['${from.parent}:mystery', 'dependencies.dependency[3]'],
      ['?:no-group', 'dependencies.dependency[4]'],
    ]);
    expect(r.unresolved[0]?.reason).toContain('parent POM may define it');
  });

  it('reads element text as XML means it: character references and predefined entities decoded', () => {
    const r = parsePom(`<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
      <properties><acme.group>com&#46;acme</acme.group></properties>
      <dependencies>
        <dependency><groupId>\${acme.group}</groupId><artifactId>core&#x2D;api</artifactId></dependency>
        <dependency><groupId>org.example</groupId><artifactId>a&amp;b</artifactId></dependency>
      </dependencies></project>`);
    expect(r.references.map((x) => x.ref.id)).toEqual(['com.acme:core-api']);
    // Not a Maven artifact id, and shown to its reader as the file means it.
    expect(r.unresolved.map((u) => u.input)).toEqual(['org.example:a&b']);
  });

  describe('property expansion is bounded by the longest Maven groupId or artifactId', () => {
    const pom = (property: string, dependencies: string) =>
      `<project><modelVersion>4.0.0</modelVersion><properties><p>${property}</p></properties><dependencies>${dependencies}</dependencies></project>`;
    const dependency = (group: string, artifact = 'b') =>
      `<dependency><groupId>${group}</groupId><artifactId>${artifact}</artifactId></dependency>`;

    it(`expands a property into a coordinate of ${MAVEN_PART_MAX} characters`, () => {
      const r = parsePom(pom('a'.repeat(MAVEN_PART_MAX - 2), dependency('${p}.x')));
      expect(r.references.map((x) => x.ref.id)).toEqual([`${'a'.repeat(MAVEN_PART_MAX - 2)}.x:b`]);
    });

    it('leaves unresolved, with the reason, an entry naming a property longer than that', () => {
      const r = parsePom(pom('a'.repeat(400_000), dependency('b', '${p}')));
      expect(r.references).toEqual([]);
      expect(r.unresolved).toEqual([
        {
          input: 'b:${p}',
          location: 'dependencies.dependency[0]',
          reason: `its artifactId names the property \${p}, which is 400,000 characters long; no Maven artifactId is longer than ${MAVEN_PART_MAX}, so Tended does not expand it`,
        },
      ]);
    });

    it('stops expanding once the result is longer than that, however many references remain', () => {
      // 125,000 references to a 500 KB property once gave a RangeError (a 60 GB string).
      const r = parsePom(pom('a'.repeat(500_000), dependency('${p}'.repeat(125_000))));
      expect(r.unresolved.map((u) => u.reason)).toEqual([
        `its groupId names the property \${p}, which is 500,000 characters long; no Maven groupId is longer than ${MAVEN_PART_MAX}, so Tended does not expand it`,
      ]);
      const short = parsePom(pom('a'.repeat(150), dependency('${p}'.repeat(100))));
      expect(short.unresolved.map((u) => [u.input.length, u.reason])).toEqual([
        [
          200,
          `its groupId is longer than ${MAVEN_PART_MAX} characters once its properties are expanded, and no Maven groupId is, so it names no artifact`,
        ],
      ]);
      const literal = parsePom(pom('x', dependency('g'.repeat(MAVEN_PART_MAX + 1))));
      expect(literal.unresolved[0]?.reason).toBe(
        `its groupId is longer than ${MAVEN_PART_MAX} characters, and no Maven groupId is, so it names no artifact`,
      );
    });

    it('reads a thousand dependencies naming one 400 KB property in about the time it takes to parse them', () => {
      const body = pom('a'.repeat(400_000), dependency('${p}').repeat(1_000));
      const start = performance.now();
      const r = parsePom(body);
      expect(performance.now() - start).toBeLessThan(500);
      expect(r.unresolved).toHaveLength(1_000);
    });
  });

  it('refuses a file larger than any real POM at once, with a sentence', () => {
    const huge = `<project>${' '.repeat(MAX_POM_BYTES)}</project>`;
    expect(() => parsePom(huge)).toThrow(/up to 1 MB/);
  });

  it('refuses a DTD, and a file that is not a POM, with a sentence', () => {
    expect(() => parsePom('<!DOCTYPE x [<!ENTITY a "b">]><project/>')).toThrow(InputError);
    expect(() => parsePom('<bom/>')).toThrow(/root element is <project>/);
  });

  it('is recognised by its root element and Maven namespace or model version', () => {
    expect(looksPom(POM)).toBe(true);
    expect(looksPom('<bom xmlns="http://cyclonedx.org/schema/bom/1.4"/>')).toBe(false);
    expect(looksPom('module a.b/c')).toBe(false);
  });
});

describe('parsePom: place in the tree', () => {
  it('every artifact is direct; <scope>test</scope> is dev, <optional>true</optional> optional', () => {
    const r = parsePom(
      `<project><groupId>g</groupId><artifactId>a</artifactId><dependencies>
        <dependency><groupId>com.google.guava</groupId><artifactId>guava</artifactId></dependency>
        <dependency><groupId>junit</groupId><artifactId>junit</artifactId><scope>test</scope></dependency>
        <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-api</artifactId><optional>true</optional></dependency>
        <dependency><groupId>javax.servlet</groupId><artifactId>servlet-api</artifactId><scope>provided</scope></dependency>
      </dependencies></project>`,
    );
    expect(r.references.map((x) => [x.ref.id, x.tree])).toEqual([
      ['com.google.guava:guava', { scope: 'direct', via: [] }],
      ['junit:junit', { scope: 'direct', via: [], dev: true }],
      ['org.slf4j:slf4j-api', { scope: 'direct', via: [], optional: true }],
      ['javax.servlet:servlet-api', { scope: 'direct', via: [] }],
    ]);
  });
});
