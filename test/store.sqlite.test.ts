import { storeContract } from './store-contract.js';
import { storeRecordsContract } from './store-contract-records.js';
import { storeDiscoveryContract } from './store-contract-discovery.js';
import { storeLayoutContract } from './store-contract-layout.js';
import { storeFollowContract } from './store-contract-follow.js';
import { storeAdoptionContract } from './store-contract-adoption.js';
import { storeScheduleContract } from './store-contract-schedule.js';
import { storeWitnessContract } from './store-contract-witness.js';
import { sqliteTestStore } from './support/record.js';

storeContract('sqlite', sqliteTestStore);
storeRecordsContract('sqlite', sqliteTestStore);
storeDiscoveryContract('sqlite', sqliteTestStore);
storeLayoutContract('sqlite', sqliteTestStore);
storeFollowContract('sqlite', sqliteTestStore);
storeAdoptionContract('sqlite', sqliteTestStore);
storeScheduleContract('sqlite', sqliteTestStore);
storeWitnessContract('sqlite', sqliteTestStore);
