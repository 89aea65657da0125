import { convertLayout, finishLayout } from './layout-v11.js';
import type { Migration } from './migration.js';

/**
 * What differs between the backends' schemas: type names and the few statements each dialect
 * needs of its own. Each adapter's migrations.ts supplies its table; the steps below are written once.
 */
export interface MigrationDialect {
  name: 'sqlite' | 'postgres';
  /** A row id the database numbers: `integer PRIMARY KEY AUTOINCREMENT` | `serial PRIMARY KEY`. */
  serialKey: string;
  /** The same for a table expected to pass 2^31 rows. */
  bigSerialKey: string;
  /** A leaf index, tree size or count that may pass 2^31. */
  bigint: string;
  bytes: string;
  /** After a table keyed by its primary key alone (SQLite's WITHOUT ROWID). */
  keyedTable: string;
  /** After a text column compared in byte order (PostgreSQL's COLLATE "C"). */
  byteOrder: string;
  /** Migration 10's statements setting each component's search keys (the name after its last separator). */
  searchKeys: string[];
  /** Migration 11's prepare, after the tables both share. */
  seriesTable: string;
  seriesPick: string[];
  /** Migration 11's statements before the tree nodes are rebuilt. */
  beforeLayoutDrop: string[];
  /** Migration 11's statements dropping census's and key_sets's references to leaves. */
  dropLeafReferences: string[];
}

