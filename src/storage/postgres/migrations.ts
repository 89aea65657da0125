import { schemaMigrations, type MigrationDialect } from '../schema-migrations.js';

const postgres: MigrationDialect = {
  name: 'postgres',
  serialKey: 'serial PRIMARY KEY',
  bigSerialKey: 'bigserial PRIMARY KEY',
  bigint: 'bigint',
  bytes: 'bytea',
  keyedTable: '',
  // Byte order ("C"), as SQLite's: a prefix is then the range [prefix, next prefix), whatever
  // the database's own collation.
  byteOrder: ' COLLATE "C"',
  searchKeys: [
    `UPDATE components SET search_id = lower(native_id), search_name = lower(CASE kind
         WHEN 'distro' THEN native_id
         WHEN 'maven' THEN regexp_replace(native_id, '^.*:', '')
         ELSE regexp_replace(native_id, '^.*/', '') END)`,
  ],
  // Each append rewrites its components' rows: room on every page lets the new version go beside the
  // old (a HOT update, pruned without VACUUM), so a table of rows rewritten daily stays near its size.
  seriesTable: `CREATE TABLE IF NOT EXISTS series (component_id integer PRIMARY KEY REFERENCES components (id), entries bytea NOT NULL, corrections bytea) WITH (fillfactor = 70)`,
  seriesPick: [
    // The reading an answer for a day rests on, picked from a series row in SQL (series-entries.ts
    // has the layout: 10 bytes an entry, a 48-bit leaf then a 16-bit day): the latest entry dated
    // on or before the day, the highest leaf on that day. NULL when none is.
    `CREATE OR REPLACE FUNCTION tended_series_pick(entries bytea, day integer) RETURNS bigint
       LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
         SELECT leaf FROM (
           SELECT (get_byte(entries, o)::bigint << 40) | (get_byte(entries, o + 1)::bigint << 32)
                | (get_byte(entries, o + 2)::bigint << 24) | (get_byte(entries, o + 3)::bigint << 16)
                | (get_byte(entries, o + 4)::bigint << 8) | get_byte(entries, o + 5)::bigint AS leaf,
                  (get_byte(entries, o + 6) << 8) | get_byte(entries, o + 7) AS d
           FROM generate_series(0, length(entries) - 10, 10) AS o) AS e
         WHERE d <= day ORDER BY d DESC, leaf DESC LIMIT 1 $$`,
  ],
  beforeLayoutDrop: [],
  dropLeafReferences: [
    `ALTER TABLE census DROP CONSTRAINT IF EXISTS census_leaf_index_fkey`,
    `ALTER TABLE key_sets DROP CONSTRAINT IF EXISTS key_sets_leaf_index_fkey`,
  ],
};

export const postgresMigrations = schemaMigrations(postgres);
