import { sql, type Kysely } from 'kysely';
import type { Census, NewCensus } from '../domain/census.js';
import type { ComponentRef } from '../domain/component.js';
import type { NewObservation, Observation } from '../domain/observation.js';
import type { HeadBlock } from '../notary/head.js';
import type { Hash } from '../notary/hash.js';
import type { KeySetDocument } from '../notary/key-set.js';
import type { NodeCoord } from '../notary/merkle.js';
import { appendLeaves, initialiseLog } from './kysely-append.js';
import { censusLeaves, importedLeaves, keySetLeaves, observationLeaves } from './pending-leaves.js';
import { firstLeafLoggedFrom, readLeafRange, readNodeHashes, readNodeHashRange, storedLeaf } from './kysely-blocks.js';
import { readStateChanges } from './kysely-changes.js';
import {
  readCensusVersion,
  readComponentVersion,
  readLeafBytes,
  readObservationAt,
  readSeriesAt,
  readSeriesUnderOwner,
  readHeldByPrefix,
  toCensus,
  toHead,
} from './kysely-read.js';
import { readObservationsOf } from './kysely-series.js';
import { applyMigrations, type Migration } from './migration.js';
import * as adoption from './kysely-adoption.js';
import * as apiKeys from './kysely-api-keys.js';
import * as subscriptions from './kysely-subscriptions.js';
import type { ClaimedDelivery, DeliveryFailure, NewSubscription } from './subscription-records.js';
import * as discovery from './kysely-discovery.js';
import * as follow from './kysely-follow.js';
import * as followSchedule from './kysely-follow-schedule.js';
import * as watch from './kysely-watch.js';
import * as witnesses from './kysely-witness.js';
import type { Database } from './schema.js';
import type {
  ApiKeyRecord,
  AdoptedComponent,
  AppendResult,
  HeadSealer,
  ImportedLeaf,
  NewApiKey,
  NewKeySet,
  SeriesAt,
  StoredKeySet,
  Store,
  StoredLeaf,
  WitnessRecord,
} from './store.js';
import type { StateChangeQuery } from './state-change.js';
import type { CachedAnswer, QueueOptions } from './watch-records.js';
import type { FollowProgress } from './follow-records.js';
import type { FollowedRead, HeldHint, HeldListing, HoldOptions } from './follow-records.js';

// Components per query when reading many at once: well under both backends' parameter limits.
const MANY_CHUNK = 400;

/**
 * The store's query code, shared by both adapters through kysely: the adapters differ only in the
 * dialect they hand in and the DDL of their migrations.
 */
export class KyselyStore implements Store {
  constructor(
    readonly backend: 'sqlite' | 'postgres',
    private readonly db: Kysely<Database>,
    private readonly migrations: Migration[],
    private readonly withMigrationLock: <T>(db: Kysely<Database>, run: () => Promise<T>) => Promise<T> = (_db, run) =>
      run(),
  ) {}

  migrate(): Promise<void> {
    return this.withMigrationLock(this.db, () => applyMigrations(this.db, this.migrations));
  }

  close(): Promise<void> {
    return this.db.destroy();
  }

  async ping(): Promise<void> {
    await sql`SELECT 1`.execute(this.db);
  }

  initialiseLog(seal: HeadSealer): Promise<HeadBlock> {
    return initialiseLog(this.db, this.backend, seal);
  }

  // async: a leaf refused while it is made rejects the append, as it did when made under the lock.
  async appendObservations(observations: NewObservation[], seal: HeadSealer): Promise<AppendResult> {
    return await appendLeaves(this.db, this.backend, observationLeaves(observations), seal);
  }

  async appendCensus(census: NewCensus[], seal: HeadSealer): Promise<AppendResult> {
    return await appendLeaves(this.db, this.backend, censusLeaves(census), seal);
  }

  importLeaves(leaves: ImportedLeaf[], seal: HeadSealer): Promise<AppendResult> {
    return appendLeaves(this.db, this.backend, importedLeaves(leaves), seal);
  }

  appendKeySet(keySet: NewKeySet, seal: HeadSealer): Promise<AppendResult> {
    return appendLeaves(this.db, this.backend, keySetLeaves(keySet), seal);
  }

  async keySets(): Promise<StoredKeySet[]> {
    const rows = await this.db.selectFrom('key_sets').selectAll().orderBy('version').execute();
    return rows.map((row) => ({
      document: JSON.parse(row.document) as KeySetDocument,
      envelope: JSON.parse(row.envelope) as StoredKeySet['envelope'],
      digest: row.digest,
      leaf_index: Number(row.leaf_index),
    }));
  }

