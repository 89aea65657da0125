/**
 * Components: the things we observe, named by kind and a normalised native id.
 *
 * The id is the key of the record, so two spellings of one component must normalise to one
 * id (GitHub names compare case-insensitively, PyPI names per PEP 503, image references per
 * the distribution/reference rules) and normalising an id again must not change it.
 */
import { PackageURL } from 'packageurl-js';
import { ValidationError, quoteInput } from './errors.js';
import { normaliseDockerReference, parseDockerId, DOCKER_HUB } from './docker-reference.js';
import {
  normaliseCargo,
  normaliseComposer,
  normaliseDistro,
  normaliseGem,
  normaliseGolang,
  normaliseMaven,
  normaliseNuget,
} from './package-names.js';

export const COMPONENT_KINDS = [
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
] as const;
export type ComponentKind = (typeof COMPONENT_KINDS)[number];

export function isComponentKind(s: string): s is ComponentKind {
  return (COMPONENT_KINDS as readonly string[]).includes(s);
}

export interface ComponentRef {
  kind: ComponentKind;
  /** Normalised native id; `purl[0]` in every answer. */
  id: string;
}

// GitHub owners: letters, digits and hyphens, never a leading hyphen. Consecutive and
// trailing hyphens are refused for new accounts today but exist on old ones, so we accept them.
const GITHUB_OWNER = /^[A-Z0-9][A-Z0-9-]{0,38}$/i;
const GITHUB_REPO = /^[\w.-]{1,100}$/;
// PEP 508 name, compared case-insensitively.
const PEP508_NAME = /^(?:[A-Z0-9]|[A-Z0-9][\w.-]*[A-Z0-9])$/i;
const NPM_MAX_LENGTH = 214;
const NPM_RESERVED = new Set(['node_modules', 'favicon.ico']);

const EXPECTED: Record<ComponentKind, string> = {
  github:
    'a github component is named owner/repo, for example expressjs/express: an owner of 1 to 39 letters, digits or hyphens, and a repository of 1 to 100 letters, digits, ".", "_" or "-"',
  npm: 'an npm component is named name or @scope/name, for example express or @babel/core: at most 214 URL-safe characters, not starting with "." or "_"',
  pypi: 'a pypi component is named as on PyPI, for example requests: letters, digits, ".", "_" and "-", starting and ending with a letter or digit',
  docker:
    'a docker component is an image reference, for example node, node:18-alpine, bitnami/redis:7 or ghcr.io/owner/image:1',
  maven:
    'a maven component is groupId:artifactId, for example org.apache.commons:commons-lang3: each letters, digits, ".", "_" or "-"',
  golang:
    'a golang component is a module path, for example github.com/sirupsen/logrus or golang.org/x/net: "/"-separated elements of letters, digits, ".", "_", "~" or "-", the first a domain name with a dot',
  cargo: 'a cargo component is a crate name, for example serde: letters, digits, "_" and "-", starting with a letter',
  nuget: 'a nuget component is a package id, for example newtonsoft.json: letters, digits, ".", "_" and "-"',
  gem: 'a gem component is named as on rubygems.org, for example rails: letters, digits, ".", "_" and "-", with at least one letter',
  composer:
    'a composer component is vendor/name as on Packagist, for example monolog/monolog: letters, digits, ".", "_" and "-"',
  distro:
    'a distro component is a distribution release as the end-of-life listing names it, for example debian/12, ubuntu/22.04 or alpine-linux/3.19',
};

function nameError(kind: ComponentKind, raw: string, why?: string): ValidationError {
  return new ValidationError([
    {
      loc: ['name'],
      msg: `${EXPECTED[kind]}; got ${quoteInput(raw)}${why ? ` (${why})` : ''}`,
      type: 'value_error.component_name',
    },
  ]);
}

/** True for a GitHub owner (user or organisation) name; the org read validates its path with it. */
export function isGithubOwner(s: string): boolean {
  return GITHUB_OWNER.test(s);
}

function normaliseGithub(name: string): string | string[] {
  const parts = name.split('/');
  if (parts.length !== 2) return 'expected exactly one "/"';
  const [owner = '', repo = ''] = parts;
  if (!GITHUB_OWNER.test(owner)) return 'the owner is not a GitHub account name';
  if (!GITHUB_REPO.test(repo) || repo === '.' || repo === '..') return 'the repository is not a GitHub repository name';
  // GitHub resolves names case-insensitively; one lower-cased id keeps one record per repository.
  return [`${owner}/${repo}`.toLowerCase()];
}

