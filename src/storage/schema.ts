import type { Generated } from 'kysely';

/** Table shapes shared by both adapters; the DDL that creates them lives in each adapter's migrations. */
export interface Database {
  components: {
    id: Generated<number>;
    kind: string;
    native_id: string;
    owner: string | null;
    /** componentSearchKeys: the lower-cased name and id a search matches by prefix. */
    search_name: string | null;
    search_id: string | null;
  };
  /** A component's readings, ENTRY_BYTES each in leaf order (series-entries.ts): its series in one row. */
  series: { component_id: number; entries: Uint8Array; corrections: Uint8Array | null };
  census: {
    leaf_index: number;
    component_id: number;
    read_at: string;
    read_date: string;
    dependents: number | null;
    source: string;
    evidence: string;
    method: string;
  };
  /** Each component's latest census (migration 13), kept as census is appended: pages in name order. */
  census_latest: {
    component_id: number;
    kind: string;
    native_id: string;
    leaf_index: number;
    read_date: string;
    dependents: number | null;
  };
  /** Leaves [block × LEAVES_PER_BLOCK, … + size), compressed together (leaf-block.ts). */
  /** changes: the block's state changes (block-changes.ts); NULL when not known. */
  leaf_blocks: { block: number; size: number; bytes: Uint8Array; changes: Uint8Array | null };
  /** Stored perfect subtrees from level STORED_NODE_LEVEL up; lower ones are hashed from the leaves. */
  tree_nodes: { level: number; idx: number; hash: Uint8Array };
  heads: {
    tree_size: number;
    root_hash: string;
    timestamp: string;
    prev_head_hash: string | null;
    head_hash: string;
    checkpoint: string;
  };
  log_state: { id: number; tree_size: number; last_logged_at: string | null; head_hash: string | null };
  watch: {
    component_id: number;
    added_at: string;
    due_at: string;
    claimed_until: string | null;
    /** 1 when a read queued it (discovery), 0 when an operator watched it. */
    discovered: Generated<number>;
    /** 1 when a follower holds it (follow-schedule); 0 for the operator's and discovery's daily reads. */
    followed: Generated<number>;
    /** Why a followed package is due (ReadReason); null for a daily read. */
    reason: Generated<string | null>;
    /** Claim order, 0 first (READ_PRIORITY); 0 for a daily read. */
    priority: Generated<number>;
    marker: Generated<string | null>;
    read_marker: Generated<string | null>;
    event_on: Generated<string | null>;
    last_read_on: Generated<string | null>;
  };
  discovery_days: { day: string; queued: number };
  discovered_owners: { owner: string; due_at: string };
  upstream_cache: { url: string; etag: string | null; last_modified: string | null; facts: string; stored_at: string };
  api_keys: { id: string; key_hash: string; label: string | null; created_at: string; revoked_at: string | null };
  key_sets: { version: number; document: string; digest: string; envelope: string; leaf_index: number };
  /** Each configured witness's last answer (migration 17, kysely-witness.ts); sizes and times are numbers. */
  witness_state: {
    witness: string;
    cosigned_size: number | null;
    cosigned_note: string | null;
    cosigned_time: number | null;
    refused_size: number | null;
    refused_status: number | null;
    refused_reason: string | null;
    refused_at: string | null;
    updated_at: string;
  };
  /** Webhook subscriptions (migration 16): public names, an endpoint, the signing secret, the circuit. */
  subscriptions: {
    id: string;
    key_id: string;
    endpoint: string;
    secret: string;
    /** The SubscriptionFilter as JSON. */
    filter: string;
    created_at: string;
    consecutive_failures: Generated<number>;
    last_success_at: string | null;
    last_failure_at: string | null;
    last_failure: string | null;
    paused_until: string | null;
  };
  subscription_targets: { target: string; subscription_id: string };
  webhook_outbox: {
    seq: Generated<number>;
    msg_id: string;
    subscription_id: string;
    leaf_index: number;
    kind: string;
    native_id: string;
    from_state: string;
    to_state: string;
    observation_date: string;
    previous_date: string;
    previous_leaf_index: number;
    corrects: number | null;
    logged_at: string;
    enqueued_at: string;
    due_at: string | null;
    lease_until: string | null;
    attempts: Generated<number>;
    delivered_at: string | null;
    last_error: string | null;
  };
  schema_migrations: { version: number; name: string; applied_at: string };
}
