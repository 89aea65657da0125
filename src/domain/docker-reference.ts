/**
 * Container image references, after the grammar of github.com/distribution/reference
 * (reference.go, normalize.go), normalised to `registry/namespace/name:tag` or
 * `registry/namespace/name[:tag]@digest`.
 */

export const DOCKER_HUB = 'docker.io';
// Both are older spellings of Docker Hub that `docker pull` still accepts.
const HUB_ALIASES = new Set(['index.docker.io', 'registry-1.docker.io']);

const ALNUM = '[a-z0-9]+';
const SEPARATOR = '(?:[._]|__|-+)';
const PATH_COMPONENT = `${ALNUM}(?:${SEPARATOR}${ALNUM})*`;
// Domain, tag and digest are case-insensitive (the `i` flag of REFERENCE and DOMAIN_ONLY); a path is lower case.
const DOMAIN_COMPONENT = '(?:[a-z0-9]|[a-z0-9][a-z0-9-]*[a-z0-9])';
const HOST = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[a-f0-9:]+\\])`;
const DOMAIN = `${HOST}(?::\\d+)?`;
const TAG = '\\w[\\w.-]{0,127}';
const DIGEST = '[a-z][a-z0-9]*(?:[-_+.][a-z][a-z0-9]*)*:[0-9a-f]{32,}';

/** name [":" tag] ["@" digest], where name = [domain "/"] path; the path is checked apart for a better message. */
const REFERENCE = new RegExp(`^((?:${DOMAIN}/)?[^:@]+)(?::(${TAG}))?(?:@(${DIGEST}))?$`, 'i');
const PATH = new RegExp(`^${PATH_COMPONENT}(?:/${PATH_COMPONENT})*$`);
const DOMAIN_ONLY = new RegExp(`^${DOMAIN}$`, 'i');
// A bare 64-hex string is an image ID, not a name; distribution refuses it as a name.
const IMAGE_ID = /^[a-f0-9]{64}$/;
const NAME_MAX_LENGTH = 255;

export interface DockerReference {
  domain: string;
  /** Repository path under the registry, e.g. `library/node`. */
  path: string;
  tag: string | null;
  digest: string | null;
}

/**
 * Splits off the registry the way `docker` does: the first path segment is a registry only
 * when it has a "." or ":", is `localhost`, or has capitals (a repository path never does).
 */
function splitDomain(name: string): { domain: string; path: string } {
  const i = name.indexOf('/');
  const first = i === -1 ? '' : name.slice(0, i);
  if (i === -1 || (!/[.:]/.test(first) && first !== 'localhost' && first.toLowerCase() === first)) {
    return { domain: DOCKER_HUB, path: name };
  }
  return { domain: first, path: name.slice(i + 1) };
}

function normaliseDomain(domain: string): string {
  // Host names are case-insensitive: one spelling keeps one record per image.
  const d = domain.toLowerCase();
  return HUB_ALIASES.has(d) ? DOCKER_HUB : d;
}

/** Parses a reference; returns a reason string when it is not one. */
export function parseDockerReference(raw: string): DockerReference | string {
  const m = REFERENCE.exec(raw);
  if (!m) {
    if (/[A-Z]/.test(raw.replace(/^[^/]*\//, ''))) return 'a repository name must be lower case';
    return 'not an image reference';
  }
  const [, name = '', tag, digest] = m;
  if (name.length > NAME_MAX_LENGTH) return `the repository name is longer than ${NAME_MAX_LENGTH} characters`;
  if (IMAGE_ID.test(name)) return 'a 64-character hex string is an image ID, not a name';
  const split = splitDomain(name);
  if (split.domain !== DOCKER_HUB && !DOMAIN_ONLY.test(split.domain)) return 'the registry is not a host name';
  // docker reads `Foo/bar` as registry host `Foo` only because of the capital; that is a
  // mistyped repository far more often than a registry, and lower-casing it would turn it
  // into a Docker Hub name, so it is refused.
  if (split.domain !== DOCKER_HUB && !/[.:]/.test(split.domain) && split.domain.toLowerCase() !== 'localhost') {
    return 'a repository name must be lower case';
  }
  if (/[A-Z]/.test(split.path)) return 'a repository name must be lower case';
  if (!PATH.test(split.path))
    return 'the repository path is not lower-case letters and digits joined by ".", "_", "__", "-" or "/"';
  const domain = normaliseDomain(split.domain);
  let path = split.path;
  // Official images live under library/ on Docker Hub: `node` is `docker.io/library/node`.
  if (domain === DOCKER_HUB && !path.includes('/')) path = `library/${path}`;
  let d: string | null = null;
  if (digest) {
    const colon = digest.indexOf(':');
    const algorithm = digest.slice(0, colon).toLowerCase();
    const hex = digest.slice(colon + 1).toLowerCase();
    if (algorithm === 'sha256' && hex.length !== 64) return 'a sha256 digest has 64 hex digits';
    if (algorithm === 'sha512' && hex.length !== 128) return 'a sha512 digest has 128 hex digits';
    // OCI requires lower-case hex; folding it keeps one id per digest.
    d = `${algorithm}:${hex}`;
  }
  return { domain, path, tag: tag ?? null, digest: d };
}

export function formatDockerReference(r: DockerReference): string {
  const base = `${r.domain}/${r.path}`;
  if (r.digest) return `${base}${r.tag ? `:${r.tag}` : ''}@${r.digest}`;
  // A reference without tag or digest pulls :latest, so that is what we observe.
  return `${base}:${r.tag ?? 'latest'}`;
}

/** `[id]` when the reference is valid, else the reason it is not. */
export function normaliseDockerReference(raw: string): string | [string] {
  const r = parseDockerReference(raw);
  return typeof r === 'string' ? r : [formatDockerReference(r)];
}

/** Parses an id that `normaliseDockerReference` produced; throws if it did not. */
export function parseDockerId(id: string): DockerReference {
  const r = parseDockerReference(id);
  if (typeof r === 'string') throw new RangeError(`not a normalised docker id: ${id.slice(0, 80)}`);
  return r;
}
