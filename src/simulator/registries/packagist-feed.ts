/**
 * packagist.org's bulk routes (research §1.7; composer/packagist PackageController.php@31ecf359f1c3):
 * `/packages/list.json` → `{"packageNames": [...]}`, and `/metadata/changes.json?since=` with
 * since = 10000 × unix time: the actions from `since` (inclusive) up to the newest one, the
 * newest per package, `time` 0.2 s earlier than logged, and `timestamp` to send next. The log is
 * kept 24 hours: an older `since` answers `resync`; a missing or too small one answers 400.
 */
import { json, type SimAnswer } from '../answer.js';
import type { FeedRequest } from './feed-request.js';
import type { FeedEvent } from './registry.js';

/** The smallest `since` Packagist accepts (PackageController: 15850612240000). */
const OLDEST_ACCEPTED = 15_850_612_240_000;
const LOG_KEPT_MS = 86_400_000;

/** An event's score in Packagist's sorted sets: 10000 × unix time. */
const scoreOf = (ms: number) => Math.floor(ms * 10);

export function answerPackagistOrg(f: FeedRequest): SimAnswer | null {
  const reg = f.registry;
  if (f.ctx.path === '/packages/list.json') {
    const names: string[] = [];
    const count = reg.packagesBy(f.nowMs);
    for (let i = 0; i < count; i++) if (reg.facts(i, f.nowMs)?.deletedAt === null) names.push(reg.nameOf(i));
    return json(200, { packageNames: names });
  }
  if (f.ctx.path !== '/metadata/changes.json') return null;
  const events = reg.eventsBy(f.nowMs);
  const newest = events > 0 ? scoreOf(reg.eventTime(events - 1)) : scoreOf(reg.startMs);
  const now = newest + 1;
  const since = Number(f.ctx.query.get('since') ?? '0');
  if (!Number.isFinite(since) || since < OLDEST_ACCEPTED)
    return json(
      400,
      {
        error: `Invalid or missing "since" query parameter, make sure you store the timestamp at the initial point you started mirroring, then send that to begin receiving changes, e.g. ${f.ctx.base}/metadata/changes.json?since=${now} for example.`,
        timestamp: now,
      },
      {},
      false,
    );
  const oldest = scoreOf(f.nowMs - LOG_KEPT_MS);
  if (f.faults.composer?.resync || since < oldest)
    return json(
      200,
      { actions: [{ type: 'resync', time: Math.floor(now / 10000), package: '*' }], timestamp: now },
      {},
      false,
    );
  // The newest action per package in [since, now): a later change replaces an earlier one's score.
  const latest = new Map<number, FeedEvent>();
  let k = Math.max(0, Math.ceil((since / 10 - reg.startMs) / reg.interval) - 2);
  for (; k < events; k++) {
    const e = reg.eventAt(k);
    if (e && scoreOf(e.at) >= since) latest.set(e.package, e);
  }
  const actions = [...latest.values()]
    .sort((a, b) => a.at - b.at)
    .map((e) => ({
      type: e.kind === 'delete' ? 'delete' : 'update',
      package: reg.nameOf(e.package),
      time: Math.floor((scoreOf(e.at) - 2000) / 10000),
    }));
  return json(200, { actions, timestamp: now }, {}, false);
}
