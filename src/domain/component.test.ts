// fast-check's stringMatching refuses patterns with the `i` flag, so the letter ranges stay spelled out.
/* eslint-disable regexp/use-ignore-case */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  COMPONENT_KINDS,
  componentOwner,
  componentPurls,
  isComponentKind,
  isGithubOwner,
  normaliseComponent,
  type ComponentKind,
} from './component.js';
import { ValidationError } from './errors.js';
import { componentFromPurl } from './purl-component.js';

const SHA = 'a'.repeat(64);

function issueOf(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    return (e as ValidationError).issues[0];
  }
  throw new Error('expected a ValidationError');
}

describe('kinds', () => {
  it('accepts exactly the eleven kinds', () => {
    expect([...COMPONENT_KINDS]).toEqual([
      'github',
      'npm',
      'pypi',
      'docker',
      'maven',
      'golang',
      'cargo',
      'nuget',
      'gem',
      'composer',
      'distro',
    ]);
    expect(isComponentKind('npm')).toBe(true);
    expect(isComponentKind('NPM')).toBe(false);
    expect(isComponentKind('conan')).toBe(false);
  });

  it.each([
    ['NPM', 'npm'],
    [' pypi ', 'pypi'],
  ])('reads kind %j as %s', (kind, expected) => {
    expect(normaliseComponent(kind, 'requests').kind).toBe(expected);
  });

  it('refuses an unknown kind at loc kind, listing the accepted ones', () => {
    const issue = issueOf(() => normaliseComponent('conan', 'x'));
    expect(issue?.loc).toEqual(['kind']);
    expect(issue?.msg).toBe(
      'kind must be one of github, npm, pypi, docker, maven, golang, cargo, nuget, gem, composer, distro; got "conan"',
    );
  });
});

describe('normaliseComponent: accepted names', () => {
  it.each<[ComponentKind, string, string]>([
    // GitHub compares owner and repository names case-insensitively.
    ['github', 'expressjs/express', 'expressjs/express'],
    ['github', 'ExpressJS/Express', 'expressjs/express'],
    ['github', 'a/b', 'a/b'],
    ['github', `${'o'.repeat(39)}/r`, `${'o'.repeat(39)}/r`],
    ['github', `o/${'r'.repeat(100)}`, `o/${'r'.repeat(100)}`],
    ['github', 'owner/.github', 'owner/.github'],
    ['github', 'owner/repo.js_x-1', 'owner/repo.js_x-1'],
    ['github', 'legacy--user-/repo', 'legacy--user-/repo'],
    ['github', '  expressjs/express\n', 'expressjs/express'],
    // npm: kept as given (the registry is case-sensitive for legacy names).
    ['npm', 'express', 'express'],
    ['npm', '@babel/core', '@babel/core'],
    ['npm', 'JSONStream', 'JSONStream'],
    ['npm', 'lodash.merge', 'lodash.merge'],
    ['npm', 'a'.repeat(214), 'a'.repeat(214)],
    ['npm', '@types/node', '@types/node'],
    // PyPI: PEP 503.
    ['pypi', 'requests', 'requests'],
    ['pypi', 'Django', 'django'],
    ['pypi', 'zope.interface', 'zope-interface'],
    ['pypi', 'Foo__Bar-.-baz', 'foo-bar-baz'],
    ['pypi', 'a', 'a'],
    // Docker: registry/namespace/name:tag.
    ['docker', 'node', 'docker.io/library/node:latest'],
    ['docker', 'node:18-alpine', 'docker.io/library/node:18-alpine'],
    ['docker', 'library/node:18', 'docker.io/library/node:18'],
    ['docker', 'bitnami/redis:7', 'docker.io/bitnami/redis:7'],
    ['docker', 'docker.io/node', 'docker.io/library/node:latest'],
    ['docker', 'index.docker.io/library/node:20', 'docker.io/library/node:20'],
    ['docker', 'registry-1.docker.io/bitnami/redis', 'docker.io/bitnami/redis:latest'],
    ['docker', 'ghcr.io/o/i:1', 'ghcr.io/o/i:1'],
    ['docker', 'GHCR.IO/o/i:1', 'ghcr.io/o/i:1'],
    ['docker', 'quay.io/img', 'quay.io/img:latest'], // no library/ outside Docker Hub
    ['docker', 'localhost:5000/x:1', 'localhost:5000/x:1'],
    ['docker', 'localhost/x', 'localhost/x:latest'],
    ['docker', 'gcr.io/a/b/c/d:v1.2.3', 'gcr.io/a/b/c/d:v1.2.3'],
    ['docker', `node@sha256:${SHA}`, `docker.io/library/node@sha256:${SHA}`],
    ['docker', `node:18@sha256:${SHA.toUpperCase()}`, `docker.io/library/node:18@sha256:${SHA}`],
    ['docker', 'my_image__x-y.z:Tag_1.0', 'docker.io/library/my_image__x-y.z:Tag_1.0'],
  ])('%s %j → %s', (kind, name, id) => {
    expect(normaliseComponent(kind, name)).toEqual({ kind, id });
  });
});

