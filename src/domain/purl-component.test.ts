import fc from 'fast-check';
import { PackageURL } from 'packageurl-js';
import { describe, expect, it } from 'vitest';
import { componentPurls, normaliseComponent, type ComponentKind } from './component.js';
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

describe('componentFromPurl', () => {
  it.each<[string, ComponentKind, string]>([
    ['pkg:github/ExpressJS/Express', 'github', 'expressjs/express'],
    ['pkg:githubactions/actions/checkout@v4', 'github', 'actions/checkout'],
    ['pkg:githubactions/github/codeql-action/init@v3', 'github', 'github/codeql-action'],
    ['pkg:npm/express@4.18.2', 'npm', 'express'], // the version is not part of the component
    ['pkg:npm/%40babel/core@7.0.0', 'npm', '@babel/core'],
    ['pkg:npm/@babel/core', 'npm', '@babel/core'],
    ['pkg:npm/left-pad?repository_url=https://registry.npmjs.org/', 'npm', 'left-pad'],
    ['pkg:pypi/Django@5.0', 'pypi', 'django'],
    ['pkg:pypi/zope.interface', 'pypi', 'zope-interface'],
    ['pkg:docker/node', 'docker', 'docker.io/library/node:latest'],
    ['pkg:docker/library/node@18-alpine', 'docker', 'docker.io/library/node:18-alpine'],
    ['pkg:docker/bitnami/redis@7', 'docker', 'docker.io/bitnami/redis:7'],
    ['pkg:docker/o/i@1?repository_url=ghcr.io', 'docker', 'ghcr.io/o/i:1'],
    ['pkg:docker/o/i@1?repository_url=https://ghcr.io/', 'docker', 'ghcr.io/o/i:1'],
    ['pkg:docker/cassandra@latest?repository_url=hub.docker.com', 'docker', 'docker.io/library/cassandra:latest'],
    [`pkg:docker/library/node@sha256%3A${SHA}`, 'docker', `docker.io/library/node@sha256:${SHA}`],
    ['pkg:maven/org.apache.commons/commons-lang3@3.12.0?type=jar', 'maven', 'org.apache.commons:commons-lang3'],
    ['pkg:maven/g/a@1?repository_url=https://repo1.maven.org/maven2', 'maven', 'g:a'],
    // Go keeps case (the proxy is case-sensitive); the subpath is a package inside the module.
    ['pkg:golang/github.com/CycloneDX/cyclonedx-go@v0.6.0', 'golang', 'github.com/CycloneDX/cyclonedx-go'],
    ['pkg:golang/golang.org/x/net@v0.0.0-20220722155237-a158d28d115b#http2', 'golang', 'golang.org/x/net'],
    // packageurl-js 2.0.1 throws on a "v" version that is not semver; the version is not the module's identity.
    ['pkg:golang/gopkg.in/yaml.v3@v3', 'golang', 'gopkg.in/yaml.v3'],
    [
      `pkg:oci/debian@sha256%3A${SHA}?repository_url=docker.io/library/debian&arch=amd64&tag=latest`,
      'docker',
      `docker.io/library/debian:latest@sha256:${SHA}`,
    ],
    ['pkg:oci/app?repository_url=ghcr.io/acme/app&tag=1.2', 'docker', 'ghcr.io/acme/app:1.2'],
    ['pkg:oci/app?repository_url=https://ghcr.io/acme/app/&tag=1.2', 'docker', 'ghcr.io/acme/app:1.2'],
  ])('%s → %s %s', (purl, kind, id) => {
    expect(componentFromPurl(purl)).toEqual({ kind, id });
  });

  it.each([
    ['pkg:conan/openssl@3.0.0', 'not observed'],
    ['pkg:gem/no%20spaces@1', 'not a valid gem name'],
    [
      'pkg:maven/com.acme/internal@1?repository_url=https://nexus.acme.example/repository/releases',
      'only Maven Central',
    ],
    ['pkg:oci/app@sha256%3Aabc', 'names no registry'],
    ['pkg:golang/nodomain/x@v1.0.0', 'not a valid golang name'],
    ['pkg:npm/private-thing?repository_url=https://npm.example.com', 'public npm registry'],
    ['pkg:pypi/internal?repository_url=https://pypi.example.com/simple', 'public PyPI'],
    ['not-a-purl', 'pkg:npm/express'],
    ['pkg:github/onlyname', 'not a valid github name'],
  ])('refuses %s at loc purl', (purl, hint) => {
    const issue = issueOf(() => componentFromPurl(purl));
    expect(issue?.loc).toEqual(['purl']);
    expect(issue?.msg).toContain(hint);
  });
});

