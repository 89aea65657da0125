import type { Census, NewCensus } from '../domain/census.js';
import type { FollowStore } from './follow-records.js';
import type { ComponentRef } from '../domain/component.js';
import type { StateChange, StateChangeQuery } from './state-change.js';
import type { NewObservation, Observation, SeriesEntry } from '../domain/observation.js';
import type { DsseEnvelope } from '../notary/dsse.js';
import type { HeadBlock } from '../notary/head.js';
import type { KeySetDocument } from '../notary/key-set.js';
import type { Hash } from '../notary/hash.js';
import type { SubscriptionStore } from './subscription-records.js';
import type { WatchStore } from './watch-records.js';
import type { NodeCoord } from '../notary/merkle.js';

/**
 * The store port. Two adapters (SQLite, PostgreSQL) implement it with the same query code and are
 * run by one contract suite (test/store-contract.ts). Only operations/ calls the write methods.
 */
export interface Store extends FollowStore, SubscriptionStore, WatchStore {
  readonly backend: 'sqlite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** Throws when the database cannot be reached. */
  ping(): Promise<void>;

  /** Seals the empty log's first head (size 0) once, so the chain of heads has a start. */
  initialiseLog(seal: HeadSealer): Promise<HeadBlock>;
  /**
   * Appends observations as leaves of the log and seals one new head, all in one transaction:
   * every observation with its leaf, tree nodes and the head, or nothing. Appends are serialised.
   */
  appendObservations(observations: NewObservation[], seal: HeadSealer): Promise<AppendResult>;
  /**
   * Appends leaves whose exact bytes come from an export. The bytes are stored verbatim; each
   * must decode to an observation record. Same all-or-nothing rule as appendObservations.
   */
  importLeaves(leaves: ImportedLeaf[], seal: HeadSealer): Promise<AppendResult>;
  /** Appends census reads as leaves, with one new head; same all-or-nothing rule. */
  appendCensus(census: NewCensus[], seal: HeadSealer): Promise<AppendResult>;
  /**
   * Appends one version of the verdict key set: its row and a leaf holding its digest, with one new
   * head, all or nothing. The version must be the next one (1 for the first); a racing writer that
   * got there first makes this throw KeySetConflictError, and nothing is written.
   */
  appendKeySet(keySet: NewKeySet, seal: HeadSealer): Promise<AppendResult>;
  /** Every key-set version held, oldest first (a published version is never removed). */
  keySets(): Promise<StoredKeySet[]>;
  /** The component's latest census, or null when its dependents were never read. */
  latestCensus(ref: ComponentRef): Promise<Census | null>;
  /**
   * The leaf index of the component's latest census, or null when none is held: what a page
   * computed from latestCensus(ref) depends on. Same freshness rule as componentVersion.
   */
  censusVersion(ref: ComponentRef): Promise<number | null>;
  /**
   * Components of `kind` whose latest census counted at least `minDependents` dependents (a failed
   * read, null, never qualifies), ordered by id: the packages that get a human page.
   */
  adoptedComponents(kind: ComponentRef['kind'], minDependents: number): Promise<AdoptedComponent[]>;
  /**
   * The packages with a page (latest census at least `minDependents`) strictly after `after` in
   * (kind, id) byte order, at most `limit`: one range read of an index, so a sitemap or a census
   * pages through millions by key in bounded reads. Each with its latest reading's date.
   */
  adoptedPage(after: ComponentRef | null, minDependents: number, limit: number): Promise<AdoptedPage[]>;
  /**
   * Components of `kinds` the record holds a reading of (a queued name never shown public is not
   * held) strictly after `after` in (kind, id) byte order, at most `limit`, each with its latest
   * reading's date: the pages of the kinds with no census (repositories, images, releases), walked
   * by key as adoptedPage walks the packages.
   */
  heldPage(kinds: readonly ComponentRef['kind'][], after: ComponentRef | null, limit: number): Promise<HeldPage[]>;
  /** How many packages have a page (latest census at least `minDependents`). */
  adoptedCount(minDependents: number): Promise<number>;
  /**
   * Which of `refs` (as `kind:id`) the census counts: watched, and not a discovered name no read
   * has shown public.
   */
  watchedAmong(refs: ComponentRef[]): Promise<Set<string>>;
  /**
   * Watched components of `kind` the census counts whose dependents were never read, after `after`
   * by id, at most `limit`.
   */
  uncountedWatched(kind: ComponentRef['kind'], after: string | null, limit: number): Promise<ComponentRef[]>;

