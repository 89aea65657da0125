// A server process for bench/read.ts: `tended` serves the real app over a seeded SQLite file;
// `bare` serves the given bytes from node:http, the baseline.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { build } from '../src/http/app.js';
import { openSqliteStore } from '../src/storage/sqlite/open.js';
import { logNotary, systemClock } from '../src/operations/deps.js';
import { generateKeyPairSync } from 'node:crypto';
import { offlineSources } from './offline-sources.js';

const [mode, port, arg] = process.argv.slice(2);
// A normal exit on SIGINT, so `node --cpu-prof` can write its profile when the bench is profiled.
process.on('SIGINT', () => process.exit(0));
if (mode === 'bare') {
  const body = readFileSync(arg!);
  createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  }).listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
} else {
  const store = await openSqliteStore(arg!);
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const sources = offlineSources();
  const app = build({
    store,
    notary: logNotary('bench/log', privateKey, publicKey),
    clock: systemClock,
    sources,
    logError: console.error,
  });
  serve({ fetch: app.fetch, port: Number(port), hostname: '127.0.0.1' }, () => process.send?.('ready'));
}
