/**
 * Every package registry Tended reads, by kind: the one map the readers, the followers, the
 * follow loop's periods and the feeds' budgets and page caps are built from (registry.ts says
 * what a registry's folder exports). Adding a registry is adding its folder and its line here.
 */
import type { BudgetedUpstream } from './http/budget-limits.js';
import { CARGO_REGISTRY } from './cargo/registry.js';
import { COMPOSER_REGISTRY } from './composer/registry.js';
import { FOLLOWED_REGISTRIES, type FollowedRegistry } from './following/follower.js';
import { GEM_REGISTRY } from './gem/registry.js';
import { GOLANG_REGISTRY } from './golang/registry.js';
import { MAVEN_REGISTRY } from './maven/registry.js';
import { NPM_REGISTRY } from './npm/registry.js';
import { NUGET_REGISTRY } from './nuget/registry.js';
import { PYPI_REGISTRY } from './pypi/registry.js';
import type { PackageKind, PackageRegistry, RegistryFollowing } from './registry.js';

export const PACKAGE_REGISTRIES: Readonly<Record<PackageKind, PackageRegistry>> = {
  npm: NPM_REGISTRY,
  pypi: PYPI_REGISTRY,
  maven: MAVEN_REGISTRY,
  golang: GOLANG_REGISTRY,
  cargo: CARGO_REGISTRY,
  nuget: NUGET_REGISTRY,
  gem: GEM_REGISTRY,
  composer: COMPOSER_REGISTRY,
};

/** Each followed registry's following, from the map (a followed registry without one fails at start, loudly). */
export const FOLLOWING: Readonly<Record<FollowedRegistry, RegistryFollowing>> = Object.fromEntries(
  FOLLOWED_REGISTRIES.map((r) => {
    const following = PACKAGE_REGISTRIES[r].following;
    if (following?.registry !== r)
      throw new Error(`${r} is listed as followed but its folder exports no following for it`);
    return [r, following];
  }),
) as Record<FollowedRegistry, RegistryFollowing>;

/** The host each registry's feed and listing are read from, as its budget is named. */
export const FEED_BUDGETS: Readonly<Record<FollowedRegistry, BudgetedUpstream>> = Object.fromEntries(
  FOLLOWED_REGISTRIES.map((r) => [r, FOLLOWING[r].budget]),
) as Record<FollowedRegistry, BudgetedUpstream>;

/** How long a follower waits between passes, by registry (each folder's registry.ts says why). */
export const FOLLOW_PASS_MS: Readonly<Record<FollowedRegistry, number>> = Object.fromEntries(
  FOLLOWED_REGISTRIES.map((r) => [r, FOLLOWING[r].passEveryMs]),
) as Record<FollowedRegistry, number>;

/**
 * Registries whose listing names each package once, with the marker its feed gives it (npm's rev,
 * RubyGems' /info checksum) or with none (Packagist's names): a re-listing after a break in the
 * feed can be compared with what was held. The others list history (Go's index, NuGet's catalog:
 * a package's old versions too) or mark otherwise (crates.io's dump a time, its feed a version),
 * and hint from their own listing what changed after the break (PyPI's serials, the dump's times).
 */
export const COMPARABLE_LISTINGS: ReadonlySet<FollowedRegistry> = new Set(
  FOLLOWED_REGISTRIES.filter((r) => FOLLOWING[r].comparableListing),
);
