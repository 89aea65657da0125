import { storeContract } from './store-contract.js';
import { storeRecordsContract } from './store-contract-records.js';
import { sqliteTestStore } from './support/record.js';

storeContract('sqlite', sqliteTestStore);
storeRecordsContract('sqlite', sqliteTestStore);
