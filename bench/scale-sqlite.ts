/**
 * bench:scale on SQLite: BENCH_OBSERVATIONS observations (default 1,000,000) over a tenth as many
 * components, appended through the store's real append path by one process in batches of 5,000,
 * then the file's bytes per observation (tables, indexes and free pages: the whole file).
 *   npx tsx bench/scale-sqlite.ts
 */
import { statSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { addDays } from '../src/domain/calendar.js';
import type { NewObservation } from '../src/domain/observation.js';
import { logNotary } from '../src/operations/deps.js';
import { openSqliteDatabase } from '../src/storage/sqlite/driver.js';
import { openSqliteStore } from '../src/storage/sqlite/open.js';

const TARGET = Number(process.env.BENCH_OBSERVATIONS ?? 1_000_000);
const COMPONENTS = Math.ceil(TARGET / 10);
const BATCH = 5_000;
const dir = mkdtempSync(join(tmpdir(), 'tended-scale-sqlite-'));
const path = join(dir, 'tended.db');
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const notary = logNotary('tended.local/log/v1', privateKey, publicKey);
const store = await openSqliteStore(path);
await store.initialiseLog(notary.seal);
const STATES = ['alive', 'alive', 'alive', 'dormant', 'abandoned', 'archived', 'not_observed'] as const;
let appended = 0;
const started = performance.now();
for (let day = 0; appended < TARGET; day++) {
  const date = addDays('2025-01-01', day);
  for (let first = 0; first < COMPONENTS && appended < TARGET; first += BATCH) {
    const list: NewObservation[] = [];
    for (let c = first; c < Math.min(COMPONENTS, first + BATCH) && appended + list.length < TARGET; c++) {
      const repo = `scale${c % 1000}/repo${c}`;
      const state = STATES[(c * 7 + Math.floor((day + (c % 13)) / 21)) % STATES.length]!;
      list.push({
        component: { kind: 'github', id: repo },
        observed_at: `${date}T${String(c % 24).padStart(2, '0')}:00:00Z`,
        observation_date: date,
        state,
        source: `https://api.github.com/repos/${repo}`,
        evidence:
          state === 'not_observed'
            ? { http_status: 429, error: 'rate limited' }
            : {
                http_status: 200,
                last_commit: `${addDays(date, -(c % 400))}T00:00:00Z`,
                archived: state === 'archived',
              },
        method: 'github: default-branch head commit date and archived flag',
        corrects: null,
      });
    }
    await store.appendObservations(list, notary.seal);
    appended += list.length;
  }
}
const seconds = (performance.now() - started) / 1000;
await store.close();
const db = openSqliteDatabase(path);
db.pragma('wal_checkpoint(TRUNCATE)');
db.close();
const bytes = statSync(path).size;
console.log(
  `SQLite: ${appended.toLocaleString('en')} observations over ${COMPONENTS.toLocaleString('en')} components appended in ${seconds.toFixed(0)} s = ${(appended / seconds).toFixed(0)}/s (one process)`,
);
console.log(
  `bytes on disk per observation: ${(bytes / appended).toFixed(1)} (the whole file: ${(bytes / 2 ** 20).toFixed(0)} MiB); budget 200, goal 120, ratio to budget = ${(bytes / appended / 200).toFixed(2)}`,
);
rmSync(dir, { recursive: true, force: true });
