import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createServer, type IncomingMessage, type ServerOptions, type ServerResponse } from 'node:http';
import { hotReads, type Listener } from '../http/hot-path.js';
import { hotProviders } from '../http/hot-providers.js';
import { badgeCache } from '../pages/badge-answer.js';
import { packagePageCache } from '../pages/package-answer.js';
import { HeadAnswers } from '../operations/read-chain.js';
import { entityAnswerCache } from '../operations/read-entity.js';
import { createRateLimiter } from '../limits/limiter.js';
import pino from 'pino';
import type { Config } from '../config/config.js';
import { build } from '../http/app.js';
import { ParsePool } from '../operations/parse-pool.js';
import { requestBodies } from '../api/body-budget.js';
import { OBSERVER_PASS_MS, startSchedule } from '../observer/schedule.js';
import { startConfiguredFollowing } from './follow-commands.js';
import { followStatus } from '../operations/follow.js';
import type { Following } from '../observer/follow-loop.js';
import { closeRecord, openObserver, PASS_OPTIONS, USER_AGENT } from './record.js';
import { startWitnessing } from '../observer/witness-loop.js';
import { parseCosignerKey } from '../notary/cosignature.js';
import { openVerdicts } from './signing.js';
import { listenMetrics, ServiceMetrics, watchBudgets, watchFollowers } from './metrics.js';
import type { CliWiring } from './wiring.js';
import { startDelivering, type Delivering } from '../observer/webhook-loop.js';
import { deliveryDeps, deliverySettings } from './webhooks.js';

