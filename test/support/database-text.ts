import pg from 'pg';
import { openSqliteDatabase } from '../../src/storage/sqlite/driver.js';

/**
 * Every row of every table of a store's database as text (blobs decoded as UTF-8): what a test
 * searches for a name that must have left no trace anywhere, whatever table it might sit in.
 */
export async function databaseText(url: string): Promise<string> {
  const cell = (v: unknown) => (Buffer.isBuffer(v) ? v.toString('utf8') : String(v));
  const rowsText = (rows: Record<string, unknown>[]) =>
    rows.map((r) => Object.values(r).map(cell).join('\t')).join('\n');
  if (url.startsWith('sqlite:')) {
    const db = openSqliteDatabase(url.slice('sqlite:'.length), { readonly: true, fileMustExist: true });
    try {
      const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[];
      return tables
        .map(
          ({ name }) =>
            `${name}\n${rowsText(db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[])}`,
        )
        .join('\n');
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
    );
    const parts: string[] = [];
    for (const { table_name } of tables.rows) {
      const rows = await client.query<Record<string, unknown>>(`SELECT * FROM "${table_name}"`);
      parts.push(`${table_name}\n${rowsText(rows.rows)}`);
    }
    return parts.join('\n');
  } finally {
    await client.end();
  }
}
