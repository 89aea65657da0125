/**
 * What a reader may type or paste in the search box: an exact name in any of its spellings, turned
 * into the component whose page it names, or else part of a name, looked up by prefix.
 *
 * Exact forms: a bare npm name (`express`, `express@4.18.2`), a kind and name (`pypi:requests`,
 * `maven:org.slf4j:slf4j-api`, `docker:node:18-alpine`, `github:acme/rocket`), a GitHub
 * `owner/repo`, an image reference (`node:18-alpine`, `ghcr.io/owner/image:1`), a Go module path
 * (`github.com/owner/repo`), a package URL (`pkg:cargo/serde`), or a registry's or GitHub's own page
 * address (`https://pypi.org/project/requests/`, `https://github.com/acme/rocket`).
 */
import { componentSearchKeys, normaliseComponent, type ComponentKind, type ComponentRef } from '../domain/component.js';
import { ValidationError } from '../domain/errors.js';
import { componentFromPurl } from '../domain/purl-component.js';
import type { Store } from '../storage/store.js';

const refused = (msg: string, type = 'value_error') => new ValidationError([{ loc: ['query', 'q'], msg, type }]);

/** Prefixes a reader may put before a name, and the kind each means. */
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
  nuget: 'nuget',
  github: 'github',
  docker: 'docker',
  image: 'docker',
  distro: 'distro',
};

/**
 * Page addresses: host → the kind, and how many path elements after the prefix name the component
 * (0: the rest of the path, as a Go module path is).
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
  'nuget.org': { kind: 'nuget', prefix: '/packages/', parts: 1 },
  'github.com': { kind: 'github', prefix: '/', parts: 2 },
  // Docker Hub: `/_/node` for an official image, `/r/bitnami/redis` for the others.
  'hub.docker.com': { kind: 'docker', prefix: '/', parts: 3 },
};

/** The characters of any component id: a query with others (a space, a quote) names nothing. */
const NAME_FRAGMENT = /^[\w@/.:~+-]{1,200}$/;

/** The component an exact form names; a ValidationError when the text is no such form. */
export function searchedComponent(q: string): ComponentRef {
  if (q.startsWith('pkg:')) return componentFromPurl(q);
  if (q.startsWith('https://') || q.startsWith('http://')) return fromPageAddress(q);
  const colon = q.indexOf(':');
  const kind = colon > 0 ? PREFIXES[q.slice(0, colon).toLowerCase()] : undefined;
  if (kind !== undefined) return named(kind, q.slice(colon + 1));
  const slash = q.indexOf('/');
  const first = slash > 0 ? q.slice(0, slash) : q;
  // A tag (`node:18-alpine`) or a registry host: only an image reference holds a ":" here.
  if (colon > 0 && !q.startsWith('@')) return named('docker', q);
  // A first element with a dot is a domain: a Go module path (an image without a tag reads as one too).
  if (slash > 0 && !q.startsWith('@') && first.includes('.')) return named('golang', q);
  // npm names never hold a "/" unless scoped: `owner/repo` is a GitHub repository.
  if (slash > 0 && !q.startsWith('@')) return named('github', q);
  return named('npm', q);
}

/** A query that can be part of some component's name, to look up by prefix; null for one that cannot. */
export function nameFragment(q: string): string | null {
  return NAME_FRAGMENT.test(q) ? q.toLowerCase() : null;
}

// Results a search lists: enough to scan by eye, and a bound on what one request reads.
export const SEARCH_LIMIT = 50;

/**
 * Held components matching the query: by the prefixes it is read as (the text as typed, and the
 * name and id of the component it names exactly, when it names one), at most SEARCH_LIMIT, each a
 * bounded indexed read. Ordered by name, kind and id.
 */
export async function searchHeld(store: Store, fragment: string, exact: ComponentRef | null): Promise<ComponentRef[]> {
  const prefixes = new Set([fragment]);
  if (exact !== null) {
    const keys = componentSearchKeys(exact);
    prefixes.add(keys.search_id);
    prefixes.add(keys.search_name);
  }
  const found = new Map<string, ComponentRef>();
  for (const list of await Promise.all([...prefixes].map((p) => store.heldByPrefix(p, SEARCH_LIMIT))))
    for (const ref of list) found.set(`${ref.kind}:${ref.id}`, ref);
  const order = (r: ComponentRef) => `${componentSearchKeys(r).search_name}\u0000${r.kind}\u0000${r.id}`;
  return [...found.values()].sort((a, b) => (order(a) < order(b) ? -1 : 1)).slice(0, SEARCH_LIMIT);
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
  } else if (kind === 'github') {
    n = n.replace(/\.git$/, '');
  }
  return normaliseComponent(kind, n);
}

function fromPageAddress(q: string): ComponentRef {
  let url: URL;
  try {
    url = new URL(q);
  } catch {
    throw refused('this address cannot be read as a URL');
  }
  const host = url.hostname.startsWith('www.') ? url.hostname.slice(4) : url.hostname;
  const page = REGISTRY_PAGES[host];
  if (page === undefined || !url.pathname.startsWith(page.prefix))
    throw refused(`an address of ${Object.keys(REGISTRY_PAGES).join(', ')} naming a component is what this reads`);
  const elements = url.pathname
    .slice(page.prefix.length)
    .split('/')
    .filter((e) => e !== '')
    .map(decoded);
  if (page.kind === 'docker') return named('docker', dockerHubImage(elements));
  const taken = page.parts === 0 ? elements : elements.slice(0, page.parts);
  if (taken.length === 0 || taken.length < page.parts) throw refused('the address names no package');
  return named(page.kind, taken.join(page.kind === 'maven' ? ':' : '/'));
}

/** `_/node` → `library/node`, `r/bitnami/redis` → `bitnami/redis` (each at :latest, as `docker pull` takes it). */
function dockerHubImage(elements: string[]): string {
  if (elements[0] === '_' && elements[1] !== undefined) return `library/${elements[1]}`;
  if (elements[0] === 'r' && elements[1] !== undefined && elements[2] !== undefined)
    return `${elements[1]}/${elements[2]}`;
  throw refused('the address names no image: Docker Hub images are at /_/name or /r/namespace/name');
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
