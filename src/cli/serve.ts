import { serve } from '@hono/node-server';
import pino from 'pino';
import type { Config } from '../config/config.js';
import { build } from '../http/app.js';
import { startSchedule } from '../observer/schedule.js';
import { openObserver, PASS_OPTIONS } from './record.js';
import type { CliWiring } from './run.js';

/** `tended serve`: the HTTP service until SIGINT/SIGTERM, then a clean close of the store. */
export async function serveCommand(config: Config, wiring: CliWiring): Promise<number> {
  const log = pino({ base: undefined });
  const deps = await openObserver(config, wiring);
  // Errors are logged by kind and message only: never a request body, a header or a client IP.
  const app = build({
    ...deps,
    logError: (error) => log.error({ err: error }, 'request failed'),
    pageMinDependents: config.pageMinDependents,
    rateLimitFree: config.rateLimitFree,
    rateLimitKey: config.rateLimitKey,
    publicUrl: config.publicUrl,
  });
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    log.info({ port: info.port, host: config.host, store: deps.store.backend, origin: deps.notary.origin }, 'tended listening');
    wiring.stdout.write(`tended: listening on http://${config.host}:${info.port} (${deps.store.backend})\n`);
  });
  const schedule = config.observer
    ? startSchedule(deps, {
        ...PASS_OPTIONS,
        everyMs: 60_000,
        onPass: (report) => log.info({ ...report }, 'observer pass'),
        onError: (error) => log.error({ err: error }, 'observer pass failed'),
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
  await schedule?.stop();
  await deps.store.close();
  return 0;
}
