// The server process for bench/sbom.ts: Tended's app over a SQLite file, reporting its memory.
import { generateKeyPairSync } from 'node:crypto';
import { serve } from '@hono/node-server';
import { build } from '../src/http/app.js';
import { logNotary, systemClock } from '../src/operations/deps.js';
import { openSqliteStore } from '../src/storage/sqlite/open.js';
import { offlineSources } from './offline-sources.js';

const [port, dbPath] = process.argv.slice(2) as [string, string];
const store = await openSqliteStore(dbPath);
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const sources = offlineSources();
const app = build({
  store,
  notary: logNotary('bench/log', privateKey, publicKey),
  clock: systemClock,
  sources,
  logError: console.error,
  // As a deployment runs by default: the queued run below writes to the watch list.
  discovery: { enabled: true, dailyCap: 100_000, clientShare: 1_000 },
});
serve({ fetch: app.fetch, port: Number(port), hostname: '127.0.0.1' }, () => process.send?.({ ready: 1 }));
// 'baseline': after the warm-up request, collect garbage and report the resting RSS and the peak so far.
// 'report': the peak RSS over the process's life (getrusage), which the big requests must have set.
process.on('message', (m) => {
  if (m === 'baseline') global.gc?.();
  process.send?.({
    rss: process.memoryUsage().rss,
    heapUsed: process.memoryUsage().heapUsed,
    maxRss: process.resourceUsage().maxRSS * 1024,
  });
});
// A normal exit on SIGTERM, so a profiled run (PROF=1) writes its profile.
process.on('SIGTERM', () => process.exit(0));
