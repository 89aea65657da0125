/**
 * The name rules of the package registries Tended reads beyond npm and PyPI, and of distribution
 * releases: each turns a name into the component's normalised id, or says why it is not one.
 * component.ts dispatches to them by kind.
 */
import { DISTRO_PRODUCTS } from './distro-release.js';

/** The longest groupId or artifactId accepted: a pom.xml expands its properties no further than this. */
export const MAVEN_PART_MAX = 200;
// Maven coordinates: what Maven itself accepts in a groupId or artifactId (ids are case-sensitive).
const MAVEN_PART = new RegExp(`^[\\w.-]{1,${MAVEN_PART_MAX}}$`);

/** `groupId:artifactId`, also written `groupId/artifactId` (the purl's form); kept as given, Maven is case-sensitive. */
export function normaliseMaven(name: string): string | string[] {
  const parts = name.includes(':') ? name.split(':') : name.split('/');
  if (parts.length !== 2) return 'expected groupId:artifactId';
  const [group = '', artifact = ''] = parts;
  if (!MAVEN_PART.test(group) || !MAVEN_PART.test(artifact)) return 'a groupId or artifactId with other characters';
  return [`${group}:${artifact}`];
}

// Go module path elements (golang.org/x/mod/module.CheckPath): ASCII letters, digits and -._~.
const GO_ELEMENT = /^[\w.~-]{1,100}$/;
const GO_MAX_LENGTH = 500;

/**
 * A Go module path, kept as given: the module proxy is case-sensitive (it escapes capitals as
 * `!x`), and some SBOM writers lower-case Go purls, so folding case would name another module.
 */
export function normaliseGolang(name: string): string | string[] {
  if (name.length > GO_MAX_LENGTH) return `longer than ${GO_MAX_LENGTH} characters`;
  const elements = name.split('/');
  if (elements.some((e) => !GO_ELEMENT.test(e) || e.startsWith('.') || e.endsWith('.')))
    return 'an empty element, or one with characters a module path cannot hold';
  if (!elements[0]!.includes('.')) return 'the first element must be a domain name such as github.com';
  return [name];
}

// crates.io names: ASCII letters, digits, "_" and "-", starting with a letter, at most 64 long.
const CRATE_NAME = /^[a-z][\w-]{0,63}$/;

/** Lower-cased: crates.io compares names without case, and its index files are named in lower case. */
export function normaliseCargo(name: string): string | string[] {
  const n = name.toLowerCase();
  if (!CRATE_NAME.test(n)) return 'not a crates.io name';
  return [n];
}

// NuGet ids: letters, digits, ".", "_" and "-", at most 100 long (NuGet.Packaging's id rules).
const NUGET_ID = /^[\w.-]{1,100}$/;

/** Lower-cased: NuGet ids compare without case, and every V3 URL names the lower-cased id. */
export function normaliseNuget(name: string): string | string[] {
  const n = name.toLowerCase();
  if (!NUGET_ID.test(n) || !/[a-z0-9]/.test(n)) return 'not a NuGet package id';
  return [n];
}

// rubygems.org's Rubygem::NAME_PATTERN, and at least one letter; names are kept as given.
const GEM_NAME = /^[\w.-]{1,100}$/;

export function normaliseGem(name: string): string | string[] {
  if (!GEM_NAME.test(name) || !/[a-z]/i.test(name)) return 'not a RubyGems name';
  return [name];
}

// Packagist names (compared in lower case): vendor/name, each starting with a letter or digit.
const COMPOSER_PART = /^[a-z0-9][\w.-]{0,99}$/;

export function normaliseComposer(name: string): string | string[] {
  const parts = name.toLowerCase().split('/');
  if (parts.length !== 2 || !parts.every((p) => COMPOSER_PART.test(p))) return 'expected vendor/name';
  return [parts.join('/')];
}

const DISTRO_RELEASE = /^[a-z0-9][a-z0-9.]{0,19}$/;

/** `product/release`, lower-cased: the listing's own names. */
export function normaliseDistro(name: string): string | string[] {
  const [product = '', release, ...rest] = name.toLowerCase().split('/');
  if (release === undefined || rest.length > 0) return 'expected product/release';
  if (!DISTRO_PRODUCTS.has(product)) return `the product is not one of ${[...DISTRO_PRODUCTS].join(', ')}`;
  if (!DISTRO_RELEASE.test(release)) return 'the release is letters, digits and dots';
  return [`${product}/${release}`];
}
