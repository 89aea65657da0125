/**
 * The followers' port: what a follower of a whole registry says. A follower lists a registry and
 * follows its change feed; it never reads a package and never makes an observation (DESIGN §8a:
 * a feed event is a hint, its silence asserts nothing). Its output is a stream of batches, each
 * with the cursor to commit once the batch is handled, so a scheduler can make the hinted
 * packages due and a restart resumes after the last batch it handled: nothing lost, nothing twice.
 */
import type { ComponentRef } from '../../domain/component.js';

/** The registries that publish a feed (DESIGN §8a), named as the component kinds they hold. */
export const FOLLOWED_REGISTRIES = ['npm', 'pypi', 'cargo', 'golang', 'nuget', 'gem', 'composer'] as const;
export type FollowedRegistry = (typeof FOLLOWED_REGISTRIES)[number];

/** Where each registry's feed and listing are served: the hosts of research/registry-feeds.md §1. */
export type FeedUrls = Record<FollowedRegistry, string>;

/** "Package P of registry R changed on day D": make it due that day; never a state. */
export interface ChangeHint {
  component: ComponentRef;
  /** The UTC date of the change: the feed's own time where it gives one, else the day it was read. */
  changed_on: string;
  /**
   * What the feed said the package is now (npm's rev, PyPI's serial, a version…), so a scheduler
   * can tell a hint it has already acted on; null where the feed says nothing of the kind.
   */
  marker: string | null;
  /** The feed called it a removal (npm `deleted`, PyPI "remove project"…): a read still decides. */
  removal: boolean;
}

/** One package a listing names, with the feed's marker for it (null where the listing gives none). */
export interface ListedPackage {
  component: ComponentRef;
  marker: string | null;
}

/**
 * Why a follower re-lists: its first backfill, a contiguity fault it cannot follow across, or the
 * periodic deep listing that catches what a trailing window is too short for.
 */
export type RelistReason = 'backfill' | 'periodic' | ContiguityFault;

/**
 * A break in the feed's contiguity (DESIGN §8a "Feed health"): the cursor regressed (npm's head),
 * the follower fell out of a window the feed keeps (Packagist's 24 hours, crates.io's RSS), the
 * feed said `resync`, or a file it read by offset was rebuilt (RubyGems' month).
 */
export const CONTIGUITY_FAULTS = [
  'head_regression',
  'cursor_regressed',
  'fell_out_of_window',
  'resync',
  'rebuilt',
] as const;
export type ContiguityFault = (typeof CONTIGUITY_FAULTS)[number];

export function isContiguityFault(reason: string): reason is ContiguityFault {
  return (CONTIGUITY_FAULTS as readonly string[]).includes(reason);
}

/**
 * An answer the follower refuses to follow on (DESIGN §8a "Feed health"): a page holding more rows
 * than it asked for, or a position that would not move on. Re-listing cannot cure either (the same
 * upstream answers it): the pass ends where it was, the follower says so, and backs off.
 */
export const REFUSED_FEED_FAULTS = ['oversized_page', 'stuck_cursor'] as const;
export type RefusedFeedFault = (typeof REFUSED_FEED_FAULTS)[number];

export function isRefusedFeedFault(kind: string): kind is RefusedFeedFault {
  return (REFUSED_FEED_FAULTS as readonly string[]).includes(kind);
}

export interface FeedFault {
  kind: ContiguityFault | RefusedFeedFault | 'late_insertion' | 'gap_pending' | 'unreachable';
  /** One sentence an operator can act on. */
  detail: string;
  /** When it was seen (the follower's clock). */
  at: string;
}

export interface FollowBatch {
  registry: FollowedRegistry;
  /** A page of the listing (backfill or re-list) or a step of the feed. */
  step: 'listing' | 'following';
  /** Why the registry is being listed; null while following. */
  relist: RelistReason | null;
  hints: ChangeHint[];
  listed: ListedPackage[];
  faults: FeedFault[];
  /**
   * This batch continued from the committed cursor with nothing the feed could have skipped
   * (a listing page is contiguous; a step after a fault is not).
   */
  contiguous: boolean;
  /** Commit this once the batch is handled; a pass started from it continues after this batch. */
  cursor: string;
  /** The last batch of a pass: the feed had nothing newer, or could not be read (see faults). */
  caught_up: boolean;
}

export interface Follower {
  readonly registry: FollowedRegistry;
  /** One pass from a committed cursor (null: never followed) until the feed is caught up. */
  pass(cursor: string | null): AsyncGenerator<FollowBatch>;
}
