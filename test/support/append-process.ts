// A separate writer process for the contract suite: opens the store at URL with the signing key at
// KEY and appends COUNT observations in batches of BATCH, saying "batch" before each append.
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { addDays } from '../../src/domain/calendar.js';
import { logNotary } from '../../src/operations/deps.js';
import { openPostgresStore } from '../../src/storage/postgres/open.js';
import { openSqliteStore } from '../../src/storage/sqlite/open.js';
import { githubObservation } from './record.js';

const [url, keyPath, origin, prefix, count, batch] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string,
];
const privateKey = createPrivateKey(readFileSync(keyPath));
const notary = logNotary(origin, privateKey, createPublicKey(privateKey));
const store = url.startsWith('sqlite:')
  ? await openSqliteStore(url.slice('sqlite:'.length))
  : await openPostgresStore(url, { max: 2 });
const total = Number(count);
const size = Number(batch);
for (let at = 0; at < total; at += size) {
  const observations = Array.from({ length: Math.min(size, total - at) }, (_, i) =>
    githubObservation(`${prefix}/r${at + i}`, addDays('2025-01-01', (at + i) % 300), 'alive'),
  );
  process.stdout.write('batch\n');
  await store.appendObservations(observations, notary.seal);
}
await store.close();
process.stdout.write('done\n');
