import { storeContract } from './store-contract.js';
import { sqliteTestStore } from './support/record.js';

storeContract('sqlite', sqliteTestStore);