  observationsOf(ref: ComponentRef): Promise<Observation[]>;
  /**
   * The component's readings as its series needs them (leaf, date, state, correction), in leaf
   * order, read from an index that holds them (never the evidence), and in the same round trip the
   * latest reading dated on or before `date`, whole: what an entity answer needs, in one query.
   */
  seriesAt(ref: ComponentRef, date: string): Promise<SeriesAt>;
  /** The component's observation at `leafIndex`, whole; null when that leaf is not one of its observations. */
  observationAt(ref: ComponentRef, leafIndex: number): Promise<Observation | null>;
  /** observationsOf for many components in a few queries, keyed `kind:id`; components held nowhere are absent. */
  observationsOfMany(refs: ComponentRef[]): Promise<Map<string, Observation[]>>;
  /**
   * The leaf index of the component's latest observation or correction, or null when none is held:
   * anything computed from observationsOf(ref) stays true until this changes. It moves at once
   * with this store's own appends, and within OTHER_WRITER_LAG_MS with another process's.
   */
  componentVersion(ref: ComponentRef): Promise<number | null>;
  /**
   * seriesAt(ref, date) for every component of `kind` under an owner namespace, ordered by id, in
   * one query; empty when the record holds none.
   */
  seriesUnderOwner(
    kind: ComponentRef['kind'],
    owner: string,
    date: string,
  ): Promise<({ component: ComponentRef } & SeriesAt)[]>;

  /**
   * Held components (the record holds an observation of them) whose name or id begins with
   * `prefix`, compared lower-cased (componentSearchKeys): at most `limit`, ordered by name, kind
   * and id. Bounded index reads, whatever the record's size; a name only queued is never listed.
   */
  heldByPrefix(prefix: string, limit: number): Promise<ComponentRef[]>;

  /** Records an issued API key: its id, label and the SHA-256 (hex) of the key; never the key. */
  apiKeyCreate(key: NewApiKey): Promise<void>;
  /** Revokes a key at `at`; false when no key has that id or it was revoked already. */
  apiKeyRevoke(id: string, at: string): Promise<boolean>;
  /** Every key ever issued, revoked ones included, oldest first. */
  apiKeys(): Promise<ApiKeyRecord[]>;
  /** The key whose SHA-256 (hex) this is, revoked or not; null when none was issued. */
  apiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null>;

  treeSize(): Promise<number>;
  latestHead(): Promise<HeadBlock | null>;
  /** Heads in ascending tree_size order, starting at the first head whose size ≥ fromSize. */
  heads(fromSize: number, limit: number): Promise<HeadBlock[]>;
  leaf(index: number): Promise<StoredLeaf | null>;
  /** Leaves [from, from+limit) in index order. */
  leaves(from: number, limit: number): Promise<StoredLeaf[]>;
  /** The exact bytes of leaves [from, from+limit) in index order, and nothing else: what an audit hashes. */
  leafBytes(from: number, limit: number): Promise<Uint8Array[]>;
  /** Hashes of stored perfect subtrees (level 0 = leaf hashes), in the order asked. */
  nodeHashes(coords: NodeCoord[]): Promise<Hash[]>;
  /**
   * The hashes of perfect subtrees at `level`, indices [from, from+limit), as far as the tree holds
   * them (fewer at its right edge): a tlog tile's hashes, read as one range.
   */
  nodeHashRange(level: number, from: number, limit: number): Promise<Hash[]>;
  /** Records a witness's latest answer, replacing the one before. */
  putWitnessRecord(record: WitnessRecord): Promise<void>;
  /** Every witness's latest answer, by name. */
  witnessRecords(): Promise<WitnessRecord[]>;
  /**
   * The index of the first leaf logged at or after `instant` (an RFC 3339 instant, or a date for
   * its first moment); null when none is. logged_at never goes backwards, so this splits the log.
   */
  firstLeafLoggedFrom(instant: string): Promise<number | null>;
  /**
   * The change feed: in leaves [fromLeaf, untilLeaf), in log order, at most `limit` readings
   * (observations or corrections) whose asserted state differs from the component's previous
   * asserted reading in the log. not_observed is never a change and a first reading changes
   * nothing. Work is bounded by the window, not by the log's size.
   */
  stateChanges(query: StateChangeQuery): Promise<StateChange[]>;
}

