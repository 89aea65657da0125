import { storeContract } from './store-contract.js';
import { storeRecordsContract } from './store-contract-records.js';
import { storeDiscoveryContract } from './store-contract-discovery.js';
import { storeLayoutContract } from './store-contract-layout.js';
import { storeFollowContract } from './store-contract-follow.js';
import { storeAdoptionContract } from './store-contract-adoption.js';
import { storeScheduleContract } from './store-contract-schedule.js';
import { storeWitnessContract } from './store-contract-witness.js';
import { storeWebhooksContract } from './store-contract-webhooks.js';
import { postgresTestStore } from './support/record.js';

// No skip: this suite needs PostgreSQL and fails loudly when it cannot reach it (TENDED_TEST_POSTGRES_URL).
storeContract('postgres', postgresTestStore);
storeRecordsContract('postgres', postgresTestStore);
storeDiscoveryContract('postgres', postgresTestStore);
storeLayoutContract('postgres', postgresTestStore);
storeFollowContract('postgres', postgresTestStore);
storeAdoptionContract('postgres', postgresTestStore);
storeScheduleContract('postgres', postgresTestStore);
storeWitnessContract('postgres', postgresTestStore);
storeWebhooksContract('postgres', postgresTestStore);