  async latestCensus(ref: ComponentRef): Promise<Census | null> {
    const row = await this.db
      .selectFrom('census')
      .innerJoin('components', 'components.id', 'census.component_id')
      .selectAll('census')
      .where('components.kind', '=', ref.kind)
      .where('components.native_id', '=', ref.id)
      .orderBy('census.leaf_index', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? toCensus(ref, row) : null;
  }

  adoptedComponents(kind: ComponentRef['kind'], minDependents: number): Promise<AdoptedComponent[]> {
    return adoption.readAdoptedOfKind(this.db, kind, minDependents);
  }

  adoptedPage(after: ComponentRef | null, minDependents: number, limit: number) {
    return adoption.readAdoptedPage(this.db, after, minDependents, limit);
  }

  heldPage(kinds: readonly ComponentRef['kind'][], after: ComponentRef | null, limit: number) {
    return adoption.readHeldPage(this.db, this.backend, kinds, after, limit);
  }

  adoptedCount(minDependents: number) {
    return adoption.readAdoptedCount(this.db, minDependents);
  }

  watchedAmong(refs: ComponentRef[]) {
    return adoption.readWatchedAmong(this.db, refs);
  }

  uncountedWatched(kind: ComponentRef['kind'], after: string | null, limit: number) {
    return adoption.readUncountedWatched(this.db, kind, after, limit);
  }

  async observationsOf(ref: ComponentRef): Promise<Observation[]> {
    return (await readObservationsOf(this.db, [ref])).get(`${ref.kind}:${ref.id}`) ?? [];
  }

  seriesAt(ref: ComponentRef, date: string): Promise<SeriesAt> {
    return readSeriesAt(this.db, ref, date);
  }

  observationAt(ref: ComponentRef, leafIndex: number): Promise<Observation | null> {
    return readObservationAt(this.db, ref, leafIndex);
  }

  async observationsOfMany(refs: ComponentRef[]): Promise<Map<string, Observation[]>> {
    const held = new Map<string, Observation[]>();
    for (let i = 0; i < refs.length; i += MANY_CHUNK)
      for (const [key, list] of await readObservationsOf(this.db, refs.slice(i, i + MANY_CHUNK))) held.set(key, list);
    return held;
  }

  componentVersion(ref: ComponentRef): Promise<number | null> {
    return readComponentVersion(this.db, ref);
  }

  censusVersion(ref: ComponentRef): Promise<number | null> {
    return readCensusVersion(this.db, ref);
  }

  seriesUnderOwner(kind: ComponentRef['kind'], owner: string, date: string) {
    return readSeriesUnderOwner(this.db, kind, owner, date);
  }

  heldByPrefix(prefix: string, limit: number): Promise<ComponentRef[]> {
    return readHeldByPrefix(this.db, prefix, limit);
  }

  watchAdd(refs: ComponentRef[], now: string) {
    return watch.watchAdd(this.db, refs, now);
  }

  watchRemove(ref: ComponentRef) {
    return watch.watchRemove(this.db, ref);
  }

  watchList() {
    return watch.watchList(this.db);
  }

  queueFigures(now: string) {
    return watch.queueFigures(this.db, now);
  }

  claimDue(now: string, limit: number, leaseUntil: string) {
    return watch.claimDue(this.db, this.backend, now, limit, leaseUntil);
  }

  extendClaims(refs: ComponentRef[], leaseUntil: string) {
    return watch.extendClaims(this.db, refs, leaseUntil);
  }

  releaseWatch(refs: ComponentRef[], nextDue: string) {
    return watch.releaseWatch(this.db, refs, nextDue);
  }

  queueDiscovered(refs: ComponentRef[], at: string, options: QueueOptions) {
    return discovery.queueDiscovered(this.db, this.backend, refs, at, options);
  }

  unconfirmedDiscoveries(refs: ComponentRef[]) {
    return discovery.unconfirmedDiscoveries(this.db, refs);
  }

  queueOwner(owner: string, at: string, dailyCap: number) {
    return discovery.queueOwner(this.db, this.backend, owner, at, dailyCap);
  }

  dueOwners(at: string, limit: number) {
    return discovery.dueOwners(this.db, at, limit);
  }

  finishOwner(owner: string, retryAt: string | null) {
    return discovery.finishOwner(this.db, owner, retryAt);
  }

  dropDiscovered(refs: ComponentRef[], urls: string[]) {
    return discovery.dropDiscovered(this.db, refs, urls);
  }

  cacheGet(url: string) {
    return watch.cacheGet(this.db, url);
  }

  cacheSet(url: string, entry: CachedAnswer) {
    return watch.cacheSet(this.db, url, entry);
  }

  followCursor(registry: string) {
    return follow.followCursor(this.db, registry);
  }

  setFollowCursor(registry: string, cursor: string, at: string, progress: FollowProgress) {
    return follow.setFollowCursor(this.db, registry, cursor, at, progress);
  }

  holdFollowed(listed: HeldListing[], hints: HeldHint[], at: string, options?: HoldOptions) {
    return followSchedule.holdFollowed(this.db, listed, hints, at, options);
  }

  claimScheduled(now: string, limit: number, leaseUntil: string) {
    return watch.claimScheduled(this.db, this.backend, now, limit, leaseUntil);
  }

  rescheduleFollowed(reads: FollowedRead[], readOn: string) {
    return followSchedule.rescheduleFollowed(this.db, reads, readOn);
  }

  followFigures(registry: string, day: string) {
    return followSchedule.followFigures(this.db, registry, day);
  }

  followReads(fromDay: string, toDay: string) {
    return followSchedule.followReads(this.db, fromDay, toDay);
  }

  leaseFollow(registry: string, holder: string, now: string, until: string) {
    return followSchedule.leaseFollow(this.db, registry, holder, now, until);
  }

  releaseFollowLease(registry: string, holder: string) {
    return followSchedule.releaseFollowLease(this.db, registry, holder);
  }

  apiKeyCreate(key: NewApiKey): Promise<void> {
    return apiKeys.create(this.db, key);
  }

  apiKeyRevoke(id: string, at: string): Promise<boolean> {
    return apiKeys.revoke(this.db, id, at);
  }

  apiKeys(): Promise<ApiKeyRecord[]> {
    return apiKeys.list(this.db);
  }

  apiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    return apiKeys.byHash(this.db, keyHash);
  }

