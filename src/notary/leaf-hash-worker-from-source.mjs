// The leaf-hash thread's entry when Tended runs from its TypeScript sources (vitest, tsx): a worker
// thread does not inherit the parent's `--import tsx`, so it registers tsx itself, then loads the
// real entry. Built code (dist/) starts leaf-hash-worker.js directly and never reads this file.
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.entry);
