import { normaliseComponent } from '../../src/domain/component.js';
import { takeCensus } from '../../src/operations/census.js';
import { observeNamed } from '../../src/operations/observe.js';
import { demoScenario } from '../../src/simulator/demo.js';
import { startHarness, type Harness } from '../../src/simulator/harness.js';
import { fixedClock, testNotary } from './record.js';
import type { Store } from '../../src/storage/store.js';

/** The npm packages of the demo scenario, and the days the record below observes them on. */
export const PAGE_PACKAGES = ['left-padded', '@acme/widgets', 'evil-pkg'];
const DAYS = ['2025-06-01', '2025-07-15', '2025-08-05', '2025-11-20', '2026-04-02'];
export const LAST_DAY = DAYS.at(-1)!;

/**
 * A record for the pages, filled the way production fills it: the observer reads the simulator on
 * several days (so series carry state changes) and a census is taken on the last one.
 * left-padded: dormant → archived (deprecated); @acme/widgets: dormant → alive; evil-pkg: 0 dependents.
 */
export async function fillPageRecord(store: Store) {
  const notary = testNotary('pages.tended.test/log');
  const clock = fixedClock(`${DAYS[0]}T12:00:00Z`);
  await store.initialiseLog(notary.seal);
  const refs = PAGE_PACKAGES.map((id) => normaliseComponent('npm', id));
  let harness: Harness | null = null;
  for (const day of DAYS) {
    harness = await startHarness({ scenario: demoScenario(), today: day });
    clock.set(`${day}T12:00:00Z`);
    await observeNamed({ store, notary, clock, sources: harness.sources }, refs, 2);
    if (day !== LAST_DAY) await harness.close();
  }
  await takeCensus({ store, notary, clock, sources: harness!.sources }, refs);
  return { store, notary, clock, harness: harness! };
}
