/**
 * One registry generated from (seed, scale): its packages, their versions, deprecations and
 * deletions, and the change events its feed reports, all derived on demand.
 *
 * The model: N packages exist at `start`, each with versions spread from the registry's epoch (the
 * i-th package's history is the i-th slice of that span, so some are years old and some recent).
 * After `start`, event k happens at start + (k+1)·interval. One event in CREATE_EVERY creates a new
 * package; the others fall in rounds of A slots (A = the packages that change in ROUND_DAYS):
 * in round r, slot j changes the package of rank perm_r(j), so every changing package changes once
 * a round at a drawn moment, and both directions (event → package, package → its events) are a
 * few multiplications. A slot is `burst` consecutive entries (npm writes ~4 seq per change).
 */
import { draw, AffinePermutation } from './draw.js';
import {
  CREATE_EVERY,
  DELETE_SHARE,
  DEPRECATE_SHARE,
  DEPRECATED_AT_START,
  REGISTRY_SHAPES,
  ROUND_DAYS,
  type RegistryShape,
} from './sizes.js';
import type { FollowedRegistry } from '../../upstreams/following/follower.js';
import { generatedName, indexOfName } from './names.js';

const DAY_MS = 86_400_000;
/** Salts, so each kind of draw is independent of the others. */
const SALT = { order: 11, round: 13, kind: 17, deprecatedAtStart: 19 } as const;

export type ChangeKind = 'create' | 'publish' | 'deprecate' | 'delete';

export interface FeedEvent {
  index: number;
  /** Epoch milliseconds (fractional: events can be closer than a millisecond apart at full size). */
  at: number;
  package: number;
  kind: ChangeKind;
  /** The version a create or publish adds (and the one a deprecation marks). */
  version: string;
  /** 0 for the entry that makes the change; later entries of its burst repeat it (npm revisions, PyPI files). */
  burstPosition: number;
  round: number;
  /** The update slot it belongs to (-1 for a creation): its burst is the slot's entries. */
  slot: number;
}

export interface PublishedVersion {
  version: string;
  at: number;
}

/** What the registry holds for one package at one moment. */
export interface PackageFacts {
  index: number;
  name: string;
  /** Versions published by the moment, oldest first. */
  versions: PublishedVersion[];
  /** When its latest change made it deprecated (and no publish has cleared it since), else null. */
  deprecatedAt: number | null;
  /** When it was deleted, else null: a deleted package's versions stay as they were. */
  deletedAt: number | null;
  /** The feed events that changed it after the start, in order (its burst entries left out). */
  changes: FeedEvent[];
}

export interface GeneratedRegistryOptions {
  registry: FollowedRegistry;
  seed: number;
  /** × the real sizes of sizes.ts. */
  scale: number;
  /** The instant the generated registry stands at its initial size; events follow it. */
  start: string;
}

export class GeneratedRegistry {
  readonly registry: FollowedRegistry;
  readonly seed: number;
  readonly shape: RegistryShape;
  /** Packages at the start. */
  readonly initialPackages: number;
  /** Packages that change after the start, once a round. */
  readonly changing: number;
  readonly startMs: number;
  readonly epochMs: number;
  /** Milliseconds between two feed events. */
  readonly interval: number;
  private readonly order: AffinePermutation;
  private readonly roundBase: AffinePermutation;

  constructor(options: GeneratedRegistryOptions) {
    this.registry = options.registry;
    this.seed = options.seed;
    this.shape = REGISTRY_SHAPES[options.registry];
    this.initialPackages = Math.max(1, Math.round(this.shape.packages * options.scale));
    const entriesPerDay = Math.max(1, this.shape.entriesPerDay * options.scale);
    const changesPerDay = entriesPerDay / this.shape.burst;
    this.changing = Math.max(1, Math.min(this.initialPackages, Math.round(changesPerDay * ROUND_DAYS)));
    this.startMs = Date.parse(options.start);
    this.epochMs = Date.parse(`${this.shape.epoch}T00:00:00Z`);
    this.interval = DAY_MS / entriesPerDay;
    this.order = AffinePermutation.drawn(this.initialPackages, this.seed, SALT.order);
    this.roundBase = AffinePermutation.drawn(this.changing, this.seed, SALT.round);
  }

  nameOf(index: number): string {
    return generatedName(this.registry, index);
  }

  /** The package a name names, or null (a name this registry never generated). */
  indexOf(name: string): number | null {
    const i = indexOfName(name);
    return i !== null && this.nameOf(i).toLowerCase() === name.toLowerCase() ? i : null;
  }

  /** How many feed events have happened by `nowMs`. */
  eventsBy(nowMs: number): number {
    // The epsilon keeps eventsBy(eventTime(k)) = k + 1 whatever the division rounds to.
    return nowMs < this.startMs ? 0 : Math.floor((nowMs - this.startMs) / this.interval + 1e-9);
  }

  eventTime(k: number): number {
    return this.startMs + (k + 1) * this.interval;
  }

  /** Packages ever created by `nowMs` (deleted ones included): indices [0, this). */
  packagesBy(nowMs: number): number {
    return this.initialPackages + Math.floor(this.eventsBy(nowMs) / CREATE_EVERY);
  }

