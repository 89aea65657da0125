/**
 * `node sqlite-churn.mjs PACKAGE`: prepares statements with better-sqlite3 from PACKAGE and drops
 * them, many thousands, in this thread and in a worker thread that ends with its database still
 * open, so that V8 collects them while JavaScript runs and at the worker's exit. Run by
 * test/sqlite-driver.test.ts as a process of its own: better-sqlite3 12 compiled against Node
 * 24.19's headers or later aborts such a process within the first thousand statements
 * (`Assertion failed: (env) != nullptr`).
 */
import { createRequire } from 'node:module';
import { isMainThread, Worker, workerData } from 'node:worker_threads';

const STATEMENTS = 20_000;
const pkg = isMainThread ? process.argv[2] : workerData;
const Database = createRequire(import.meta.url)(pkg);

const db = new Database(':memory:');
db.exec('CREATE TABLE t (x INTEGER)');
let garbage = [];
for (let i = 0; i < STATEMENTS; i++) {
  db.prepare('INSERT INTO t VALUES (?)').run(i);
  // Short-lived garbage beside each statement, so young-generation collections come often.
  garbage = new Array(64).fill(i);
}

if (isMainThread) {
  const worker = new Worker(new URL(import.meta.url), { workerData: pkg });
  const code = await new Promise((resolve) => worker.on('exit', resolve));
  console.log(`${pkg}: ${STATEMENTS} statements in each of two threads (${garbage.length}), worker exit ${code}`);
}
