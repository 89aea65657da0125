/**
 * Simulated OSV export bucket (osv-vulnerabilities.storage.googleapis.com, OSV's data docs and
 * its exporter): `crates.io/modified_id.csv`, a line `<modified>,<ID>` per record, newest first,
 * and `crates.io/<ID>.json`, the record. The records are the crates' `advisories` of the scenario,
 * each listed from the instant the world says it appeared: the start of the phase that first holds
 * it as it is (a phase that changes a record, a withdrawal say, modifies it then), once the instants
 * that phase names have passed, as every answer is cut (seen-at.ts). A missing object is Cloud
 * Storage's XML NoSuchKey; the scenario's `osv_export` phases make the bucket, or its records only, fail.
 */
import { commonFailure, isCommonFail, json, notFound, text, type Ctx, type SimAnswer } from './answer.js';
import { phaseAt } from './scenario.js';
import { type CargoPhase } from './scenario-phases.js';
import { ownInstants } from './seen-at.js';
import type { World } from './world.js';

const RECORD_PATH = /^\/crates\.io\/([^/]+)\.json$/;

type Published = { at: number; record: Record<string, unknown> };

/** Every crates.io record of the scenario published by `nowMs`, by id, with the instant it was last modified. */
function published(world: World, nowMs: number): Map<string, Published> {
  const out = new Map<string, Published>();
  for (const [key, phases] of Object.entries(world.scenario.components)) {
    if (!key.startsWith('cargo:')) continue;
    for (const phase of phases as CargoPhase[]) {
      const at = Math.max(Date.parse(`${phase.from}T00:00:00Z`), ...ownInstants(phase).map((i) => Date.parse(i)));
      if (at > nowMs) break;
      // Later phases inherit the advisories of earlier ones: a record is modified when it changes.
      for (const record of phase.advisories ?? []) {
        const id = String(record['id']);
        const last = out.get(id);
        if (!last || (at > last.at && JSON.stringify(last.record) !== JSON.stringify(record)))
          out.set(id, { at, record });
      }
    }
  }
  return out;
}

const stamp = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

export function answerOsvExport(ctx: Ctx, world: World): SimAnswer {
  const nowMs = ctx.nowSec * 1000;
  const health = phaseAt(world.scenario.osv_export ?? [], ctx.today);
  if (health?.fail && isCommonFail(health.fail)) return commonFailure('osvexport', health.fail, ctx, health.status);
  if (ctx.path === '/crates.io/modified_id.csv') {
    const lines = [...published(world, nowMs)]
      .sort(([a, x], [b, y]) => y.at - x.at || (a < b ? 1 : a > b ? -1 : 0))
      .map(([id, p]) => `${stamp(p.at)},${id}\n`);
    return text(200, lines.join(''), 'text/csv', {}, false);
  }
  if (health?.records_fail && isCommonFail(health.records_fail))
    return commonFailure('osvexport', health.records_fail, ctx, health.status);
  const m = RECORD_PATH.exec(ctx.path);
  const found = m ? published(world, nowMs).get(decodeURIComponent(m[1]!)) : undefined;
  return found ? json(200, found.record, {}, false) : notFound('osvexport', ctx);
}