  /** When the i-th version of the initial history (package floor(j / V), version j mod V) was published. */
  initialVersionTime(j: number): number {
    const total = this.initialPackages * this.shape.versionsEach;
    return this.epochMs + ((j + 1) * (this.startMs - this.epochMs)) / (total + 1);
  }

  /** Event k, or null when it reports nothing (a deleted package's later slots, a burst's repeats of a deletion). */
  eventAt(k: number): FeedEvent | null {
    const at = this.eventTime(k);
    if (k % CREATE_EVERY === CREATE_EVERY - 1) {
      const pkg = this.initialPackages + Math.floor(k / CREATE_EVERY);
      return { index: k, at, package: pkg, kind: 'create', version: '1.0.0', burstPosition: 0, round: -1, slot: -1 };
    }
    const update = Math.floor(k / CREATE_EVERY) * (CREATE_EVERY - 1) + (k % CREATE_EVERY);
    const slot = Math.floor(update / this.shape.burst);
    const burstPosition = update % this.shape.burst;
    const round = Math.floor(slot / this.changing);
    const rank = this.roundPermutation(round).forward(slot % this.changing);
    const pkg = this.order.forward(rank);
    for (let r = 0; r < round; r++) if (this.roundKind(pkg, r) === 'delete') return null;
    const kind = this.roundKind(pkg, round);
    if (kind === 'delete' && burstPosition > 0) return null;
    return { index: k, at, package: pkg, kind, version: this.roundVersion(round), burstPosition, round, slot };
  }

  /** Everything the registry says about package `index` at `nowMs`, or null before it exists. */
  facts(index: number, nowMs: number): PackageFacts | null {
    const events = this.eventsBy(nowMs);
    if (index >= this.initialPackages) {
      const k = (index - this.initialPackages) * CREATE_EVERY + CREATE_EVERY - 1;
      if (k >= events) return null;
      const created = this.eventAt(k)!;
      return {
        index,
        name: this.nameOf(index),
        versions: [{ version: created.version, at: created.at }],
        deprecatedAt: null,
        deletedAt: null,
        changes: [created],
      };
    }
    const V = this.shape.versionsEach;
    const versions: PublishedVersion[] = [];
    for (let v = 0; v < V; v++) versions.push({ version: `1.${v}.0`, at: this.initialVersionTime(index * V + v) });
    let deprecatedAt =
      this.shape.deprecates && draw(this.seed, index, 0, SALT.deprecatedAtStart) < DEPRECATED_AT_START
        ? versions.at(-1)!.at
        : null;
    let deletedAt: number | null = null;
    const changes: FeedEvent[] = [];
    const rank = this.order.backward(index);
    if (rank < this.changing) {
      for (let round = 0; ; round++) {
        const k = this.firstEventOfSlot(round * this.changing + this.roundPermutation(round).backward(rank));
        if (k >= events) break;
        const e = this.eventAt(k)!;
        changes.push(e);
        if (e.kind === 'publish') {
          versions.push({ version: e.version, at: e.at });
          deprecatedAt = null;
        } else if (e.kind === 'deprecate') {
          if (this.shape.deprecationPublishes) versions.push({ version: e.version, at: e.at });
          deprecatedAt = e.at;
        } else if (e.kind === 'delete') {
          deletedAt = e.at;
          break;
        }
      }
    }
    return { index, name: this.nameOf(index), versions, deprecatedAt, deletedAt, changes };
  }

  /** The events of `e`'s burst, in order (just `e` for a creation). */
  burstOf(e: FeedEvent): number[] {
    if (e.slot < 0) return [e.index];
    const out: number[] = [];
    for (let b = 0; b < this.shape.burst; b++) out.push(this.eventOfUpdate(e.slot * this.shape.burst + b));
    return out;
  }

  /** The first event of an update slot. */
  private firstEventOfSlot(slot: number): number {
    return this.eventOfUpdate(slot * this.shape.burst);
  }

  /** The event index of the u-th update (events CREATE_EVERY − 1, 2·CREATE_EVERY − 1, … are creations). */
  private eventOfUpdate(update: number): number {
    return Math.floor(update / (CREATE_EVERY - 1)) * CREATE_EVERY + (update % (CREATE_EVERY - 1));
  }

  private roundPermutation(round: number): AffinePermutation {
    return this.roundBase.shifted(Math.floor(draw(this.seed, round, 0, SALT.round) * this.changing));
  }

  /** What a changing package's change in a round is: mostly a publication. */
  private roundKind(pkg: number, round: number): Exclude<ChangeKind, 'create'> {
    const d = draw(this.seed, pkg, round, SALT.kind);
    if (this.shape.deletes && d < DELETE_SHARE) return 'delete';
    if (this.shape.deprecates && d >= 1 - DEPRECATE_SHARE) return 'deprecate';
    return 'publish';
  }

  /** The version a round's publication adds: after every initial version, one minor a round. */
  private roundVersion(round: number): string {
    return `1.${this.shape.versionsEach + round}.0`;
  }
}
