import { openSqliteStore } from '../src/storage/sqlite/open.js';
import { logNotary, systemClock } from '../src/operations/deps.js';
import { build } from '../src/http/app.js';
import { generateKeyPairSync } from 'node:crypto';
const store = await openSqliteStore('/tmp/prof.db');
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const app = build({ store, notary: logNotary('b/l', privateKey, publicKey), clock: systemClock, logError: console.error });
const t = performance.now();
for (let i = 0; i < 20000; i++) { const r = await app.request('/api/v1/entity/org7/repo7?as_of=2025-03-15'); await r.text(); }
console.log(((performance.now() - t) / 20000 * 1000).toFixed(1), 'µs');
