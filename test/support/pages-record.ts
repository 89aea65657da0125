import { normaliseComponent, type ComponentKind } from '../../src/domain/component.js';
import { takeCensus } from '../../src/operations/census.js';
import { observeNamed } from '../../src/operations/observe.js';
import { demoScenario } from '../../src/simulator/demo.js';
import { startHarness, type Harness } from '../../src/simulator/harness.js';
import { fixedClock, testNotary } from './record.js';
import type { Store } from '../../src/storage/store.js';

/** The packages of the demo scenario the record below observes, and the days it observes them on. */
export const PAGE_PACKAGES: [ComponentKind, string][] = [
  ['npm', 'left-padded'],
  ['npm', '@acme/widgets'],
  ['npm', 'evil-pkg'],
  // One package of every other registry with a census, and NuGet's, which has none.
  ['pypi', 'tiny-parser'],
  ['maven', 'org.acme:rocket-core'],
  ['golang', 'github.com/acme/rocket'],
  ['cargo', 'rocket-rs'],
  ['gem', 'rocket-rb'],
  ['composer', 'acme/rocket-php'],
  ['nuget', 'acme.rocket'],
  // Kinds with no dependents count at all, which have a page once observed.
  ['github', 'acme/rocket'],
  ['docker', 'node:18-alpine'],
  ['distro', 'debian/12'],
];
const DAYS = ['2025-06-01', '2025-07-15', '2025-08-05', '2025-11-20', '2026-04-02'];
export const LAST_DAY = DAYS.at(-1)!;

/**
 * A record for the pages, filled the way production fills it: the observer reads the simulator on
 * several days (so series carry state changes) and a census is taken on the last one.
 * left-padded: dormant → archived (deprecated); @acme/widgets: dormant → alive; evil-pkg: 0 dependents;
 * tiny-parser (PyPI): alive → dormant → archived (Development Status :: 7 - Inactive).
 */
export async function fillPageRecord(store: Store) {
  const notary = testNotary('pages.tended.test/log');
  const clock = fixedClock(`${DAYS[0]}T12:00:00Z`);
  await store.initialiseLog(notary.seal);
  const refs = PAGE_PACKAGES.map(([kind, id]) => normaliseComponent(kind, id));
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