describe('normaliseComponent: refused names', () => {
  it.each<[ComponentKind, string, string]>([
    ['github', 'expressjs', 'owner/repo'],
    ['github', 'a/b/c', 'owner/repo'],
    ['github', '/repo', 'owner/repo'],
    ['github', '-owner/repo', 'owner/repo'],
    ['github', `${'o'.repeat(40)}/r`, 'owner/repo'],
    ['github', 'o_x/repo', 'owner/repo'],
    ['github', 'owner/..', 'owner/repo'],
    ['github', 'owner/.', 'owner/repo'],
    ['github', `o/${'r'.repeat(101)}`, 'owner/repo'],
    ['github', 'owner/re po', 'owner/repo'],
    ['github', '', 'owner/repo'],
    ['npm', '.hidden', '@scope/name'],
    ['npm', '_private', '@scope/name'],
    ['npm', 'a'.repeat(215), '@scope/name'],
    ['npm', 'node_modules', '@scope/name'],
    ['npm', 'has space', '@scope/name'],
    ['npm', 'ünïcode', '@scope/name'],
    ['npm', '@scope', '@scope/name'],
    ['npm', '@scope/', '@scope/name'],
    ['npm', '@/name', '@scope/name'],
    ['npm', '@a/b/c', '@scope/name'],
    ['npm', '@scope/.name', '@scope/name'],
    ['npm', 'express@4.18.2', '@scope/name'],
    ['pypi', '-requests', 'PyPI'],
    ['pypi', 'requests.', 'PyPI'],
    ['pypi', 'requests[security]', 'PyPI'],
    ['pypi', 'requests==2.0', 'PyPI'],
    ['pypi', 'café', 'PyPI'],
    ['docker', 'Node', 'lower case'],
    ['docker', 'Bitnami/redis', 'lower case'],
    ['docker', 'node:', 'image reference'],
    ['docker', 'node:-bad', 'image reference'],
    ['docker', `node:${'t'.repeat(129)}`, 'image reference'],
    ['docker', 'node@sha256:abc', 'image reference'],
    ['docker', `node@sha256:${'a'.repeat(63)}`, 'image reference'],
    ['docker', SHA, 'image ID'],
    ['docker', 'a//b', 'image reference'],
    ['docker', 'node--', 'image reference'],
    ['docker', '_node', 'image reference'],
    ['docker', `x/${'a'.repeat(256)}`, 'image reference'],
    ['docker', 'docker://node', 'image reference'],
  ])('%s %j is refused at loc name, saying what shape is expected', (kind, name, hint) => {
    const issue = issueOf(() => normaliseComponent(kind, name));
    expect(issue?.loc).toEqual(['name']);
    expect(issue?.type).toBe('value_error.component_name');
    expect(issue?.msg).toContain(hint);
    expect(issue?.msg).toContain(`a${kind === 'npm' ? 'n' : ''} ${kind} component`);
  });

  it('echoes at most 40 characters of a long name', () => {
    const issue = issueOf(() => normaliseComponent('github', 'x'.repeat(10_000)));
    expect(issue?.msg).toContain(`"${'x'.repeat(40)}…"`);
    expect(issue?.msg.length).toBeLessThan(400);
  });
});

describe('componentPurls', () => {
  it.each<[ComponentKind, string, string]>([
    ['github', 'expressjs/express', 'pkg:github/expressjs/express'],
    ['npm', 'express', 'pkg:npm/express'],
    // purl spec: the scope's "@" is percent-encoded.
    ['npm', '@babel/core', 'pkg:npm/%40babel/core'],
    // purl spec lower-cases npm names; index 0 keeps the registry's spelling.
    ['npm', 'JSONStream', 'pkg:npm/jsonstream'],
    ['pypi', 'zope-interface', 'pkg:pypi/zope-interface'],
    ['docker', 'docker.io/library/node:18-alpine', 'pkg:docker/library/node@18-alpine'],
    ['docker', 'docker.io/bitnami/redis:7', 'pkg:docker/bitnami/redis@7'],
    ['docker', 'ghcr.io/o/i:1', 'pkg:docker/o/i@1?repository_url=ghcr.io'],
    ['docker', 'quay.io/img:latest', 'pkg:docker/img@latest?repository_url=quay.io'],
    ['docker', 'localhost:5000/x:1', 'pkg:docker/x@1?repository_url=localhost%3A5000'],
    ['docker', `docker.io/library/node@sha256:${SHA}`, `pkg:docker/library/node@sha256:${SHA}`],
    ['docker', `docker.io/library/node:18@sha256:${SHA}`, `pkg:docker/library/node@sha256:${SHA}?tag=18`],
  ])('%s %s → [id, %s]', (kind, id, purl) => {
    expect(componentPurls({ kind, id })).toEqual([id, purl]);
  });
});

