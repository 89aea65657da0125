/**
 * What a reader may type in the search box, turned into the package whose page it names: a bare
 * npm name (`express`, `express@4.18.2`), a registry and name (`pypi:requests`,
 * `maven:org.slf4j:slf4j-api`), a Go module path (`github.com/owner/repo`), a package URL
 * (`pkg:cargo/serde`) or the registry's own page address (`https://pypi.org/project/requests/`).
 */
import { normaliseComponent, type ComponentKind, type ComponentRef } from '../domain/component.js';
import { ValidationError } from '../domain/errors.js';
import { componentFromPurl } from '../domain/purl-component.js';
import { PAGE_KINDS, pageRegistry } from './registries.js';

const refused = (msg: string, type = 'value_error') => new ValidationError([{ loc: ['query', 'q'], msg, type }]);

/** Prefixes a reader may put before a name, and the page kind each means. */
const PREFIXES: Readonly<Record<string, ComponentKind>> = {
  npm: 'npm',
  pypi: 'pypi',
  maven: 'maven',
  golang: 'golang',
  go: 'golang',
  cargo: 'cargo',
  crates: 'cargo',
  gem: 'gem',
  rubygems: 'gem',
  composer: 'composer',
  packagist: 'composer',
};

/**
 * Registry page addresses: host → the kind, and how many path elements after the prefix name the
 * package (0: the rest of the path, as a Go module path is).
 */
const REGISTRY_PAGES: Readonly<Record<string, { kind: ComponentKind; prefix: string; parts: number }>> = {
  'npmjs.com': { kind: 'npm', prefix: '/package/', parts: 0 },
  'pypi.org': { kind: 'pypi', prefix: '/project/', parts: 1 },
  'crates.io': { kind: 'cargo', prefix: '/crates/', parts: 1 },
  'rubygems.org': { kind: 'gem', prefix: '/gems/', parts: 1 },
  'packagist.org': { kind: 'composer', prefix: '/packages/', parts: 2 },
  'pkg.go.dev': { kind: 'golang', prefix: '/', parts: 0 },
  'central.sonatype.com': { kind: 'maven', prefix: '/artifact/', parts: 2 },
  'mvnrepository.com': { kind: 'maven', prefix: '/artifact/', parts: 2 },
};

export function searchedPackage(q: string): ComponentRef {
  if (q.startsWith('pkg:')) return withPages(componentFromPurl(q));
  if (q.startsWith('https://') || q.startsWith('http://')) return fromRegistryPage(q);
  const colon = q.indexOf(':');
  const kind = colon > 0 ? PREFIXES[q.slice(0, colon).toLowerCase()] : undefined;
  if (kind !== undefined) return named(kind, q.slice(colon + 1));
  const slash = q.indexOf('/');
  // An npm name with a "/" is scoped (`@scope/name`); a first element with a dot is a domain.
  if (slash > 0 && !q.startsWith('@') && q.slice(0, slash).includes('.')) return named('golang', q);
  return named('npm', q);
}

function named(kind: ComponentKind, name: string): ComponentRef {
  let n = name;
  if (kind === 'npm') {
    // `express@4.18.2` as npm install takes it: the page is the package's, whatever the version.
    const at = n.lastIndexOf('@');
    if (at > 0) n = n.slice(0, at);
  } else if (kind === 'golang') {
    const at = n.indexOf('@');
    if (at > 0) n = n.slice(0, at);
  }
  return withPages(normaliseComponent(kind, n));
}

function withPages(ref: ComponentRef): ComponentRef {
  if (pageRegistry(ref.kind) === null)
    throw refused(`package pages are for ${PAGE_KINDS.join(', ')} packages; this names a ${ref.kind} component`);
  return ref;
}

function fromRegistryPage(q: string): ComponentRef {
  let url: URL;
  try {
    url = new URL(q);
  } catch {
    throw refused('this address cannot be read as a URL');
  }
  const host = url.hostname.startsWith('www.') ? url.hostname.slice(4) : url.hostname;
  const page = REGISTRY_PAGES[host];
  if (page === undefined || !url.pathname.startsWith(page.prefix))
    throw refused(`an address of ${Object.keys(REGISTRY_PAGES).join(', ')} naming a package is what this reads`);
  const elements = url.pathname
    .slice(page.prefix.length)
    .split('/')
    .filter((e) => e !== '');
  const taken = page.parts === 0 ? elements : elements.slice(0, page.parts);
  if (taken.length === 0 || taken.length < page.parts) throw refused('the address names no package');
  const name = taken.map(decoded).join(page.kind === 'maven' ? ':' : '/');
  return named(page.kind, name);
}

/** A pasted URL's path element, percent-decoded; a broken escape (`%E0`) is a name that cannot be read, not a failure. */
function decoded(element: string): string {
  try {
    return decodeURIComponent(element);
  } catch {
    throw refused(
      'the address holds a broken %-escape ("%" must be followed by two hex digits of UTF-8), so it names no package',
      'value_error.url_escape',
    );
  }
}
