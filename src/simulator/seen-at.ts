/**
 * What an upstream can say at the moment it is asked. A registry lists a version only once it is
 * published, and no repository reports a push that has not happened yet: an answer carrying
 * activity after the moment it is served at is evidence no real upstream could give, and a past
 * pass of the demo recorded it (an upload of 2025-02-10 in an observation of 2025-01-15). So
 * every answer the simulator gives is cut to the moment it is served at:
 * - a phase is in force from its `from` date, and on that date only once the instants it names
 *   itself (`pushed_at`, `created_at`, `tag_last_pushed`…) have passed: a push at 10:00 is seen
 *   from 10:00 (a commit's own date is its author's claim, served as written: see below);
 * - versions, files and removed versions published after the moment are not listed yet, and an
 *   endoflife release is listed from its release date.
 * A first phase whose own instants come after its `from` date therefore answers 404 until they
 * have passed: write the activity before a phase's `from`, or start the phase on its day.
 */
import { isRfc3339Instant } from '../domain/calendar.js';
import type { EolPhase, EolProduct } from './scenario-phases.js';

/** The moment an answer is served at: its UTC date and its instant in seconds (the simulator's clock). */
export interface Moment {
  today: string;
  nowSec: number;
}

interface Dated {
  from: string;
}

/** Fields that hold for their own phase only (as in phaseAt). */
const NOT_INHERITED = new Set(['fail', 'status', 'dependents_fail', 'osv_fail', 'from']);
/** Maps of version → publication instant, in every kind that has them. */
const VERSION_MAPS = ['versions', 'removed_versions'] as const;
/** Fields naming a version that the registry's answer points at. */
const VERSION_POINTERS = ['latest', 'release'] as const;

/**
 * A commit's date is what its author's clock said, and can lie about the future (research §1.2):
 * a scenario may set `last_commit` ahead on purpose, to test the reader's `activity_in_future`,
 * so it does not hold its phase back. Every other instant is the upstream's own record of an event.
 */
const CLAIMED_BY_CLIENTS = new Set(['from', 'last_commit']);

/** The instants a phase names itself, outside its version maps: a push, a creation, a tag push. */
export function ownInstants(phase: object): string[] {
  return Object.entries(phase)
    .filter(([key, value]) => !CLAIMED_BY_CLIENTS.has(key) && typeof value === 'string' && isRfc3339Instant(value))
    .map(([, value]) => value as string);
}

/** The phase in force at `at` (earlier phases merged in), cut to what had been published by then. Null before the first. */
export function phaseSeenAt<P extends Dated>(phases: readonly P[], at: Moment): P | null {
  const atMs = at.nowSec * 1000;
  const merged = mergedUntil(phases, (p) => p.from <= at.today && !ownInstants(p).some((i) => Date.parse(i) > atMs));
  return merged === null ? null : (publishedBy(merged, atMs) as P);
}

/** Phases merged in order while `inForce` holds, later fields over earlier ones but for NOT_INHERITED. */
function mergedUntil<P extends Dated>(
  phases: readonly P[],
  inForce: (p: P) => boolean,
): Record<string, unknown> | null {
  let merged: Record<string, unknown> | null = null;
  for (const p of phases) {
    if (!inForce(p)) break;
    const carried: Record<string, unknown> = Object.fromEntries(
      Object.entries(merged ?? {}).filter(([k]) => !NOT_INHERITED.has(k)),
    );
    merged = { ...carried, ...p };
  }
  return merged;
}

/** Drops versions (and PyPI files) published after `atMs`, and a latest/release pointer at one of them. */
function publishedBy(phase: Record<string, unknown>, atMs: number): Record<string, unknown> {
  const out = { ...phase };
  for (const field of VERSION_MAPS) {
    const map = out[field] as Record<string, string> | undefined;
    if (map) out[field] = Object.fromEntries(Object.entries(map).filter(([, t]) => Date.parse(t) <= atMs));
  }
  // PyPI's releases: one upload instant, or a list of files each with its own.
  const releases = out['releases'] as Record<string, string | { upload_time: string }[]> | undefined;
  if (releases && !Array.isArray(releases)) {
    const kept: Record<string, string | { upload_time: string }[]> = {};
    for (const [version, spec] of Object.entries(releases)) {
      if (typeof spec === 'string') {
        if (Date.parse(spec) <= atMs) kept[version] = spec;
        continue;
      }
      const files = spec.filter((f) => Date.parse(f.upload_time) <= atMs);
      // A release declared without files stays; one whose every file is still to come is not there yet.
      if (files.length > 0 || spec.length === 0) kept[version] = files;
    }
    out['releases'] = kept;
  }
  const versions = out['versions'] as Record<string, string> | undefined;
  for (const pointer of VERSION_POINTERS) {
    const named = out[pointer];
    if (typeof named === 'string' && versions && !(named in versions)) delete out[pointer];
  }
  return out;
}

/** An endoflife product's listing on `today`: the releases released by then (end-of-life dates may lie ahead). */
export function eolSeenAt(product: EolProduct, at: Moment): EolPhase | null {
  const merged = mergedUntil(product.phases, (p) => p.from <= at.today) as EolPhase | null;
  if (!merged?.releases) return merged;
  return {
    ...merged,
    releases: merged.releases
      .filter((r) => r.releaseDate === undefined || r.releaseDate <= at.today)
      // A point release dated later is not out yet: the listing names none rather than a future one.
      .map((r) =>
        r.latestDate !== undefined && r.latestDate > at.today ? { ...r, latest: undefined, latestDate: undefined } : r,
      ),
  };
}
