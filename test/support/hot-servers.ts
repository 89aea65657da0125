import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { expect } from 'vitest';
import { normaliseComponent, type ComponentKind } from '../../src/domain/component.js';
import { build } from '../../src/http/app.js';
import { hotReads } from '../../src/http/hot-path.js';
import { hotProviders } from '../../src/http/hot-providers.js';
import type { RequestMetrics } from '../../src/http/request-metrics.js';
import { createRateLimiter, type RateLimiter } from '../../src/limits/limiter.js';
import { HeadAnswers } from '../../src/operations/read-chain.js';
import { entityAnswerCache } from '../../src/operations/read-entity.js';
import { badgeCache } from '../../src/pages/badge-answer.js';
import { packagePageCache, type PackagePageCache } from '../../src/pages/package-answer.js';
import { closedSources } from './limits.js';
import { githubObservation, recordDeps, sqliteTestStore, type TestStore } from './record.js';

// Two servers on one app for the hot path's tests (test/http-hot-*.test.ts): one with the hot path
// in front of the framework, one with the framework alone, so each hot answer can be compared with
// the framework's to the same request. The bindings below are live: start() sets them.
export let t: TestStore;
export let deps: ReturnType<typeof recordDeps>;
export let limiter: RateLimiter;
let servers: Server[];
/** The server with the hot path in front of the framework. */
export let hot: string;
/** The framework alone, on the same app. */
export let framework: string;
/** Requests the hot path handed to the framework. */
export let handedOver: number;
export let packagePages: PackagePageCache;
/** What the edge and the hot path told the metrics of each answer, in order, and which of them told it. */
export let answered: { via: 'hot' | 'framework'; route: string; method: string; status: number }[];

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Packages with a page (a census at or above the threshold of 1), and one below it. */
const PAGED: [ComponentKind, string, number][] = [
  ['npm', '@acme/widgets', 12],
  ['npm', 'left-padded', 40],
  ['pypi', 'tiny-parser', 3],
  ['cargo', 'rocket-rs', 2],
  ['gem', 'rocket-rb', 5],
  ['maven', 'org.acme:rocket-core', 7],
  ['composer', 'acme/rocket-php', 9],
  ['golang', 'github.com/acme/rocket', 4],
  ['npm', 'lonely', 0],
];

async function fillPages() {
  const refs = PAGED.map(([kind, id, dependents]) => ({ component: normaliseComponent(kind, id), dependents }));
  await t.store.appendObservations(
    refs
      .filter((r) => r.component.id !== '@acme/widgets')
      .map((r) => ({
        ...githubObservation('acme/x', '2026-11-19', 'alive'),
        component: r.component,
        source: `https://upstream.test/${r.component.kind}`,
      })),
    deps.notary.seal,
  );
  await t.store.appendCensus(
    refs.map((r) => ({
      component: r.component,
      read_at: '2026-11-21T07:00:00Z',
      read_date: '2026-11-21',
      dependents: r.dependents,
      source: `https://dependents.test/${r.component.kind}`,
      evidence: {},
      method: 'dependents count',
    })),
    deps.notary.seal,
  );
}

export async function start(free: number, options: { sealed?: boolean; pages?: boolean } = {}) {
  t = await sqliteTestStore();
  deps = recordDeps(t.store, '2026-11-22T12:00:00Z');
  if (options.sealed !== false) {
    await t.store.initialiseLog(deps.notary.seal);
    await t.store.appendObservations(
      [
        githubObservation('acme/rocket', '2026-06-01', 'alive'),
        githubObservation('acme/rocket', '2026-11-20', 'dormant'),
        {
          ...githubObservation('acme/x', '2026-11-18', 'alive'),
          component: normaliseComponent('npm', '@acme/widgets'),
          source: 'https://upstream.test/npm',
        },
      ],
      deps.notary.seal,
    );
    if (options.pages) await fillPages();
  }
  limiter = createRateLimiter({ free, keyed: 1000 });
  const entityAnswers = entityAnswerCache(1024 * 1024);
  const badgeAnswers = badgeCache();
  const headAnswers = new HeadAnswers();
  packagePages = packagePageCache();
  answered = [];
  const told = (via: 'hot' | 'framework'): RequestMetrics => ({
    answered: (route, method, status) => answered.push({ via, route, method, status }),
  });
  const app = build({
    ...deps,
    requests: told('framework'),
    sources: closedSources(),
    discovery: { enabled: true, dailyCap: 100, clientShare: 100 },
    logError: () => {},
    limiter,
    entityAnswers,
    badgeAnswers,
    headAnswers,
    packagePages,
  });
  const frameworkListener = getRequestListener(app.fetch);
  handedOver = 0;
  const listener = hotReads({
    limiter,
    requests: told('hot'),
    providers: hotProviders(deps, { entityAnswers, badgeAnswers, headAnswers, packagePages }, { signed: false }),
  })((req, res) => {
    handedOver++;
    return frameworkListener(req, res);
  });
  servers = [];
  hot = await listening(createServer(listener));
  // The framework alone, as `tended serve` ran before the hot path (its promise is the server's to ignore).
  framework = await listening(createServer((req, res) => void frameworkListener(req, res)));
}

/** Closes what start() opened: each test file calls it after each test. */
export async function stop(): Promise<void> {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await limiter.close();
  await t.dispose();
}

export const get = (base: string, path: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { headers, redirect: 'manual' });

/** Every header but those that differ from one answer to the next by nature (the date, the budget left). */
export const stable = (headers: Headers) =>
  [...headers].filter(([name]) => name !== 'date' && name !== 'ratelimit').sort(([a], [b]) => a.localeCompare(b));

/** The hot answer to `path`, with the framework's to the same request, bytes and headers compared. */
export async function sameAsFramework(path: string, headers: Record<string, string> = {}) {
  const before = handedOver;
  const fast = await get(hot, path, headers);
  const fastBody = Buffer.from(await fast.arrayBuffer());
  expect(handedOver, path).toBe(before);
  const slow = await get(framework, path, headers);
  const slowBody = Buffer.from(await slow.arrayBuffer());
  expect(fast.status, path).toBe(slow.status);
  expect(fastBody.equals(slowBody), path).toBe(true);
  expect(stable(fast.headers), path).toEqual(stable(slow.headers));
  return { res: fast, body: fastBody };
}

/** A request as written, dot segments and all (fetch would resolve them before sending). */
export function rawGet(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const port = new URL(hot).port;
    request({ host: '127.0.0.1', port, path }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    })
      .on('error', reject)
      .end();
  });
}
