import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { normaliseComponent } from '../../src/domain/component.js';
import { build } from '../../src/http/app.js';
import { observeNamed, type ObserverDeps } from '../../src/operations/observe.js';
import { demoScenario } from '../../src/simulator/demo.js';
import { startHarness, type Harness } from '../../src/simulator/harness.js';
import { recordDeps, sqliteTestStore, type TestStore } from './record.js';

export const TODAY = '2026-11-22';
/** The observation dates of the record: each a pass of the observer over the simulator. */
export const OBSERVED_ON = ['2025-06-01', '2026-01-10', TODAY];
export const OBSERVED = [
  ['github', 'acme/rocket'],
  ['github', 'acme/vanishing'],
  ['npm', 'left-padded'],
  ['pypi', 'tiny-parser'],
  ['docker', 'node:18-alpine'],
  // Abandoned on Packagist in favour of acme/rocket-next: the answer names its successor.
  ['composer', 'acme/rocket-php'],
] as const;

/**
 * A record filled by the real observer reading the simulator on three dates, so the tools answer
 * from series with real state changes, deaths and leaves.
 */
export interface ObservedRecord {
  t: TestStore;
  deps: ObserverDeps & { clock: { set(iso: string): void } };
  /** The simulator as of today, still up: the app's sources (a dispute would read it). */
  harness: Harness;
  dispose(): Promise<void>;
}

export async function observedRecord(): Promise<ObservedRecord> {
  const t = await sqliteTestStore();
  const deps = recordDeps(t.store, `${OBSERVED_ON[0]}T12:00:00Z`);
  await t.store.initialiseLog(deps.notary.seal);
  let harness: Harness | null = null;
  for (const date of OBSERVED_ON) {
    await harness?.close();
    harness = await startHarness({ scenario: demoScenario(), today: date });
    deps.clock.set(`${date}T12:00:00Z`);
    await observeNamed(
      { ...deps, sources: harness.sources },
      OBSERVED.map(([kind, id]) => normaliseComponent(kind, id)),
      4,
    );
  }
  const today = harness!;
  return {
    t,
    deps: { ...deps, sources: today.sources },
    harness: today,
    dispose: async () => {
      await today.close();
      await t.dispose();
    },
  };
}

export interface ServedApp {
  url: string;
  /** Every request the server received, in order: method and the headers the tests look at. */
  requests: { method: string; accept: string | null; sessionId: string | null; version: string | null }[];
  close(): Promise<void>;
}

/** The app served over real loopback HTTP on a free port, as `tended serve` binds it. */
export async function serveApp(deps: ObserverDeps, listenHost = '127.0.0.1'): Promise<ServedApp> {
  const app = build({ ...deps, listenHost, logError: (error) => console.error(error) });
  const requests: ServedApp['requests'] = [];
  const server = serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: (request: Request) => {
      const h = request.headers;
      requests.push({
        method: request.method,
        accept: h.get('accept'),
        sessionId: h.get('mcp-session-id'),
        version: h.get('mcp-protocol-version'),
      });
      return app.fetch(request);
    },
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        (server as unknown as { closeAllConnections(): void }).closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