describe('plain purls read and written without packageurl-js', () => {
  // The fast path must give exactly what packageurl-js gives: the same component, or a refusal.
  const part = fc.stringMatching(/^[a-z0-9.-]{1,12}$/);
  const viaLibrary = (purl: string) => {
    const p = PackageURL.fromString(purl);
    const name = p.namespace ? `${p.namespace}/${p.name}` : p.type === 'github' ? `/${p.name}` : p.name;
    return normaliseComponent(p.type, name);
  };
  const outcome = (f: () => unknown) => {
    try {
      return { ok: f() };
    } catch (e) {
      return { refused: e instanceof ValidationError };
    }
  };

  it('componentFromPurl agrees with packageurl-js on every plain purl', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('npm', 'pypi', 'github'),
        fc.option(part, { nil: undefined }),
        part,
        fc.option(part, { nil: undefined }),
        (type, ns, name, version) => {
          const purl = `pkg:${type}/${ns ? `${ns}/` : ''}${name}${version ? `@${version}` : ''}`;
          const fast = outcome(() => componentFromPurl(purl));
          const slow = outcome(() => viaLibrary(purl));
          expect(fast).toEqual(slow);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('componentPurls agrees with packageurl-js on every plain id', () => {
    fc.assert(
      fc.property(fc.constantFrom('npm', 'pypi', 'github'), part, part, (kind, a, b) => {
        const id = kind === 'github' ? `${a}/${b}` : a;
        const library = kind === 'github' ? new PackageURL('github', a, b) : new PackageURL(kind, null, a);
        expect(componentPurls({ kind: kind, id })[1]).toBe(library.toString());
      }),
      { numRuns: 3000 },
    );
  });
});

describe('OS package purls answer for their distribution release', () => {
  it.each([
    // Syft: {os-release ID}-{VERSION_ID}
    ['pkg:deb/debian/libc6@2.36-9?arch=amd64&distro=debian-12', 'debian/12'],
    ['pkg:apk/alpine/musl@1.2.2-r0?arch=x86_64&upstream=musl&distro=alpine-3.12.12', 'alpine-linux/3.12'],
    ['pkg:rpm/redhat/bash@4.4.20?arch=x86_64&distro=rhel-8.10', 'rhel/8'],
    ['pkg:rpm/amzn/glibc@2.34?distro=amzn-2023', 'amazon-linux/2023'],
    // Trivy: {family}-{OS name}, and a bare version for apk
    ['pkg:deb/debian/openssl@3.0.11?distro=debian-12.9', 'debian/12'],
    ['pkg:deb/ubuntu/bash@5.1?distro=ubuntu-22.04', 'ubuntu/22.04'],
    ['pkg:apk/alpine/busybox@1.36?distro=3.14.2', 'alpine-linux/3.14'],
    ['pkg:rpm/amazon/curl@8.3?distro=amazon-2%20%28Karoo%29', 'amazon-linux/2'],
    ['pkg:rpm/amazon/curl@7.61?distro=amazon-AMI%20release%202018.03', 'amazon-linux/2018.03'],
    ['pkg:rpm/centos/bash@4.2?distro=centos-8.3.2011', 'centos/8'],
    ['pkg:rpm/opensuse/zypper@1.14?distro=opensuse-leap-15.6', 'opensuse/15.6'],
    ['pkg:rpm/photon/bash@5.2?distro=photon-5', 'photon/5.0'],
    // purl-spec examples: codenames
    ['pkg:deb/debian/curl@7.50.3-1?arch=i386&distro=jessie', 'debian/8'],
    ['pkg:deb/ubuntu/curl@7.81?distro=jammy', 'ubuntu/22.04'],
  ])('%s → distro %s', (purl, id) => {
    expect(componentFromPurl(purl)).toEqual({ kind: 'distro', id });
  });

  it.each([
    ['pkg:deb/debian/curl@7.50.3-1', 'no distro qualifier'],
    ['pkg:apk/alpine/musl@1.2?distro=edge', 'names no release'],
    ['pkg:apk/wolfi/glibc@2.38?distro=wolfi-20230201', 'no release dates for wolfi'],
    ['pkg:rpm/mageia/bash@5?distro=mageia-9', 'no end-of-life listing for the distribution "mageia"'],
  ])('leaves %s unresolved: %s', (purl, why) => {
    const issue = issueOf(() => componentFromPurl(purl));
    expect(issue?.loc).toEqual(['purl']);
    expect(issue?.msg).toContain(why);
  });

  it('names a release as the listing does, and refuses a product it has no table for', () => {
    expect(normaliseComponent('distro', 'Debian/12')).toEqual({ kind: 'distro', id: 'debian/12' });
    expect(componentPurls({ kind: 'distro', id: 'ubuntu/22.04' })).toEqual([
      'ubuntu/22.04',
      'pkg:generic/ubuntu@22.04',
    ]);
    expect(issueOf(() => normaliseComponent('distro', 'windows/11'))?.msg).toContain('the product is not one of');
  });
});
