// The entry of a worker thread when Tended runs from its TypeScript sources (vitest, tsx): a thread
// does not inherit the parent's `--import tsx`, so it registers tsx itself, then loads the real
// entry, named in workerData.entry (the parse workers, the audit's leaf hasher). Built code (dist/)
// starts each thread's compiled .js directly and never reads this file.
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.entry);
