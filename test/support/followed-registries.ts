/**
 * The generated registries the follower tests run against, and what the seed says they hold:
 * the ground truth a follower's listing and hints are checked against.
 */
import { utcDateOf } from '../../src/domain/calendar.js';
import { createFollower, type FollowersOptions } from '../../src/upstreams/followers.js';
import type { FollowBatch, FollowedRegistry, Follower } from '../../src/upstreams/following/follower.js';
import type { FeedFaults } from '../../src/simulator/registries/faults.js';
import type { FeedEvent, GeneratedRegistry } from '../../src/simulator/registries/registry.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import type { Budget } from '../../src/simulator/traffic.js';

/** A few thousand packages each. */
export const SCALES: Record<FollowedRegistry, number> = {
  npm: 0.001,
  pypi: 0.005,
  cargo: 0.02,
  golang: 0.002,
  nuget: 0.008,
  gem: 0.02,
  composer: 0.01,
};

export const DAY = 86_400_000;

export interface Followed {
  sim: Simulator;
  /** The simulated moment every feed and every follower stands at. */
  now: { at: Date };
  reg(registry: FollowedRegistry): GeneratedRegistry;
  follower(registry: FollowedRegistry, options?: Partial<FollowersOptions>): Follower;
  close(): Promise<void>;
}

export async function startFollowed(options: {
  at: string;
  seed?: number;
  scales?: Partial<Record<FollowedRegistry, number>>;
  faults?: FeedFaults;
  budgets?: Record<string, Budget>;
}): Promise<Followed> {
  const now = { at: new Date(options.at) };
  const clock = () => now.at;
  const sim = await startSimulator({
    scenario: { components: {} },
    clock,
    registries: {
      seed: options.seed ?? 26,
      scale: options.scales ?? SCALES,
      ...(options.faults ? { faults: options.faults } : {}),
    },
    ...(options.budgets ? { budgets: options.budgets } : {}),
  });
  return {
    sim,
    now,
    reg: (r) => sim.registries!.get(r)!,
    follower: (r, o = {}) =>
      createFollower(r, {
        urls: sim.feeds,
        osvExport: sim.urls.osvExport,
        userAgent: 'tended-test/0.1.0 (+simulator)',
        timeoutMs: 10_000,
        clock,
        ...o,
      }),
    close: () => sim.close(),
  };
}

/** Runs one pass to its end, committing each batch's cursor as a scheduler would once it handled it. */
export async function pass(
  follower: Follower,
  cursor: { value: string | null },
  into: FollowBatch[] = [],
): Promise<FollowBatch[]> {
  for await (const batch of follower.pass(cursor.value)) {
    into.push(batch);
    cursor.value = batch.cursor;
  }
  return into;
}

/** Names of the packages that exist and are not deleted at `atMs`. */
export function livePackages(reg: GeneratedRegistry, atMs: number): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < reg.packagesBy(atMs); i++) if (reg.facts(i, atMs)?.deletedAt === null) out.add(reg.nameOf(i));
  return out;
}

/** Every package ever created by `atMs`, deleted ones too (a catalog or an index keeps them). */
export function everyPackage(reg: GeneratedRegistry, atMs: number): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < reg.packagesBy(atMs); i++) out.add(reg.nameOf(i));
  return out;
}

/** The changes (first entry of each burst) in (fromMs, toMs] that `keep` says the feed reports. */
export function changesBetween(
  reg: GeneratedRegistry,
  fromMs: number,
  toMs: number,
  keep: (e: FeedEvent) => boolean = () => true,
): FeedEvent[] {
  const out: FeedEvent[] = [];
  for (let k = reg.eventsBy(fromMs); k < reg.eventsBy(toMs); k++) {
    const e = reg.eventAt(k);
    if (e && e.burstPosition === 0 && keep(e)) out.push(e);
  }
  return out;
}

/** hint dates by package id. */
export function hintDates(batches: FollowBatch[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const b of batches)
    for (const h of b.hints) out.set(h.component.id, [...(out.get(h.component.id) ?? []), h.changed_on]);
  return out;
}

export const dateOf = (ms: number) => utcDateOf(new Date(ms));
