import type { ComponentRef } from '../domain/component.js';
import type { EvidenceValue } from '../domain/observation.js';

/**
 * The watch list's part of the store port (Store extends it): watching and claiming components,
 * discovery of names and owners, and the conditional-request cache.
 */
export interface WatchStore {
  /** Adds components to the watch list, due at once (`now`); returns how many were not watched yet. */
  watchAdd(refs: ComponentRef[], now: string): Promise<number>;
  /** Removes a component from the watch list; false when it was not on it. Its record stays. */
  watchRemove(ref: ComponentRef): Promise<boolean>;
  watchList(): Promise<WatchEntry[]>;
  /**
   * Claims up to `limit` watched components due at `now`, until `leaseUntil`. Claimers racing on
   * any number of connections never get the same component while its lease runs.
   */
  claimDue(now: string, limit: number, leaseUntil: string): Promise<ComponentRef[]>;
  /**
   * Keeps running claims alive until `leaseUntil` (a worker still reading them renews its lease,
   * so a short lease frees a dead worker's claims soon). A claim already ended stays ended.
   */
  extendClaims(refs: ComponentRef[], leaseUntil: string): Promise<void>;
  /** Ends claims: the components are next due at `nextDue`. */
  releaseWatch(refs: ComponentRef[], nextDue: string): Promise<void>;
  /** The watch list's figures at `now`, for the operator's metrics: one query, nothing written. */
  queueFigures(now: string): Promise<QueueFigures>;
  /**
   * Discovery: which of `refs` are on the watch list and, with `options.add`, puts the others on
   * it marked discovered, due at `at`, up to `options.dailyCap` names per UTC day across every
   * process sharing the store (new names, or with `options.countAsked` every name asked). Keeps
   * the name and nothing about who asked.
   */
  queueDiscovered(refs: ComponentRef[], at: string, options: QueueOptions): Promise<QueueOutcome>;
  /**
   * Which of `refs` (as `kind:id`) were discovered and not yet shown public (the record holds no
   * observation of them), each with the instant it was queued.
   */
  unconfirmedDiscoveries(refs: ComponentRef[]): Promise<Map<string, string>>;
  /**
   * Forgets discovered names that no read has shown public, with the conditional-request cache of
   * `urls`: no row names them afterwards. Returns how many were forgotten.
   */
  dropDiscovered(refs: ComponentRef[], urls: string[]): Promise<number>;
  /**
   * Queues a GitHub owner an org read named: one name against the day's `dailyCap`, whether or not
   * it was queued already (so the answer does not tell), or 'over_cap' when the day is spent.
   */
  queueOwner(owner: string, at: string, dailyCap: number): Promise<'queued' | 'listed' | 'over_cap'>;
  /** Queued owners whose public repositories are due to be listed at `at`. */
  dueOwners(at: string, limit: number): Promise<string[]>;
  /** Forgets a listed owner, or (with `retryAt`) makes it due again then. */
  finishOwner(owner: string, retryAt: string | null): Promise<void>;
  /** Validators and extracted facts of an upstream URL's last full answer (conditional requests). */
  cacheGet(url: string): Promise<CachedAnswer | null>;
  cacheSet(url: string, entry: CachedAnswer): Promise<void>;
}

export interface WatchEntry {
  component: ComponentRef;
  added_at: string;
  due_at: string;
  claimed_until: string | null;
  /** A read queued it (discovery) rather than an operator. */
  discovered: boolean;
  /** Discovered and not yet shown public by a read: nothing of it is published until one does. */
  unconfirmed: boolean;
}

export interface QueueFigures {
  /** Components on the watch list, watched or discovered. */
  watched: number;
  /** Due at `now` and not claimed: what the observer has yet to read. */
  due: number;
  /** Claimed by a worker whose lease still runs. */
  claimed: number;
  /** Discovered and not yet shown public by a read. */
  unconfirmed: number;
  /** Names discovery queued on `now`'s UTC day, counted against TENDED_DISCOVERY_DAILY. */
  discoveredToday: number;
}

export interface QueueOptions {
  /** false: only say which are listed, add nothing. */
  add: boolean;
  /** Names a UTC day may add, counted across the deployment. */
  dailyCap: number;
  /**
   * A client's request (DESIGN §8c): every asked name counts against the day, listed before or
   * not, and the first names the day has room for are the ones listed, so the outcome tells
   * nothing about what others asked. Otherwise (the observer listing an owner's repositories)
   * only names added count, and names listed before are always listed.
   */
  countAsked?: boolean;
}

export interface QueueOutcome {
  /** `kind:id` of every asked component now on the watch list (added now or before; with countAsked, those the day had room for). */
  listed: Set<string>;
  /** How many were added now. */
  added: number;
  /** How many were not added (with countAsked: not listed) because the day's bound was reached. */
  over_cap: number;
}

export interface CachedAnswer {
  etag: string | null;
  last_modified: string | null;
  facts: EvidenceValue;
}
