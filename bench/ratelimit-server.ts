// A server process for bench/ratelimit.ts: the real app over a seeded SQLite file, with no limiter,
// with in-process buckets, or with Redis buckets. The limit is far above what the bench sends, so
// every request pays for its bucket and none is refused.
import { serve } from '@hono/node-server';
import { generateKeyPairSync } from 'node:crypto';
import { build } from '../src/http/app.js';
import { createRateLimiter } from '../src/limits/limiter.js';
import { logNotary, systemClock } from '../src/operations/deps.js';
import { openSqliteStore } from '../src/storage/sqlite/open.js';
import { offlineSources } from './offline-sources.js';

const [mode, port, dbPath, redisUrl, prefix] = process.argv.slice(2);
process.on('SIGINT', () => process.exit(0));
const store = await openSqliteStore(dbPath!);
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const limiter =
  mode === 'none'
    ? undefined
    : createRateLimiter({ free: 1e9, keyed: 1e9, redisUrl: mode === 'redis' ? redisUrl : null, redisPrefix: prefix });
if (mode === 'redis' && !(await limiter!.waitForShared(3_000))) throw new Error(`Redis at ${redisUrl} does not answer`);
const app = build({
  store,
  notary: logNotary('bench/log', privateKey, publicKey),
  clock: systemClock,
  sources: offlineSources(),
  logError: console.error,
  limiter,
});
serve({ fetch: app.fetch, port: Number(port), hostname: '127.0.0.1' }, () => process.send?.('ready'));