  subscriptionCreate(subscription: NewSubscription, maxPerKey: number) {
    return subscriptions.create(this.db, this.backend, subscription, maxPerKey);
  }

  subscription(id: string) {
    return subscriptions.read(this.db, id);
  }

  subscriptionDelete(id: string) {
    return subscriptions.remove(this.db, id);
  }

  claimDeliveries(now: string, limit: number, leaseUntil: string) {
    return subscriptions.claim(this.db, this.backend, now, limit, leaseUntil);
  }

  deliveriesSucceeded(deliveries: ClaimedDelivery[], at: string) {
    return subscriptions.succeeded(this.db, deliveries, at);
  }

  deliveryFailed(delivery: ClaimedDelivery, failure: DeliveryFailure) {
    return subscriptions.failed(this.db, delivery, failure);
  }

  pruneDeliveries(before: string, limit: number) {
    return subscriptions.prune(this.db, before, limit);
  }

  subscriptionFeed(id: string, afterSeq: number, limit: number) {
    return subscriptions.feed(this.db, id, afterSeq, limit);
  }

  async treeSize(): Promise<number> {
    const row = await this.db.selectFrom('log_state').select('tree_size').where('id', '=', 1).executeTakeFirstOrThrow();
    return Number(row.tree_size);
  }

  async latestHead(): Promise<HeadBlock | null> {
    const row = await this.db.selectFrom('heads').selectAll().orderBy('tree_size', 'desc').limit(1).executeTakeFirst();
    return row ? toHead(row) : null;
  }

  async heads(fromSize: number, limit: number): Promise<HeadBlock[]> {
    const rows = await this.db
      .selectFrom('heads')
      .selectAll()
      .where('tree_size', '>=', fromSize)
      .orderBy('tree_size')
      .limit(limit)
      .execute();
    return rows.map(toHead);
  }

  async leaf(index: number): Promise<StoredLeaf | null> {
    const [leaf] = await readLeafRange(this.db, index, 1);
    return leaf ? storedLeaf(leaf) : null;
  }

  async leaves(from: number, limit: number): Promise<StoredLeaf[]> {
    return (await readLeafRange(this.db, from, limit)).map(storedLeaf);
  }

  leafBytes(from: number, limit: number): Promise<Uint8Array[]> {
    return readLeafBytes(this.db, from, limit);
  }

  nodeHashes(coords: NodeCoord[]): Promise<Hash[]> {
    return readNodeHashes(this.db, coords);
  }

  nodeHashRange(level: number, from: number, limit: number): Promise<Hash[]> {
    return readNodeHashRange(this.db, level, from, limit);
  }

  putWitnessRecord(record: WitnessRecord): Promise<void> {
    return witnesses.put(this.db, record);
  }

  witnessRecords(): Promise<WitnessRecord[]> {
    return witnesses.list(this.db);
  }

  async firstLeafLoggedFrom(instant: string): Promise<number | null> {
    return firstLeafLoggedFrom(this.db, instant, await this.treeSize());
  }

  stateChanges(query: StateChangeQuery) {
    return readStateChanges(this.db, query);
  }
}
