import { schemaMigrations, type MigrationDialect } from '../schema-migrations.js';

const sqlite: MigrationDialect = {
  name: 'sqlite',
  serialKey: 'integer PRIMARY KEY AUTOINCREMENT',
  bigSerialKey: 'integer PRIMARY KEY AUTOINCREMENT',
  // An SQLite integer holds 64 bits.
  bigint: 'integer',
  bytes: 'blob',
  keyedTable: ' WITHOUT ROWID',
  // SQLite compares text in byte order already.
  byteOrder: '',
  searchKeys: [
    // rtrim(x, <x without its separators>) leaves x up to its last separator.
    `UPDATE components SET search_id = lower(native_id), search_name = lower(CASE kind
         WHEN 'distro' THEN native_id
         WHEN 'maven' THEN substr(native_id, length(rtrim(native_id, replace(native_id, ':', ''))) + 1)
         ELSE substr(native_id, length(rtrim(native_id, replace(native_id, '/', ''))) + 1) END)`,
  ],
  seriesTable: `CREATE TABLE IF NOT EXISTS series (component_id integer PRIMARY KEY REFERENCES components (id), entries blob NOT NULL, corrections blob)`,
  // tended_series_pick is a function the adapter registers on its connection (sqlite/open.ts).
  seriesPick: [],
  beforeLayoutDrop: [
    // Dropping a table SQLite checks row by row against foreign keys; checked at COMMIT instead.
    `PRAGMA defer_foreign_keys = ON`,
  ],
  dropLeafReferences: [
    // census and key_sets referred to leaves, which goes: SQLite cannot drop a foreign key, so
    // each is copied into a table without it.
    `CREATE TABLE census_v11 (leaf_index integer PRIMARY KEY, component_id integer NOT NULL REFERENCES components (id), read_at text NOT NULL, read_date text NOT NULL, dependents integer, source text NOT NULL, evidence text NOT NULL, method text NOT NULL)`,
    `INSERT INTO census_v11 (leaf_index, component_id, read_at, read_date, dependents, source, evidence, method) SELECT leaf_index, component_id, read_at, read_date, dependents, source, evidence, method FROM census`,
    `DROP TABLE census`,
    `ALTER TABLE census_v11 RENAME TO census`,
    `CREATE INDEX census_by_component ON census (component_id, leaf_index)`,
    `CREATE TABLE key_sets_v11 (version integer PRIMARY KEY, document text NOT NULL, digest text NOT NULL, envelope text NOT NULL, leaf_index integer NOT NULL UNIQUE)`,
    `INSERT INTO key_sets_v11 (version, document, digest, envelope, leaf_index) SELECT version, document, digest, envelope, leaf_index FROM key_sets`,
    `DROP TABLE key_sets`,
    `ALTER TABLE key_sets_v11 RENAME TO key_sets`,
  ],
};

export const sqliteMigrations = schemaMigrations(sqlite);
