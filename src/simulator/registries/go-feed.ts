/**
 * index.golang.org (research §1.4): `GET /index?since=<RFC 3339>&limit=<n>` answers newline-
 * delimited `{"Path","Version","Timestamp"}`, oldest first, from `since` (inclusive), at most 2,000
 * rows. Its rows are every module version the proxy ever served: the initial history (module i's
 * versions are rows i·V … i·V + V − 1, spread from the index's opening to the start), then one row
 * per publication after it. Nothing is ever removed.
 */
import { text, type SimAnswer } from '../answer.js';
import { isoAt, type FeedRequest } from './feed-request.js';

const MAX_LIMIT = 2_000;

export function answerGoIndex(f: FeedRequest): SimAnswer | null {
  if (f.ctx.path !== '/index') return null;
  const reg = f.registry;
  const q = f.ctx.query;
  const sinceRaw = q.get('since');
  const sinceMs = sinceRaw ? Date.parse(sinceRaw) : reg.epochMs;
  if (Number.isNaN(sinceMs)) return text(400, 'invalid value for "since"', 'text/plain; charset=utf-8', {}, false);
  const limit = Math.min(MAX_LIMIT, q.has('limit') ? Math.max(1, Number(q.get('limit')) || MAX_LIMIT) : MAX_LIMIT);
  const V = reg.shape.versionsEach;
  const total = reg.initialPackages * V;
  const lines: string[] = [];
  const row = (path: string, version: string, at: number) =>
    lines.push(JSON.stringify({ Path: path, Version: version, Timestamp: isoAt(at) }));
  // The first initial row at or after `since`: t(j) = epoch + (j + 1)·span/(total + 1), then step to be exact.
  const span = reg.startMs - reg.epochMs;
  let j = Math.max(0, Math.ceil(((sinceMs - reg.epochMs) * (total + 1)) / span) - 2);
  while (j < total && Math.floor(reg.initialVersionTime(j)) < sinceMs) j++;
  for (; j < total && lines.length < limit; j++)
    row(reg.nameOf(Math.floor(j / V)), `v1.${j % V}.0`, reg.initialVersionTime(j));
  const events = reg.eventsBy(f.nowMs);
  let k = Math.max(0, Math.ceil((sinceMs - reg.startMs) / reg.interval) - 2);
  while (k < events && Math.floor(reg.eventTime(k)) < sinceMs) k++;
  for (; k < events && lines.length < limit; k++) {
    const e = reg.eventAt(k);
    // A publication, a new module or a deprecation (which Go publishes as a new version).
    if (e) row(reg.nameOf(e.package), `v${e.version}`, e.at);
  }
  return text(200, lines.map((l) => `${l}\n`).join(''), 'text/plain; charset=utf-8', {}, false);
}
