// A separate claimer process for the contract suite: opens the store at URL, claims up to LIMIT
// due components ROUNDS times, and prints the claimed ids as JSON.
import { openPostgresStore } from '../../src/storage/postgres/open.js';
import { openSqliteStore } from '../../src/storage/sqlite/open.js';

const [url, now, lease, limit, rounds] = process.argv.slice(2) as [string, string, string, string, string];
const store = url.startsWith('sqlite:')
  ? await openSqliteStore(url.slice('sqlite:'.length))
  : await openPostgresStore(url, { max: 2 });
const claimed: string[] = [];
for (let i = 0; i < Number(rounds); i++)
  claimed.push(...(await store.claimDue(now, Number(limit), lease)).map((r) => r.id));
await store.close();
process.stdout.write(JSON.stringify(claimed));
