// A separate webhook sender for the end-to-end webhook test: opens the store at URL and runs one
// delivery step on the real clock, as a `serve` or `tended observe` worker would. The test kills it
// with SIGKILL while a receiver holds its request.
import { deliverDue, DELIVERY_DEFAULTS } from '../../src/operations/webhook-delivery.js';
import { openPostgresStore } from '../../src/storage/postgres/open.js';
import { openSqliteStore } from '../../src/storage/sqlite/open.js';
import { testNotary } from './record.js';

const [url] = process.argv.slice(2) as [string];
const store = url.startsWith('sqlite:')
  ? await openSqliteStore(url.slice('sqlite:'.length))
  : await openPostgresStore(url, { max: 2 });
process.stdout.write('started\n');
const report = await deliverDue(
  { store, notary: testNotary(), clock: { now: () => new Date() }, publicUrl: 'http://127.0.0.1:8080' },
  { ...DELIVERY_DEFAULTS, allowPrivate: true },
);
await store.close();
process.stdout.write(JSON.stringify(report));
