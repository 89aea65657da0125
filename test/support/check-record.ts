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

/** ripgrep's Cargo.lock: small enough to paste in a browser test quickly. */
export const RIPGREP_LOCK = readFileSync(new URL('../corpus/cargo-lock/ripgrep.Cargo.lock', import.meta.url), 'utf8');

const observation = (kind: 'npm' | 'cargo', id: string, state: State) => ({
  component: { kind, id },
  observed_at: '2026-11-01T06:00:00Z',
  observation_date: '2026-11-01',
  state,
  source: kind === 'npm' ? `https://registry.npmjs.org/${id}` : `https://crates.io/api/v1/crates/${id}`,
  evidence: { http_status: 200, latest_published: '2025-01-10T00:00:00.000Z' },
  method: 'npm: latest publish and deprecation of latest',
  corrects: null,
});

/**
 * The app over a SQLite record holding two of mocha's packages (chokidar alive, debug dormant)
 * and one of ripgrep's crates (memchr alive); the rest of it is "not checked", as on a fresh deployment.
 */
export async function checkPageApp() {
  const t = await sqliteTestStore();
  const harness = await startHarness({ scenario: demoScenario(), today: '2026-11-22' });
  const deps = recordDeps(t.store, '2026-11-22T12:00:00Z');
  await t.store.initialiseLog(deps.notary.seal);
  await t.store.appendObservations(
    [
      observation('npm', 'chokidar', 'alive'),
      observation('npm', 'debug', 'dormant'),
      observation('cargo', 'memchr', 'alive'),
    ],
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
