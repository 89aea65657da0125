/**
 * The real sizes the generated registries are drawn at (× a scale): research/registry-feeds.md
 * §0 and §3. Where that page marks a figure unverified, or where a figure here is derived from
 * one there, the comment says so; the benchmark extrapolates from these, so they are kept apart.
 */
import type { FollowedRegistry } from '../../upstreams/following/follower.js';

export interface RegistryShape {
  /** Packages at full size (npm: documents; Go: modules). */
  packages: number;
  /** Feed entries a day at full size (npm: sequence numbers; PyPI: journal rows; Go: versions). */
  entriesPerDay: number;
  /**
   * Feed entries one change of one package makes in a row: npm publishes ~4 seq per changed
   * package (80,000 seq, ~20,000 packages a day), a PyPI release writes a row per file.
   */
  burst: number;
  /** Versions each package had before the simulated start (Go, NuGet: index rows per module, leaves per id). */
  versionsEach: number;
  /** When the registry opened: the oldest package's first publication. */
  epoch: string;
  /** Whether a package can be deleted (the Go proxy never forgets; DESIGN §3). */
  deletes: boolean;
  /** Whether the registry has a flag that retires a package (RubyGems has none). */
  deprecates: boolean;
  /** A deprecation is published as a new version (Go: `// Deprecated:` in the latest go.mod). */
  deprecationPublishes?: boolean;
}

/**
 * Every package that changes at all changes once per round (30 days): the share that changes
 * is set by the registry's daily distinct packages, the rest age from their last publication.
 */
export const ROUND_DAYS = 30;
/** One event in this many creates a new package instead of changing one (unverified, a guess). */
export const CREATE_EVERY = 20;
/** In a round, the share of changing packages whose change is a deletion, and a deprecation. */
export const DELETE_SHARE = 0.005;
export const DEPRECATE_SHARE = 0.01;
/** Packages deprecated before the simulated start. */
export const DEPRECATED_AT_START = 0.03;

export const REGISTRY_SHAPES: Record<FollowedRegistry, RegistryShape> = {
  // 4,250,224 docs and ≈ 80,000 seq (≈ 20,000 packages) a day, 2026-08-01 (third-party, unverified).
  npm: {
    packages: 4_250_224,
    entriesPerDay: 80_000,
    burst: 4,
    versionsEach: 6,
    epoch: '2010-01-12',
    deletes: true,
    deprecates: true,
  },
  // 736,344 projects (unverified); ≈ 15.7k journal rows a day (derived, unverified); a release
  // writes "new release" and a row per file: 4 rows (derived from warehouse's journal actions).
  pypi: {
    packages: 736_344,
    entriesPerDay: 15_700,
    burst: 4,
    versionsEach: 5,
    epoch: '2005-03-14',
    deletes: true,
    deprecates: true,
  },
  // ~200k crates and ~1–3k versions a day: both unverified; 2,000 taken.
  cargo: {
    packages: 200_000,
    entriesPerDay: 2_000,
    burst: 1,
    versionsEach: 6,
    epoch: '2014-11-11',
    deletes: true,
    // crates.io has no flag: a retired crate yanks every version.
    deprecates: true,
  },
  // 16.7M module versions (golang/go#59320, 2023-03), ~11k versions a day (derived); 8 versions a
  // module is our assumption, so 2,087,500 modules.
  golang: {
    packages: 2_087_500,
    entriesPerDay: 11_000,
    burst: 1,
    versionsEach: 8,
    epoch: '2019-04-10',
    deletes: false,
    deprecates: true,
    deprecationPublishes: true,
  },
  // > 500k ids, > 11M versions (unverified): 22 leaves an id; ~3k versions a day (derived, unverified).
  nuget: {
    packages: 500_000,
    entriesPerDay: 3_000,
    burst: 1,
    versionsEach: 22,
    epoch: '2015-02-01',
    deletes: true,
    deprecates: true,
  },
  // ~192,000 gems (unverified), ~1k versions a day (unverified).
  gem: {
    packages: 192_000,
    entriesPerDay: 1_000,
    burst: 1,
    versionsEach: 8,
    epoch: '2009-07-25',
    // A deletion yanks every version.
    deletes: true,
    deprecates: false,
  },
  // 454,128 packages, 5,581,369 versions (2026-05, unverified): 12 an id; changes a day are
  // unknown (research §0): 3,000 taken.
  composer: {
    packages: 454_128,
    entriesPerDay: 3_000,
    burst: 1,
    versionsEach: 12,
    epoch: '2012-04-01',
    deletes: true,
    // Packagist's `abandoned`.
    deprecates: true,
  },
};