/** Every schema change, in the dialect given: versions and names as recorded in existing databases. */
export function schemaMigrations(d: MigrationDialect): Migration[] {
  return [
    {
      version: 1,
      name: 'record core: components, observations, leaves, tree nodes, heads',
      statements: [
        `CREATE TABLE components (id ${d.serialKey}, kind text NOT NULL, native_id text NOT NULL, owner text, purl text NOT NULL, UNIQUE (kind, native_id))`,
        `CREATE INDEX components_owner ON components (kind, owner)`,
        `CREATE TABLE leaves (idx ${d.bigint} PRIMARY KEY, kind text NOT NULL, bytes ${d.bytes} NOT NULL, hash ${d.bytes} NOT NULL, logged_at text NOT NULL)`,
        `CREATE TABLE observations (leaf_index ${d.bigint} PRIMARY KEY REFERENCES leaves (idx), component_id integer NOT NULL REFERENCES components (id), observed_at text NOT NULL, observation_date text NOT NULL, state text NOT NULL, source text NOT NULL, evidence text NOT NULL, method text NOT NULL, corrects ${d.bigint} REFERENCES observations (leaf_index))`,
        `CREATE UNIQUE INDEX observations_one_per_date ON observations (component_id, observation_date) WHERE corrects IS NULL`,
        `CREATE INDEX observations_by_component ON observations (component_id, leaf_index)`,
        `CREATE TABLE tree_nodes (level integer NOT NULL, idx ${d.bigint} NOT NULL, hash ${d.bytes} NOT NULL, PRIMARY KEY (level, idx))${d.keyedTable}`,
        `CREATE TABLE heads (tree_size ${d.bigint} PRIMARY KEY, root_hash text NOT NULL, timestamp text NOT NULL, prev_head_hash text, head_hash text NOT NULL UNIQUE, checkpoint text NOT NULL)`,
        `CREATE TABLE log_state (id integer PRIMARY KEY CHECK (id = 1), tree_size ${d.bigint} NOT NULL, last_logged_at text, head_hash text)`,
        `INSERT INTO log_state (id, tree_size, last_logged_at, head_hash) VALUES (1, 0, NULL, NULL)`,
      ],
    },
    {
      version: 2,
      name: 'observer: watch list with claims, conditional-request cache, one correction per component per date',
      statements: [
        `CREATE TABLE watch (component_id integer PRIMARY KEY REFERENCES components (id), added_at text NOT NULL, due_at text NOT NULL, claimed_until text)`,
        `CREATE INDEX watch_due ON watch (due_at)`,
        `CREATE UNIQUE INDEX observations_one_correction_per_date ON observations (component_id, observation_date) WHERE corrects IS NOT NULL`,
        `CREATE TABLE upstream_cache (url text PRIMARY KEY, etag text, last_modified text, facts text NOT NULL, stored_at text NOT NULL)`,
      ],
    },
    {
      version: 3,
      name: 'census: dated reads of dependents, chained as leaves',
      statements: [
        `CREATE TABLE census (leaf_index ${d.bigint} PRIMARY KEY REFERENCES leaves (idx), component_id integer NOT NULL REFERENCES components (id), read_at text NOT NULL, read_date text NOT NULL, dependents ${d.bigint}, source text NOT NULL, evidence text NOT NULL, method text NOT NULL)`,
        `CREATE INDEX census_by_component ON census (component_id, leaf_index)`,
      ],
    },
    {
      version: 4,
      name: 'api keys: only the SHA-256 of each key, with its label and revocation',
      statements: [
        `CREATE TABLE api_keys (id text PRIMARY KEY, key_hash text NOT NULL UNIQUE, label text, created_at text NOT NULL, revoked_at text)`,
      ],
    },
    {
      version: 5,
      name: 'verdict key set: each signed version, its digest logged as a leaf',
      statements: [
        `CREATE TABLE key_sets (version integer PRIMARY KEY, document text NOT NULL, digest text NOT NULL, envelope text NOT NULL, leaf_index ${d.bigint} NOT NULL UNIQUE REFERENCES leaves (idx))`,
      ],
    },
    {
      version: 6,
      name: 'change feed and daily exports: asserted readings by component, leaves by logged_at',
      statements: [
        // The feed compares each reading with the component's previous asserted one: one probe here.
        `CREATE INDEX observations_asserted_by_component ON observations (component_id, leaf_index) WHERE state NOT IN ('not_observed', 'unknown-stale')`,
        // logged_at never goes backwards, so the first leaf of a day is one probe here.
        `CREATE INDEX leaves_logged_at ON leaves (logged_at, idx)`,
      ],
    },
    {
      version: 7,
      name: 'discovery: watched components a read named (not an operator), and the count queued per UTC day',
      statements: [
        // 1 when a read queued the component (DESIGN §3 "Discovery"): until a read shows it public,
        // nothing of it is published, and a not-found drops it with no trace.
        `ALTER TABLE watch ADD COLUMN discovered integer NOT NULL DEFAULT 0`,
        // Counts only, no names: the daily bound on discovery across every process of a deployment.
        `CREATE TABLE discovery_days (day text PRIMARY KEY, queued integer NOT NULL)`,
      ],
    },
    {
      version: 8,
      name: 'discovery of owners: an org read queues the owner, whose public repositories a pass lists',
      statements: [
        // The owner's name and when to list it; nothing about who asked. A not-found deletes the row.
        `CREATE TABLE discovered_owners (owner text PRIMARY KEY, due_at text NOT NULL)`,
      ],
    },
    {
      version: 9,
      name: "series reads from an index: each reading's date, state and correction beside its component and leaf",
      statements: [
        // A component's readings are appended a day apart, each on its own table page; this index
        // holds all a series needs, so an entity read visits the table once (the answer's reading).
        `CREATE INDEX observations_series ON observations (component_id, leaf_index, observation_date, state, corrects)`,
        // Its leading columns are those of observations_by_component, which it replaces.
        `DROP INDEX observations_by_component`,
      ],
    },
    {
      version: 10,
      name: "search: each component's lower-cased name and id, indexed for prefix reads",
      statements: [
        // A search box takes part of a name (`rocket`, `acme/rock`): each component's lower-cased name
        // and id (componentSearchKeys) are indexed, so a prefix is a range read, never a scan.
        `ALTER TABLE components ADD COLUMN search_name text${d.byteOrder}`,
        `ALTER TABLE components ADD COLUMN search_id text${d.byteOrder}`,
        // The name is what follows the id's last "/" (":" for Maven); a distribution release is named whole.
        ...d.searchKeys,
        `CREATE INDEX components_search_name ON components (search_name)`,
        `CREATE INDEX components_search_id ON components (search_id)`,
      ],
    },
    {
      version: 11,
      name: 'a billion observations: leaves sixteen to a compressed block, a series row per component',
      prepare: [
        `CREATE TABLE IF NOT EXISTS leaf_blocks (block ${d.bigint} PRIMARY KEY, size integer NOT NULL, bytes ${d.bytes} NOT NULL)`,
        d.seriesTable,
        `CREATE TABLE IF NOT EXISTS layout_conversion (id integer PRIMARY KEY CHECK (id = 1), series_until ${d.bigint} NOT NULL)`,
        ...d.seriesPick,
      ],
      convert: convertLayout(d.name),
      finish: finishLayout(d.name),
      statements: [
        ...d.beforeLayoutDrop,
        // Subtrees below level 6 are hashed again from their blocks when a proof needs them.
        `CREATE TABLE tree_nodes_v11 (level integer NOT NULL, idx ${d.bigint} NOT NULL, hash ${d.bytes} NOT NULL, PRIMARY KEY (level, idx))${d.keyedTable}`,
        `INSERT INTO tree_nodes_v11 SELECT level, idx, hash FROM tree_nodes WHERE level >= 6`,
        `DROP TABLE tree_nodes`,
        `ALTER TABLE tree_nodes_v11 RENAME TO tree_nodes`,
        ...d.dropLeafReferences,
        `DROP TABLE observations`,
        `DROP TABLE leaves`,
        `DROP TABLE layout_conversion`,
        // A component's purl is made from its kind and id whenever it is shown; the copy cost a column.
        `ALTER TABLE components DROP COLUMN purl`,
      ],
    },
    {
      version: 12,
      name: 'followers: each followed registry’s cursor, its last contiguous read and the faults seen',
      statements: [
        // One row per registry (DESIGN §8a): where its follower resumes after a restart, and its health.
        `CREATE TABLE follow_cursors (registry text PRIMARY KEY, cursor text NOT NULL, updated_at text NOT NULL, last_contiguous_at text, faults_seen integer NOT NULL DEFAULT 0, last_fault text)`,
      ],
    },
    {
      version: 13,
      name: 'adoption: each component’s latest census beside its name, for pages in name order',
      statements: [
        // The sitemap and the census walk the packages with a page in pages of a bounded size, by
        // (kind, id) in byte order; a component's latest census is kept here as each is appended, so
        // such a page is one range read of this index, never a search for each component's latest read.
        `CREATE TABLE census_latest (component_id integer PRIMARY KEY REFERENCES components (id), kind text NOT NULL, native_id text${d.byteOrder} NOT NULL, leaf_index ${d.bigint} NOT NULL, read_date text NOT NULL, dependents ${d.bigint})`,
        `INSERT INTO census_latest (component_id, kind, native_id, leaf_index, read_date, dependents)
         SELECT s.component_id, c.kind, c.native_id, s.leaf_index, s.read_date, s.dependents
         FROM census s JOIN components c ON c.id = s.component_id
         WHERE s.leaf_index = (SELECT max(t.leaf_index) FROM census t WHERE t.component_id = s.component_id)`,
        `CREATE INDEX census_latest_by_name ON census_latest (kind, native_id, dependents, read_date)`,
      ],
    },
    {
      version: 14,
      name: 'follow schedule: why each followed package is due, its claim priority, the feed markers, reads per day by reason',
      statements: [
        // A followed package (a follower listed or hinted it; not watched by an operator, not discovered).
        `ALTER TABLE watch ADD COLUMN followed integer NOT NULL DEFAULT 0`,
        // event | threshold | backfill | sweep for a followed package; null for one read daily.
        `ALTER TABLE watch ADD COLUMN reason text`,
        // Claim order (0 first): daily, event and threshold 0, backfill 1, sweep 2.
        `ALTER TABLE watch ADD COLUMN priority integer NOT NULL DEFAULT 0`,
        // The feed's newest marker for the package, and the one it had when last read: a hint
        // repeating a marker already read is not read again.
        `ALTER TABLE watch ADD COLUMN marker text`,
        `ALTER TABLE watch ADD COLUMN read_marker text`,
        // A hint that came while the package was claimed: the read under way may predate the change.
        `ALTER TABLE watch ADD COLUMN event_on text`,
        `ALTER TABLE watch ADD COLUMN last_read_on text`,
        // Claims read (priority, due_at) ranges, one priority after the other: an index range each.
        `CREATE INDEX watch_claim ON watch (priority, due_at)`,
        `DROP INDEX watch_due`,
        // Counts only: reads per UTC day, registry and reason, for the operator and the benchmark.
        `CREATE TABLE follow_reads (day text NOT NULL, registry text NOT NULL, reason text NOT NULL, reads integer NOT NULL, PRIMARY KEY (day, registry, reason))`,
        // Per registry: packages held for it, and how many of them were read at least once (the backfill's progress).
        `CREATE TABLE follow_counts (registry text PRIMARY KEY, listed integer NOT NULL DEFAULT 0, read_once integer NOT NULL DEFAULT 0)`,
        // Which process follows a registry, until when: one follower per deployment.
        `CREATE TABLE follow_leases (registry text PRIMARY KEY, holder text NOT NULL, until text NOT NULL)`,
      ],
    },
    {
      version: 15,
      name: 'change feed: each leaf block lists the state changes among its leaves',
      statements: [
        // A reading's "from" is fixed when it is appended, so the append writes it down (block-changes.ts)
        // and the feed skips blocks with none. NULL for blocks written before: read the long way.
        `ALTER TABLE leaf_blocks ADD COLUMN changes ${d.bytes}`,
      ],
    },
    {
      version: 16,
      name: 'webhooks: subscriptions, the targets they match by, and the delivery outbox',
      statements: [
        // A subscriber's public names and endpoint (DESIGN §8f). key_id is the operator's API key id
        // (never the key); the secret signs deliveries, so it is kept as given out. Nothing else about
        // the subscriber is stored. paused_until: the endpoint's circuit, open until then.
        `CREATE TABLE subscriptions (id text PRIMARY KEY, key_id text NOT NULL, endpoint text NOT NULL, secret text NOT NULL, filter text NOT NULL, created_at text NOT NULL, consecutive_failures integer NOT NULL DEFAULT 0, last_success_at text, last_failure_at text, last_failure text, paused_until text)`,
        `CREATE INDEX subscriptions_by_key ON subscriptions (key_id)`,
        // A filter as index keys (c:kind:id, o:kind:owner, s:state): an append matches its changes
        // against these with one lookup per batch, whatever the number of subscriptions.
        `CREATE TABLE subscription_targets (target text NOT NULL, subscription_id text NOT NULL REFERENCES subscriptions (id), PRIMARY KEY (target, subscription_id))`,
        `CREATE INDEX subscription_targets_by_subscription ON subscription_targets (subscription_id)`,
        // One row per (change, subscription), written in the append's transaction. due_at is NULL once
        // delivered (the row stays for the subscription's feed); lease_until is a sender's claim.
        `CREATE TABLE webhook_outbox (seq ${d.bigSerialKey}, msg_id text NOT NULL UNIQUE, subscription_id text NOT NULL REFERENCES subscriptions (id), leaf_index ${d.bigint} NOT NULL, kind text NOT NULL, native_id text NOT NULL, from_state text NOT NULL, to_state text NOT NULL, observation_date text NOT NULL, previous_date text NOT NULL, previous_leaf_index ${d.bigint} NOT NULL, corrects ${d.bigint}, logged_at text NOT NULL, enqueued_at text NOT NULL, due_at text, lease_until text, attempts integer NOT NULL DEFAULT 0, delivered_at text, last_error text)`,
        `CREATE INDEX webhook_outbox_due ON webhook_outbox (due_at)`,
        `CREATE INDEX webhook_outbox_by_subscription ON webhook_outbox (subscription_id, seq)`,
        // Delivered rows are kept a while for the subscription's feed, then pruned oldest first.
        `CREATE INDEX webhook_outbox_delivered ON webhook_outbox (delivered_at)`,
      ],
    },
    {
      version: 17,
      name: 'witnesses: what each configured tlog witness last said about the log',
      statements: [
        // One row a witness: its latest cosigned checkpoint (the note with its line) and its last refusal.
        `CREATE TABLE witness_state (witness text PRIMARY KEY, cosigned_size bigint, cosigned_note text, cosigned_time bigint, refused_size bigint, refused_status integer, refused_reason text, refused_at text, updated_at text NOT NULL)`,
      ],
    },
  ];
}