/** `tended serve`: the HTTP service until SIGINT/SIGTERM, then a clean close of the store. */
export async function serveCommand(config: Config, wiring: CliWiring): Promise<number> {
  const log = pino({ base: undefined });
  // Made first, so the upstream clients, the edge and the hot path can be handed their parts.
  const metrics = config.metrics ? new ServiceMetrics() : null;
  const deps = await openObserver(config, wiring, metrics ? { watcher: metrics.upstreams } : {});
  const limiter = createRateLimiter({
    free: config.rateLimitFree,
    keyed: config.rateLimitKey,
    redisUrl: config.redisUrl,
    trustProxy: config.trustProxy,
    // Said once per change, never per request: the service goes on either way.
    onRedisState: (state, error) =>
      state === 'connected'
        ? log.info({ rate_limit: 'redis' }, 'rate-limit buckets in Redis')
        : log.warn(
            { rate_limit: 'memory', reason: error instanceof Error ? error.message : undefined },
            'Redis unreachable: rate-limit buckets in this process until it is back',
          ),
  });
  if (config.redisUrl && !(await limiter.waitForShared(2_000)))
    log.warn('Redis did not answer at start: serving with in-process rate-limit buckets meanwhile');
  // Errors are logged by kind and message only: never a request body, a header or a client IP.
  const verdicts = config.verdicts ? await openVerdicts(config, deps) : null;
  // One cache for each route and the hot path in front of it; entity answers bounded by
  // TENDED_ANSWER_CACHE_BYTES, badges and pages by count, the head by being one.
  const entityAnswers = entityAnswerCache(config.answerCacheBytes);
  const badgeAnswers = badgeCache();
  const headAnswers = new HeadAnswers();
  const packagePages = packagePageCache();
  // Submissions are parsed in worker threads, each parse under a deadline and a heap budget.
  const parsing = new ParsePool(config.parsing);
  // The process's budget of unfinished request bodies (api/body-budget.ts), as configured.
  requestBodies.options = config.bodies;
  await parsing.ready();
  metrics?.watch({
    store: deps.store,
    clock: deps.clock,
    caches: { entity: entityAnswers, badge: badgeAnswers, page: packagePages },
    parsing,
    discoveryDaily: config.discovery.dailyCap,
  });
  // Started with the observer (below); /healthz reads the followers' rows whether or not this process follows.
  let following: Following | null = null;
  const followed = config.follow.registries;
  if (metrics) watchBudgets(metrics, deps.budgets);
  if (metrics && followed.length > 0)
    watchFollowers(metrics, () => followStatus(deps.store, followed, deps.clock, (r) => following?.local(r) ?? null));
  // One set of deps for the app and the page provider: the pages' base URL and threshold are the same.
  const appDeps = {
    ...deps,
    entityAnswers,
    badgeAnswers,
    headAnswers,
    packagePages,
    limiter,
    verdicts,
    listenHost: config.host,
    parsing,
    logError: (error: unknown) => log.error({ err: error }, 'request failed'),
    pageMinDependents: config.pageMinDependents,
    rateLimitFree: config.rateLimitFree,
    rateLimitKey: config.rateLimitKey,
    publicUrl: config.publicUrl,
    exportDir: config.exportDir,
    discovery: config.discovery,
    allowPrivateWebhooks: config.webhookAllowPrivate,
    ...(metrics ? { requests: metrics.requests } : {}),
    ...(followed.length > 0
      ? { followers: () => followStatus(deps.store, followed, deps.clock, (r) => following?.local(r) ?? null) }
      : {}),
  };
  const app = build(appDeps);
  const providers = hotProviders(appDeps, appDeps, { signed: verdicts !== null });
  const hot = hotReads({ limiter, providers, ...(metrics ? { requests: metrics.requests } : {}) });
  const server = listen(
    app.fetch,
    { port: config.port, host: config.host },
    (port) => {
      log.info(
        {
          port,
          host: config.host,
          store: deps.store.backend,
          origin: deps.notary.origin,
          rate_limit: limiter.status().buckets,
        },
        'tended listening',
      );
      wiring.stdout.write(`tended: listening on http://${config.host}:${port} (${deps.store.backend})\n`);
    },
    SERVER_TIMEOUTS,
    hot,
  );
  const metricsServer =
    metrics && config.metrics
      ? listenMetrics(metrics, config.metrics, (port) => {
          log.info({ port, host: config.metrics!.host }, 'metrics listening');
          wiring.stdout.write(`tended: metrics on http://${urlHost(config.metrics!.host)}:${port}/metrics\n`);
        })
      : null;
  // The webhook sender runs where the observer does (DESIGN §8f); each pass nudges it.
  const delivering: Delivering | null = config.observer
    ? startDelivering(deliveryDeps(config, deps), deliverySettings(config), {
        onReport: (report) => log.info({ ...report }, 'webhook deliveries'),
        onError: (error) =>
          log.error(
            { err: error instanceof Error ? error.message : String(error) },
            'webhook delivery step failed; trying again shortly',
          ),
      })
    : null;
  const schedule = config.observer
    ? startSchedule(deps, {
        ...PASS_OPTIONS,
        discoveryDailyCap: config.discovery.dailyCap,
        sweepDays: config.follow.sweepDays,
        everyMs: OBSERVER_PASS_MS,
        onPass: (report) => {
          delivering?.nudge();
          metrics?.pass(report);
          log.info({ ...report }, 'observer pass');
        },
        onError: (error) => {
          metrics?.passFailed();
          log.error(
            { err: error instanceof Error ? error.message : String(error) },
            'observer pass failed; trying again shortly',
          );
        },
      })
    : null;
  // Each new checkpoint goes to the configured witnesses (C2SP tlog-witness), whatever appended it.
  const witnessing =
    config.witnesses.length > 0
      ? startWitnessing(
          deps,
          config.witnesses.map((w) => ({ cosigner: parseCosignerKey(w.vkey), url: w.url })),
          {
            everyMs: config.witnessPeriodMs,
            timeoutMs: WITNESS_TIMEOUT_MS,
            userAgent: USER_AGENT,
            onOutcome: (outcome) => {
              if (outcome.kind === 'cosigned') log.info({ ...outcome }, 'witness cosigned the checkpoint');
              else if (outcome.kind === 'refused' && outcome.inconsistent)
                log.error(
                  { ...outcome },
                  'WITNESS REFUSED THE CHECKPOINT AS INCONSISTENT: the log is not the one this witness saw (a fork or a rewritten history); not sent again until a new checkpoint',
                );
              else log.warn({ ...outcome }, 'witness did not cosign the checkpoint; trying again after a back-off');
            },
            onError: (witness, error) =>
              log.error(
                { witness, err: error instanceof Error ? error.message : String(error) },
                'witness round failed',
              ),
          },
        )
      : null;
  // The followers feed the observer's watch list, so they run where it does (TENDED_OBSERVER=on).
  following = config.observer
    ? startConfiguredFollowing(config, deps, {
        onPass: (registry, summary) => {
          // What the pass held is due now: read it now, not at the observer's next period.
          if (summary.listed + summary.hints > 0) schedule?.nudge();
          log.info(
            {
              registry,
              batches: summary.batches,
              listed: summary.listed,
              hints: summary.hints,
              faults: summary.faults.length,
            },
            'follower pass',
          );
        },
        onError: (registry, error) =>
          log.error(
            { registry, err: error instanceof Error ? error.message : String(error) },
            'follower pass failed; trying again shortly',
          ),
      })
    : null;
  await new Promise<void>((resolve) => {
    const stop = () => {
      server.close(() => resolve());
      // Idle keep-alive sockets would hold close() open; in-flight requests still finish.
      (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await new Promise<void>((resolve) => (metricsServer ? metricsServer.close(() => resolve()) : resolve()));
  await following?.stop();
  await schedule?.stop();
  await witnessing?.stop();
  await delivering?.stop();
  await limiter.close();
  await parsing.close();
  await closeRecord(deps);
  return 0;
}

/** A witness answers add-checkpoint from what it holds: a few seconds is already slow. */
const WITNESS_TIMEOUT_MS = 10_000;

/** An address as a URL writes it: an IPv6 one in brackets. */
function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Time-outs that keep slow clients from holding the server: the headers must arrive within
 * headersTimeoutMs and the whole request (a 4 MB SBOM included) within requestTimeoutMs, else Node
 * answers 408 and closes the connection. Node checks them every checkIntervalMs.
 */
export const SERVER_TIMEOUTS = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, checkIntervalMs: 1_000 } as const;

export function listen(
  fetch: Parameters<typeof serve>[0]['fetch'],
  at: { port: number; host: string },
  onListening: (port: number) => void,
  timeouts: { headersTimeoutMs: number; requestTimeoutMs: number; checkIntervalMs: number } = SERVER_TIMEOUTS,
  /** Puts a listener in front of the framework's (the hot path), handing it what it does not answer. */
  inFront?: (framework: Listener) => Listener,
): ServerType {
  return serve(
    {
      fetch,
      ...(inFront
        ? {
            createServer: ((options: ServerOptions, framework: (req: IncomingMessage, res: ServerResponse) => void) =>
              createServer(options, inFront(framework))) as typeof createServer,
          }
        : {}),
      port: at.port,
      hostname: at.host,
      serverOptions: {
        headersTimeout: timeouts.headersTimeoutMs,
        requestTimeout: timeouts.requestTimeoutMs,
        connectionsCheckingInterval: timeouts.checkIntervalMs,
      },
    },
    (info: AddressInfo) => onListening(info.port),
  );
}
