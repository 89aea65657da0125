/**
 * What the end-to-end following test holds the record to: what a direct read of a generated npm
 * package says on a date, and which feed entries the simulator's npm faults hit (the very draws
 * its feed makes, so the test knows which changes a follower could not have been told of).
 */
import { daysBetween, utcDateOf } from '../../src/domain/calendar.js';
import { stateFromAge, type State } from '../../src/domain/state.js';
import { draw } from '../../src/simulator/registries/draw.js';
import { FAULT_SALT } from '../../src/simulator/registries/faults.js';
import type { FeedEvent, GeneratedRegistry } from '../../src/simulator/registries/registry.js';

/** Whether npm's `fault` (drawn at `share`) hit change `e`: its whole burst shares the draw. */
export function npmFaultHit(reg: GeneratedRegistry, e: FeedEvent, fault: 'late' | 'lost', share: number): boolean {
  return draw(reg.seed, e.slot >= 0 ? e.slot : -1 - e.index, 0, FAULT_SALT[fault]) < share;
}

/** The state a read of npm package `name` gives on `date` with the registry at `atMs`: the npm reader's rules on the seed's facts. */
export function npmTruth(reg: GeneratedRegistry, name: string, atMs: number, date: string): State {
  const facts = reg.facts(reg.indexOf(name)!, atMs)!;
  // An unpublished package reads as deleted, a deprecated latest version as archived.
  if (facts.deletedAt !== null) return 'deleted';
  if (facts.deprecatedAt !== null) return 'archived';
  return stateFromAge(daysBetween(utcDateOf(new Date(facts.versions.at(-1)!.at)), date));
}
