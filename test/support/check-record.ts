import { readFileSync } from 'node:fs';
import { build } from '../../src/http/app.js';
import { demoScenario } from '../../src/simulator/demo.js';
import { startHarness } from '../../src/simulator/harness.js';
import type { State } from '../../src/domain/state.js';
import { recordDeps, sqliteTestStore } from './record.js';

/** A real lockfile from the corpus (mocha's npm v3 lockfile, ~700 packages) and a small real SBOM. */
export const MOCHA_LOCK = readFileSync(
  new URL('../corpus/package-lock/mocha.v3.package-lock.json', import.meta.url),
  'utf8',
);
export const TRIVY_SBOM = readFileSync(
  new URL('../corpus/cyclonedx/trivy-nested-packages-bom.json', import.meta.url),
  'utf8',
);

const npmObservation = (id: string, state: State) => ({
  component: { kind: 'npm' as const, id },
  observed_at: '2026-11-01T06:00:00Z',
  observation_date: '2026-11-01',
  state,
  source: `https://registry.npmjs.org/${id}`,
  evidence: { http_status: 200, latest_published: '2025-01-10T00:00:00.000Z' },
  method: 'npm: latest publish and deprecation of latest',
  corrects: null,
});

/**
 * The app over a SQLite record holding two of the lockfile's packages (chokidar alive, debug
 * dormant); the rest of it is "not checked", as on a fresh deployment.
 */
export async function checkPageApp() {
  const t = await sqliteTestStore();
  const harness = await startHarness({ scenario: demoScenario(), today: '2026-11-22' });
  const deps = recordDeps(t.store, '2026-11-22T12:00:00Z');
  await t.store.initialiseLog(deps.notary.seal);
  await t.store.appendObservations(
    [npmObservation('chokidar', 'alive'), npmObservation('debug', 'dormant')],
    deps.notary.seal,
  );
  const app = build({ ...deps, sources: harness.sources, logError: (e) => console.error(e) });
  return {
    app,
    close: async () => {
      await harness.close();
      await t.dispose();
    },
  };
}