describe('componentOwner', () => {
  it.each<[ComponentKind, string, string]>([
    ['github', 'expressjs/express', 'expressjs'],
    ['npm', '@babel/core', '@babel'],
    ['npm', 'express', ''],
    ['pypi', 'django', ''],
    ['docker', 'docker.io/bitnami/redis:7', 'docker.io/bitnami'],
    ['docker', 'quay.io/img:latest', 'quay.io'],
  ])('%s %s → %j', (kind, id, owner) => {
    expect(componentOwner({ kind, id })).toBe(owner);
  });

  it.each([
    ['expressjs', true],
    ['a', true],
    ['o'.repeat(39), true],
    ['o'.repeat(40), false],
    ['-x', false],
    ['a_b', false],
  ])('isGithubOwner(%j) is %s', (s, ok) => {
    expect(isGithubOwner(s)).toBe(ok);
  });
});

describe('properties', () => {
  const lower = fc.stringMatching(/^[a-z0-9]{1,8}$/);
  const names: fc.Arbitrary<[ComponentKind, string]> = fc.oneof(
    fc.tuple(
      fc.constant<ComponentKind>('github'),
      fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9-]{0,10}\/[\w.-]{1,12}$/).filter((n) => !/\/\.\.?$/.test(n)),
    ),
    fc.tuple(fc.constant<ComponentKind>('npm'), fc.stringMatching(/^(@[a-z0-9-]{1,6}\/)?[a-z0-9][\w.~-]{0,12}$/)),
    fc.tuple(fc.constant<ComponentKind>('pypi'), fc.stringMatching(/^[A-Za-z0-9]([\w.-]{0,10}[A-Za-z0-9])?$/)),
    fc.tuple(
      fc.constant<ComponentKind>('docker'),
      fc
        .tuple(
          fc.constantFrom('', 'docker.io/', 'index.docker.io/', 'ghcr.io/', 'localhost:5000/', 'Quay.IO/'),
          fc.array(lower, { minLength: 1, maxLength: 3 }),
          fc.option(fc.stringMatching(/^\w[\w.-]{0,10}$/), { nil: undefined }),
          fc.option(fc.constant(`@sha256:${SHA}`), { nil: undefined }),
        )
        .map(([d, path, tag, digest]) => `${d}${path.join('/')}${tag ? `:${tag}` : ''}${digest ?? ''}`),
    ),
  );

  it('normalising a normalised id changes nothing', () => {
    fc.assert(
      fc.property(names, ([kind, name]) => {
        const ref = normaliseComponent(kind, name);
        expect(normaliseComponent(kind, ref.id)).toEqual(ref);
      }),
    );
  });

  it('the purl leads back to the same component (except legacy mixed-case npm names)', () => {
    fc.assert(
      fc.property(names, ([kind, name]) => {
        const ref = normaliseComponent(kind, name);
        const [native, purl] = componentPurls(ref);
        expect(native).toBe(ref.id);
        const back = componentFromPurl(purl);
        expect(back).toEqual(kind === 'npm' ? { kind, id: ref.id.toLowerCase() } : ref);
      }),
    );
  });
});

describe('npm names: URL-safe means what encodeURIComponent says', () => {
  it('accepts an unscoped name exactly when encodeURIComponent leaves it unchanged', () => {
    const name = fc.string({
      unit: fc.oneof(
        fc.constantFrom(..."aZ09-_.!~*'()@/%+ é"),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
      ),
      minLength: 1,
      maxLength: 12,
    });
    fc.assert(
      fc.property(name, (raw) => {
        // Surrounding whitespace is trimmed before any rule; the rules before this one are tested above.
        const s = raw.trim();
        fc.pre(
          s !== '' &&
            !s.startsWith('.') &&
            !s.startsWith('_') &&
            !s.startsWith('@') &&
            !['node_modules', 'favicon.ico'].includes(s.toLowerCase()),
        );
        const accepted = (() => {
          try {
            normaliseComponent('npm', raw);
            return true;
          } catch (e) {
            if (e instanceof ValidationError) return false;
            throw e;
          }
        })();
        expect(accepted).toBe(encodeURIComponent(s) === s);
      }),
      { numRuns: 2000 },
    );
  });
});
