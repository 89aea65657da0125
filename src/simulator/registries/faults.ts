/**
 * The feeds' known faults (research/registry-feeds.md §1), each switched on per test. Which
 * events a fault touches is drawn from the seed, so a test knows them too (FeedFaults are pure).
 */

export interface FeedFaults {
  npm?: {
    /** A share of entries appear behind a returned last_seq: visible only `delayMs` after their seq is assigned. */
    lateInsertion?: { share: number; delayMs: number };
    /** A share of changes never appear in the feed at any seq (the package's document still changes). */
    lostEvents?: { share: number };
    /**
     * From event `atEvent` on, the head drops by `drop` seq: entries above the new head are gone,
     * and new entries are numbered from it (the 2025 migration's ~20 million).
     */
    headRegression?: { atEvent: number; drop: number };
    /** A hostile feed: every `_changes` page holds `rows` made-up rows, whatever `limit` asked. */
    oversizedPage?: { rows: number };
    /** A hostile feed: every `_changes` page answers `last_seq` = `since`, however full the page. */
    stuckCursor?: boolean;
  };
  composer?: {
    /** Every changes.json answer is `resync`, whatever `since` says (the log was lost). */
    resync?: boolean;
  };
  nuget?: {
    /**
     * Commits hold `commitSize` items written one by one: a page read while a commit is being
     * written shows part of it, and later gains the rest under the same commitTimeStamp.
     */
    midWrite?: { commitSize: number };
  };
}

/** Salts of the fault draws (shared with tests that need to know which events a fault hit). */
export const FAULT_SALT = { late: 101, lost: 103 } as const;