/**
 * How long an append by another process may go unseen by componentVersion: the SQLite adapter
 * checks for other writers at most this often, because touching the database on every read costs
 * as much as the rest of an entity read. PostgreSQL reads it exactly.
 */
export const OTHER_WRITER_LAG_MS = 50;

export type HeadSealer = (input: {
  tree_size: number;
  root: Hash;
  timestamp: string;
  prev_head_hash: string | null;
}) => HeadBlock;

export interface AdoptedComponent {
  component: ComponentRef;
  dependents: number;
  read_date: string;
  /** The census leaf the count comes from: it moves when a new census is read. */
  leaf_index: number;
}

export interface AdoptedPage extends AdoptedComponent {
  /** The date of the package's latest reading (observation or correction), null when none is held. */
  observed_date: string | null;
}

/** A held component of a kind with no census: its page's key and its latest reading's date. */
export interface HeldPage {
  component: ComponentRef;
  observed_date: string | null;
}

export interface NewApiKey {
  id: string;
  key_hash: string;
  label: string | null;
  created_at: string;
}

export interface ApiKeyRecord {
  id: string;
  label: string | null;
  created_at: string;
  revoked_at: string | null;
}

export interface NewKeySet {
  document: KeySetDocument;
  /** The document's bytes signed by a key of the previous version (version 1: by its own key). */
  envelope: DsseEnvelope;
}

export interface StoredKeySet extends NewKeySet {
  /** hex SHA-256 of the document's RFC 8785 bytes: what the log holds */
  digest: string;
  leaf_index: number;
}

export interface AppendResult {
  observations: Observation[];
  census: Census[];
  key_sets: StoredKeySet[];
  head: HeadBlock;
}

/** A key-set leaf comes without its document (an export holds leaves only): the leaf alone is kept. */
export type ImportedLeaf = { bytes: Uint8Array; logged_at: string } & (
  { observation: NewObservation } | { census: NewCensus } | { keyset: { version: number; digest: string } }
);

/** What a witness (C2SP tlog-witness) last said about this log. */
export interface WitnessRecord {
  /** The witness's key name. */
  witness: string;
  /** The latest checkpoint it cosigned: the log's note with the witness's cosignature line; null if none yet. */
  cosigned: { tree_size: number; note: string; timestamp: number } | null;
  /** Its refusal of a later checkpoint (or a failure to reach it), null once it cosigns again. */
  refusal: { tree_size: number; status: number | null; reason: string; at: string } | null;
  updated_at: string;
}

export interface StoredLeaf {
  index: number;
  bytes: Uint8Array;
  hash: Hash;
  logged_at: string;
}

/** A component's series, and the whole observation the answer for a date most likely rests on. */
export interface SeriesAt {
  /** Leaf, date, state and correction of every reading, in leaf order; empty when none is held. */
  series: SeriesEntry[];
  /**
   * The latest reading dated on or before the date (highest leaf on its date), whole; null when
   * there is none. Without corrections it is the reading the answer rests on.
   */
  reading: Observation | null;
}
