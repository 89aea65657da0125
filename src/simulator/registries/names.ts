/**
 * Generated package names: each registry's own shape, with the package's number zero-padded so
 * that name order is number order (listings served sorted by name need no sort, and a follower
 * resuming "after the last name" resumes after the last number).
 */
import type { FollowedRegistry } from '../../upstreams/following/follower.js';

const WIDTH = 8;
/** npm: one name in NPM_SCOPED_EVERY is scoped, so `@scope%2fname` is exercised at scale. */
const NPM_SCOPED_EVERY = 9;

function pad(i: number): string {
  return String(i).padStart(WIDTH, '0');
}

export function generatedName(registry: FollowedRegistry, i: number): string {
  switch (registry) {
    case 'npm':
      return i % NPM_SCOPED_EVERY === 4 ? `@gen-scope${i % 53}/pkg-${pad(i)}` : `gen-npm-${pad(i)}`;
    case 'pypi':
      return `gen-py-${pad(i)}`;
    case 'cargo':
      return `gen-crate-${pad(i)}`;
    case 'golang':
      return `example.com/gen/m${pad(i)}`;
    case 'nuget':
      // NuGet keeps an id's casing for display; every V3 URL names it lower-cased.
      return `Gen.Package${pad(i)}`;
    case 'gem':
      return `gen-gem-${pad(i)}`;
    case 'composer':
      return `gen-vendor/package-${pad(i)}`;
  }
}

/** The number a generated name ends with (at least WIDTH digits), or null; the caller checks the whole name round-trips. */
export function indexOfName(name: string): number | null {
  let i = name.length;
  while (i > 0 && name.charCodeAt(i - 1) >= 48 && name.charCodeAt(i - 1) <= 57) i--;
  return name.length - i >= WIDTH ? Number(name.slice(i)) : null;
}
