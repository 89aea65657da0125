import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { sqliteDriverName } from '../src/storage/sqlite/driver.js';

const CHURN = fileURLToPath(new URL('./support/sqlite-churn.mjs', import.meta.url));

describe('the SQLite driver', () => {
  it('is better-sqlite3 13 (Node-API) where the runtime has Node-API 10, better-sqlite3 12 elsewhere', () => {
    const napi = Number(process.versions.napi);
    expect(sqliteDriverName).toBe(napi >= 10 ? 'better-sqlite3-napi' : 'better-sqlite3');
  });

  it('outlives V8 collecting its prepared statements, in a thread and in a worker that exits with its database open', async () => {
    // Its own process: on Node 24.19 and later, better-sqlite3 12 aborts the whole process.
    const { stdout } = await promisify(execFile)(process.execPath, [CHURN, sqliteDriverName]);
    expect(stdout).toBe(`${sqliteDriverName}: 20000 statements in each of two threads (64), worker exit 0\n`);
  }, 60_000);
});
