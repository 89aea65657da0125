import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * Which better-sqlite3 build opens a database.
 *
 * better-sqlite3 12 wraps its objects in `node::ObjectWrap`, a class compiled into the addon from
 * Node's headers. From Node 24.19 that header registers a cleanup hook for every wrapped object
 * and, when V8 collects one, removes the hook through a check that aborts the process when it
 * finds no current Node environment, and from a collection it finds none: a process whose
 * prepared statements V8 collects dies within the first thousand or so (`Assertion failed:
 * (env) != nullptr` in node::RemoveEnvironmentCleanupHook, from Statement::~Statement;
 * nodejs/node#65446; test/sqlite-driver.test.ts). better-sqlite3 13 is built on Node-API instead
 * and is untouched, but it needs Node-API 10, which Node 20 never got (it crashes there at the
 * first `new Database()`). So: 13, installed as the optional dependency `better-sqlite3-napi`,
 * wherever the runtime has Node-API 10 (Node 22.14 and later, 24, 26); 12 elsewhere (Node 20).
 * Both have the same API and read and write the same files.
 */
export type SqliteDriver = typeof BetterSqlite3;

const require = createRequire(import.meta.url);

function load(): { Database: SqliteDriver; name: string } {
  if (Number(process.versions.napi) >= 10) {
    try {
      return { Database: require('better-sqlite3-napi') as SqliteDriver, name: 'better-sqlite3-napi' };
    } catch (error) {
      // Not installed (an install that left optional dependencies out): 12 still works on Node
      // 22, and on 24 until V8 collects a statement at the wrong moment, so say so once.
      if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
      if (Number(process.versions.node.split('.')[0]) >= 24)
        process.emitWarning(
          'better-sqlite3-napi (an optional dependency of tended) is not installed; better-sqlite3 12 may abort the process on this Node.js',
        );
    }
  }
  return { Database: require('better-sqlite3') as SqliteDriver, name: 'better-sqlite3' };
}

const driver = load();

/** Opens a database with the better-sqlite3 build this runtime should use. */
export function openSqliteDatabase(path: string, options?: BetterSqlite3.Options): BetterSqlite3.Database {
  return new driver.Database(path, options);
}

/** The package that build came from: `better-sqlite3-napi` (13) or `better-sqlite3` (12). */
export const sqliteDriverName: string = driver.name;
