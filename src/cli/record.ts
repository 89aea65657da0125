import { loadOrCreateSigningKey } from '../config/signing-key.js';
import type { Config } from '../config/config.js';
import { logNotary, systemClock, type RecordDeps } from '../operations/deps.js';
import type { CliWiring } from './wiring.js';
import type { ObserverDeps } from '../operations/observe.js';
import { RedisBudgetStore } from '../limits/upstream-budgets.js';
import { UpstreamBudgets } from '../upstreams/http/budget.js';
import { createSources } from '../upstreams/sources.js';
import type { UpstreamWatcher } from '../upstreams/http/ports.js';

/** Opens the store and the signing key: what every command that reads or writes the record needs. */
export async function openRecord(
  config: Config,
  wiring: CliWiring,
  options: { readOnly?: boolean } = {},
): Promise<RecordDeps> {
  const key = loadOrCreateSigningKey(config.signingKeyPath);
  if (key.created) wiring.stderr.write(`tended: generated a new checkpoint signing key at ${config.signingKeyPath}\n`);
  const store = await wiring.openStore(config);
  // Checkpoint keys retired by `signing rotate` stay published in the key set: heads they signed
  // still verify.
  const published = (await store.keySets()).flatMap((k) => k.document.log.vkeys.map((v) => v.vkey));
  const notary = logNotary(config.origin, key.privateKey, key.publicKey, published);
  // A command that only reads (check) leaves even an empty store as it found it.
  if (!options.readOnly) await store.initialiseLog(notary.seal);
  return { store, notary, clock: systemClock };
}

/**
 * How a pass claims and reads: claims of 200 so several workers share a large watch list, and a
 * two-minute lease renewed while the worker reads its batch, so a worker that dies frees its
 * claims within two minutes. 100 reads at once: GitHub's reader gathers concurrent reads into one
 * GraphQL query of up to 100 repositories, and fewer at once would cut every query short; each
 * upstream's client still keeps its own few exchanges at a time and its budget's pace.
 */
export const PASS_OPTIONS = { batch: 200, concurrency: 100, leaseMs: 2 * 60_000 } as const;

/**
 * openRecord plus the upstream readers, with conditional-request validators kept in the store,
 * each upstream's requests within its budget (TENDED_BUDGET_*; shared through Redis when
 * REDIS_URL is set). Closed with closeRecord.
 */
export async function openObserver(
  config: Config,
  wiring: CliWiring,
  options: { watcher?: UpstreamWatcher } = {},
): Promise<ObserverDeps & { budgets: UpstreamBudgets }> {
  const deps = await openRecord(config, wiring);
  const budgets = new UpstreamBudgets(
    config.budgets,
    config.redisUrl ? { store: new RedisBudgetStore(config.redisUrl) } : {},
  );
  const sources = createSources({
    urls: config.upstreams,
    githubToken: config.githubToken,
    userAgent: USER_AGENT,
    timeoutMs: 15_000,
    concurrency: 4,
    cache: { get: (url) => deps.store.cacheGet(url), set: (url, entry) => deps.store.cacheSet(url, entry) },
    ...(options.watcher ? { watcher: options.watcher } : {}),
    budgets,
  });
  return { ...deps, sources, budgets };
}

/** Closes what openRecord or openObserver opened: the budgets' Redis connection, then the store. */
export async function closeRecord(deps: RecordDeps & { budgets?: UpstreamBudgets }): Promise<void> {
  await deps.budgets?.close();
  await deps.store.close();
}

export const USER_AGENT = 'tended/0.1.0 (maintenance observation service; public metadata reads only)';