/** Exactly the characters encodeURIComponent leaves as they are (tested against it): no string is built to compare. */
const URL_SAFE = /^[\w\-.!~*'()]+$/;

function urlSafe(s: string): boolean {
  return URL_SAFE.test(s);
}

/**
 * npm's own rules (validate-npm-package-name, "valid for old packages"): capitals and
 * `~'!()*` are refused for new names but legacy packages such as `JSONStream` still exist,
 * and the registry is case-sensitive, so the name is kept exactly as given.
 */
function normaliseNpm(name: string): string | string[] {
  if (name.length > NPM_MAX_LENGTH) return `longer than ${NPM_MAX_LENGTH} characters`;
  if (name.startsWith('.') || name.startsWith('_')) return 'a name cannot start with "." or "_"';
  if (NPM_RESERVED.has(name.toLowerCase())) return 'a reserved name';
  if (name.startsWith('@')) {
    const m = /^@([^/]+)\/([^/]+)$/.exec(name);
    if (!m || !urlSafe(m[1] ?? '') || !urlSafe(m[2] ?? ''))
      return 'a scoped name is @scope/name with URL-safe characters';
    if (m[2]?.startsWith('.') || m[2]?.startsWith('_')) return 'a name cannot start with "." or "_"';
    return [name];
  }
  if (!urlSafe(name)) return 'only URL-safe characters are allowed';
  return [name];
}

/** PEP 503 normalisation: `re.sub(r"[-_.]+", "-", name).lower()`. */
export function pep503(name: string): string {
  return name.replace(/[-_.]+/g, '-').toLowerCase();
}

function normalisePypi(name: string): string | string[] {
  if (!PEP508_NAME.test(name)) return 'not a PEP 508 project name';
  return [pep503(name)];
}

/** Each kind's own rules: the normalised id, or why the name is not one. */
const NORMALISE: Record<ComponentKind, (name: string) => string | string[]> = {
  github: normaliseGithub,
  npm: normaliseNpm,
  pypi: normalisePypi,
  docker: normaliseDockerReference,
  maven: normaliseMaven,
  golang: normaliseGolang,
  cargo: normaliseCargo,
  nuget: normaliseNuget,
  gem: normaliseGem,
  composer: normaliseComposer,
  distro: normaliseDistro,
};

/**
 * Normalises a user-given component. Throws a ValidationError at `['kind']` listing the
 * accepted kinds, or at `['name']` saying which shape that kind expects.
 */
export function normaliseComponent(kind: string, name: string): ComponentRef {
  const k = typeof kind === 'string' ? kind.trim().toLowerCase() : '';
  if (!isComponentKind(k)) {
    throw new ValidationError([
      {
        loc: ['kind'],
        msg: `kind must be one of ${COMPONENT_KINDS.join(', ')}; got ${quoteInput(String(kind))}`,
        type: 'value_error.component_kind',
      },
    ]);
  }
  if (typeof name !== 'string') throw nameError(k, String(name), 'not a string');
  // Surrounding whitespace is never part of any of these ids; it comes from pasted lists.
  const n = name.trim();
  if (n === '') throw nameError(k, name, 'empty');
  const result = NORMALISE[k](n);
  if (typeof result === 'string') throw nameError(k, name, result);
  return { kind: k, id: result[0] ?? '' };
}

/** `[native id, pkg: purl]`: index 0 never changes form, so URLs keyed on it never break. */
export function componentPurls(ref: ComponentRef): [string, string] {
  if (ref.kind !== 'docker' && ref.kind !== 'distro' && PLAIN_ID.test(ref.id))
    return [ref.id, `pkg:${ref.kind}/${ref.id}`];
  return [ref.id, toPurl(ref).toString()];
}

/*
 * Plain purls: a type, at most one namespace segment, a name and maybe a version, each made only
 * of characters the purl spec neither escapes nor case-folds. For these packageurl-js's parse and
 * print are the identity on every part, so they are read and written directly: an SBOM carries
 * thousands of them and the library costs ~10 µs each. Anything else (escapes, an npm scope,
 * qualifiers, a subpath, upper case, a PyPI "_") goes through packageurl-js. A property test holds
 * both paths to the same answers. (purl-component.ts reads them.)
 */
const PLAIN_ID = /^[a-z0-9.-]+(?:\/[a-z0-9.-]+)?$/;

function toPurl(ref: ComponentRef): PackageURL {
  switch (ref.kind) {
    case 'github': {
      const [owner, repo] = ref.id.split('/');
      return new PackageURL('github', owner, repo ?? '');
    }
    case 'npm': {
      // The purl spec percent-encodes the scope's "@" (pkg:npm/%40scope/name) and
      // lower-cases the name; packageurl-js does both.
      const slash = ref.id.indexOf('/');
      return ref.id.startsWith('@') && slash > 0
        ? new PackageURL('npm', ref.id.slice(0, slash), ref.id.slice(slash + 1))
        : new PackageURL('npm', null, ref.id);
    }
    case 'pypi':
      return new PackageURL('pypi', null, ref.id);
    case 'maven': {
      const colon = ref.id.indexOf(':');
      return new PackageURL('maven', ref.id.slice(0, colon), ref.id.slice(colon + 1));
    }
    case 'golang': {
      const slash = ref.id.lastIndexOf('/');
      return new PackageURL('golang', ref.id.slice(0, slash), ref.id.slice(slash + 1));
    }
    case 'gem':
      return new PackageURL('gem', null, ref.id);
    case 'cargo':
      return new PackageURL('cargo', null, ref.id);
    case 'nuget':
      return new PackageURL('nuget', null, ref.id);
    case 'composer': {
      const slash = ref.id.indexOf('/');
      return new PackageURL('composer', ref.id.slice(0, slash), ref.id.slice(slash + 1));
    }
    case 'distro': {
      // No purl type names an OS release; the generic one carries its name and version.
      const slash = ref.id.indexOf('/');
      return new PackageURL('generic', null, ref.id.slice(0, slash), ref.id.slice(slash + 1));
    }
    case 'docker': {
      const r = parseDockerId(ref.id);
      const slash = r.path.lastIndexOf('/');
      const namespace = slash >= 0 ? r.path.slice(0, slash) : null;
      const name = r.path.slice(slash + 1);
      // purl docker: the version is the tag or the digest; the registry goes in
      // repository_url unless it is Docker Hub. With both a tag and a digest the digest is
      // what is pulled, so it is the version and the tag rides along as a qualifier.
      const qualifiers: Record<string, string> = {};
      if (r.domain !== DOCKER_HUB) qualifiers['repository_url'] = r.domain;
      if (r.digest && r.tag) qualifiers['tag'] = r.tag;
      return new PackageURL(
        'docker',
        namespace,
        name,
        r.digest ?? r.tag ?? null,
        Object.keys(qualifiers).length > 0 ? qualifiers : null,
      );
    }
  }
}

/**
 * The owner namespace of a component: the GitHub owner (what the org read groups by), an
 * npm scope (`@babel`), or an image's registry and namespace (`docker.io/bitnami`). Kinds
 * without one (unscoped npm names, PyPI) give '' rather than a guess.
 */
export function componentOwner(ref: ComponentRef): string {
  switch (ref.kind) {
    case 'github':
      return ref.id.slice(0, ref.id.indexOf('/'));
    case 'npm':
      return ref.id.startsWith('@') ? ref.id.slice(0, ref.id.indexOf('/')) : '';
    case 'pypi':
    case 'golang':
    case 'gem':
    case 'cargo':
    case 'nuget':
      return '';
    case 'distro':
    case 'composer':
      return ref.id.slice(0, ref.id.indexOf('/'));
    case 'maven':
      return ref.id.slice(0, ref.id.indexOf(':'));
    case 'docker': {
      const r = parseDockerId(ref.id);
      return `${r.domain}/${r.path.slice(0, Math.max(0, r.path.lastIndexOf('/')))}`.replace(/\/$/, '');
    }
  }
}

/**
 * What a reader's search is matched against, lower-cased: the component's own name (an npm or
 * Composer package without its scope or vendor, a Maven artifact without its group, a repository
 * or module path's last element, an image's name and tag; a distribution release whole) and its
 * whole id. Searching `rocket` then finds `rocket-rs`, `org.acme:rocket-core` and `acme/rocket`.
 */
export function componentSearchKeys(ref: ComponentRef): { search_name: string; search_id: string } {
  const id = ref.id.toLowerCase();
  const name = ref.kind === 'distro' ? id : ref.kind === 'maven' ? afterLast(id, ':') : afterLast(id, '/');
  return { search_name: name, search_id: id };
}

const afterLast = (s: string, separator: string) => s.slice(s.lastIndexOf(separator) + 1);

/**
 * Native ids grouped by kind: lookups of many components ask `kind = ? AND native_id IN (…)` per
 * kind, which both backends answer from the (kind, native_id) index (an OR of pairs makes them scan).
 */
export function nativeIdsByKind(refs: Iterable<ComponentRef>): Map<ComponentRef['kind'], string[]> {
  const byKind = new Map<ComponentRef['kind'], string[]>();
  for (const ref of refs) {
    const ids = byKind.get(ref.kind);
    if (ids) ids.push(ref.id);
    else byKind.set(ref.kind, [ref.id]);
  }
  return byKind;
}
