/**
 * The component a package URL names (for SBOMs). Plain purls (see PLAIN_ID in component.ts) are
 * read directly; anything else goes through packageurl-js.
 */
import { PackageURL } from 'packageurl-js';
import { normaliseComponent, type ComponentKind, type ComponentRef } from './component.js';
import { distroRelease } from './distro-release.js';
import { ValidationError, quoteInput } from './errors.js';
import { trimTrailing } from './text.js';

const PLAIN_PURL = /^pkg:(npm|pypi|github)\/(?:([a-z0-9.-]+)\/)?([a-z0-9.-]+)(?:@[A-Za-z0-9.-]+)?$/;
const NPM_REGISTRIES = new Set(['registry.npmjs.org', 'registry.npmjs.com', 'npmjs.com', 'www.npmjs.com', 'npmjs.org']);
const PYPI_REGISTRIES = new Set(['pypi.org', 'pypi.python.org', 'upload.pypi.org', 'files.pythonhosted.org']);
const MAVEN_CENTRAL = new Set(['repo.maven.apache.org', 'repo1.maven.org', 'central.sonatype.com', 'search.maven.org']);

/**
 * A purl without its version. Go versions are not part of a module's identity, and packageurl-js
 * 2.0.1 throws a ReferenceError on a Go version such as `v1.0` that is not semver. The version is
 * what follows the last `@` before the qualifiers and subpath (an `@` in a name is percent-encoded).
 */
function withoutVersion(purl: string): string {
  const end = purl.search(/[?#]/);
  const head = end < 0 ? purl : purl.slice(0, end);
  const at = head.lastIndexOf('@');
  return at < 0 ? purl : head.slice(0, at) + purl.slice(head.length);
}

function registryHost(url: string): string {
  return url
    .trim()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .split('/', 1)[0]!
    .toLowerCase();
}

function purlError(raw: string, why: string): ValidationError {
  return new ValidationError([
    {
      loc: ['purl'],
      msg: `a component purl must be pkg:github, pkg:githubactions, pkg:npm, pkg:pypi, pkg:docker, pkg:oci, pkg:maven, pkg:golang, pkg:cargo, pkg:nuget, pkg:gem, pkg:composer, pkg:deb, pkg:apk or pkg:rpm, for example pkg:npm/express; got ${quoteInput(raw)} (${why.slice(0, 80)})`,
      type: 'value_error.purl',
    },
  ]);
}

/**
 * The component a purl names (for SBOMs). Versions are dropped except for docker, whose tag
 * or digest is part of the image's identity. A package from a registry other than the
 * public one is refused: it is a different component that only shares a name, and
 * reporting the public package's state for it would be wrong.
 */
export function componentFromPurl(purl: string): ComponentRef {
  const plain = PLAIN_PURL.exec(purl);
  if (plain) {
    const [, type, namespace, name] = plain as unknown as [string, ComponentKind, string | undefined, string];
    try {
      return normaliseComponent(type, namespace ? `${namespace}/${name}` : type === 'github' ? `/${name}` : name);
    } catch (e) {
      if (e instanceof ValidationError) throw purlError(purl, `not a valid ${type} name`);
      throw e;
    }
  }
  let p: PackageURL;
  try {
    p = PackageURL.fromString(/^pkg:\/*golang\//i.test(purl) ? withoutVersion(purl) : purl);
  } catch (e) {
    throw purlError(String(purl), e instanceof Error ? e.message.replace(/^Invalid purl: /, '') : 'unreadable');
  }
  const repositoryUrl = p.qualifiers?.['repository_url'];
  const wrap = (kind: ComponentKind, name: string): ComponentRef => {
    try {
      return normaliseComponent(kind, name);
    } catch (e) {
      if (e instanceof ValidationError) throw purlError(purl, `not a valid ${kind} name`);
      throw e;
    }
  };
  switch (p.type) {
    case 'github':
      return wrap('github', `${p.namespace ?? ''}/${p.name}`);
    case 'githubactions':
      // An action in a subfolder is owner/repo/path; the component is the repository.
      return wrap('github', `${p.namespace ?? ''}/${p.name}`.split('/').slice(0, 2).join('/'));
    case 'npm':
      if (repositoryUrl && !NPM_REGISTRIES.has(registryHost(repositoryUrl))) {
        throw purlError(purl, 'only the public npm registry is observed');
      }
      return wrap('npm', p.namespace ? `${p.namespace}/${p.name}` : p.name);
    case 'pypi':
      if (repositoryUrl && !PYPI_REGISTRIES.has(registryHost(repositoryUrl))) {
        throw purlError(purl, 'only the public PyPI is observed');
      }
      return wrap('pypi', p.name);
    case 'docker': {
      const domain = repositoryUrl ? registryHost(repositoryUrl) : '';
      const path = p.namespace ? `${p.namespace}/${p.name}` : p.name;
      const tag = p.qualifiers?.['tag'];
      let ref = domain && domain !== 'hub.docker.com' ? `${domain}/${path}` : path;
      if (p.version?.includes(':')) ref += `${tag ? `:${tag}` : ''}@${p.version}`;
      else if (p.version) ref += `:${p.version}`;
      return wrap('docker', ref);
    }
    case 'maven':
      // Another repository's artifact only shares its coordinates with Central's.
      if (repositoryUrl && !MAVEN_CENTRAL.has(registryHost(repositoryUrl)))
        throw purlError(purl, 'only Maven Central is observed');
      return wrap('maven', `${p.namespace ?? ''}:${p.name}`);
    case 'golang':
      if (!p.namespace && p.name === 'stdlib')
        throw purlError(purl, 'the Go standard library ships with the Go toolchain; no module proxy serves it');
      // The subpath names a package inside the module; the module is the component.
      return wrap('golang', p.namespace ? `${p.namespace}/${p.name}` : p.name);
    case 'cargo':
      return wrap('cargo', p.name);
    case 'nuget':
      return wrap('nuget', p.name);
    case 'composer':
      return wrap('composer', `${p.namespace ?? ''}/${p.name}`);
    case 'gem':
      // The platform qualifier (java, x86_64-linux) names a build of the same gem.
      return wrap('gem', p.name);
    case 'deb':
    case 'apk':
    case 'rpm': {
      // An OS package is answered by its distribution release (DESIGN §3), which the distro qualifier names.
      const release = distroRelease(p.namespace, p.qualifiers?.['distro']);
      if (typeof release !== 'string') throw purlError(purl, release.why);
      return wrap('distro', release);
    }
    case 'oci': {
      // The repository (registry and path) is in repository_url; the name alone names no registry.
      if (!repositoryUrl) throw purlError(purl, 'an oci purl without repository_url names no registry');
      const repository = trimTrailing(repositoryUrl.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, ''), '/');
      const tag = p.qualifiers?.['tag'];
      if (p.version?.includes(':')) return wrap('docker', `${repository}${tag ? `:${tag}` : ''}@${p.version}`);
      return wrap('docker', tag ? `${repository}:${tag}` : repository);
    }
    default:
      throw purlError(purl, `type "${p.type.slice(0, 20)}" is not observed`);
  }
}
