// A server process for bench/read.ts: `tended` serves the real app over a seeded SQLite file, as
// `tended serve` does (rate limit, hot path in front of the framework, one shared answer cache);
// `bare` serves the given bytes with the given headers from node:http, the baseline.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { build } from '../src/http/app.js';
import { listen } from '../src/cli/serve.js';
import { ServiceMetrics } from '../src/cli/metrics.js';
import { hotReads } from '../src/http/hot-path.js';
import { hotProviders } from '../src/http/hot-providers.js';
import { badgeCache } from '../src/pages/badge-answer.js';
import { packagePageCache } from '../src/pages/package-answer.js';
import { HeadAnswers } from '../src/operations/read-chain.js';
import { createRateLimiter } from '../src/limits/limiter.js';
import { entityAnswerCache } from '../src/operations/read-entity.js';
import { ANSWER_CACHE_BYTES_DEFAULT } from '../src/config/config.js';
import { openSqliteStore } from '../src/storage/sqlite/open.js';
import { logNotary, systemClock } from '../src/operations/deps.js';
import { generateKeyPairSync } from 'node:crypto';
import { offlineSources } from './offline-sources.js';

const [mode, port, arg, headersPath] = process.argv.slice(2);
// A normal exit on SIGINT, so `node --cpu-prof` can write its profile when the bench is profiled.
process.on('SIGINT', () => process.exit(0));
// The parent asks for the resident set size (idle, and after the runs).
process.on('message', () => process.send?.({ rss: process.memoryUsage().rss }));
if (mode === 'bare') {
  const body = readFileSync(arg!);
  // The tended answer's own headers, as a flat list: the baseline does the same header work.
  const headers = JSON.parse(readFileSync(headersPath!, 'utf8')) as string[];
  createServer((_req, res) => {
    res.writeHead(200, headers);
    res.end(body);
  }).listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
} else {
  const store = await openSqliteStore(arg!);
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const sources = offlineSources();
  // The rate limit runs as in production; its budget is large enough that the runs never meet it.
  const limiter = createRateLimiter({ free: 1_000_000_000, keyed: 1_000_000_000 });
  const entityAnswers = entityAnswerCache(ANSWER_CACHE_BYTES_DEFAULT);
  const deps = {
    store,
    notary: logNotary('bench/log', privateKey, publicKey),
    clock: systemClock,
    sources,
  };
  const badgeAnswers = badgeCache();
  const headAnswers = new HeadAnswers();
  const packagePages = packagePageCache();
  // Metrics as `serve` keeps them with TENDED_METRICS_ADDRESS set (BENCH_METRICS=off: without).
  const requests = process.env.BENCH_METRICS === 'off' ? undefined : new ServiceMetrics().requests;
  const app = build({
    ...deps,
    ...(requests ? { requests } : {}),
    limiter,
    entityAnswers,
    badgeAnswers,
    headAnswers,
    packagePages,
    logError: console.error,
  });
  // The providers serve.ts puts in front, in its order.
  const hot =
    process.env.BENCH_HOT === 'off'
      ? undefined
      : hotReads({
          limiter,
          ...(requests ? { requests } : {}),
          providers: hotProviders(deps, { entityAnswers, badgeAnswers, headAnswers, packagePages }, { signed: false }),
        });
  listen(app.fetch, { port: Number(port), host: '127.0.0.1' }, () => process.send?.('ready'), undefined, hot);
}
