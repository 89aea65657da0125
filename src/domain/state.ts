/** The states of the spec §3 and the rule that turns what an upstream said into one. */
import { daysBetween, isRfc3339Instant, utcDateOf } from './calendar.js';
import type { ComponentKind } from './component.js';

export const STATES = [
  'alive',
  'dormant',
  'abandoned',
  'archived',
  'deleted',
  'eol',
  'unknown-stale',
  'not_observed',
] as const;
export type State = (typeof STATES)[number];

/** States that say something about the component; the other two only say what we lack. */
export type AssertedState = Exclude<State, 'unknown-stale' | 'not_observed'>;
export const ASSERTED_STATES: readonly AssertedState[] = [
  'alive',
  'dormant',
  'abandoned',
  'archived',
  'deleted',
  'eol',
];

export function isState(s: string): s is State {
  return (STATES as readonly string[]).includes(s);
}

export function isAsserted(state: State): state is AssertedState {
  return state !== 'unknown-stale' && state !== 'not_observed';
}

export const ALIVE_MAX_DAYS = 180;
export const DORMANT_MAX_DAYS = 365;
/** An observation older than this no longer carries its state into an answer (spec §8). */
export const STALE_AFTER_DAYS = 180;

/** The spec §3 meaning sentences, word for word. */
export const STATE_DEFINITIONS: Record<State, string> = {
  alive: 'last commit 180 days ago or less',
  dormant: 'last commit 180 to 365 days ago',
  abandoned: 'last commit more than 365 days ago',
  archived: "the repository's archived flag is set",
  deleted: 'an authoritative HTTP 404 was read',
  eol: 'an end-of-life listing declares end-of-life (used for container base images)',
  'unknown-stale':
    'the observation the verdict rests on is older than the 180-day threshold and was not re-verified; no state is asserted; it is not a death',
  not_observed: 'the check met 403, 429, a time-out or a network failure; it is not dead',
};

/**
 * "Not checked": the answer for a date on or before which the record holds no observation of the
 * component (it is not held, or the date is before its first observation). The spec answers it
 * with the state `not_observed` and censoring `not-observed-at-date`, but the §3 sentence for
 * `not_observed` is about a check that met a failure; here no check was made, so that sentence
 * would claim a read that never happened. These are the words every surface uses for it instead
 * (API, pages, badges, SARIF, Markdown, the CLI's table, MCP).
 */
export const NOT_CHECKED = 'not checked';
/** What "not checked" means, as a clause. */
export const NOT_CHECKED_MEANING =
  'the record holds no observation on or before this date, so nothing was read and no state is asserted; it is not a death';
export const NOT_CHECKED_DEFINITION = `${NOT_CHECKED}: ${NOT_CHECKED_MEANING}`;

/**
 * The state as a person reads it: `not checked` where nothing was read (no observation date),
 * otherwise the state's name. A failed read stays `not_observed` and a stale one `unknown-stale`.
 */
export function stateInWords(state: State, observationDate: string | null): string {
  return observationDate === null ? NOT_CHECKED : state;
}

/** What "last activity" is for each kind (DESIGN §3), as the subject of an age sentence. */
const ACTIVITY: Record<ComponentKind, string> = {
  github: 'last commit',
  npm: 'latest published version',
  pypi: 'latest published version',
  docker: 'tag last pushed',
  maven: 'latest release published',
  golang: 'latest version published',
  cargo: 'latest published version',
  nuget: 'latest listed version published',
  gem: 'latest published version',
  composer: 'latest tagged release published',
  // Aged only once the listing no longer marks the release supported (see stateDefinition).
  distro:
    'the end-of-life listing no longer marks the distribution release supported, and its latest point release dates from',
};

/** What sets `archived` for each kind (DESIGN §3). */
const ARCHIVED: Record<ComponentKind, string> = {
  github: STATE_DEFINITIONS.archived,
  npm: 'the latest version carries a registry deprecation notice',
  pypi: 'the project is marked archived or deprecated, or declares Development Status :: 7 - Inactive',
  docker: 'the image is deprecated upstream',
  maven: 'the latest release relocates the artifact to other coordinates',
  golang: 'the latest go.mod declares the module deprecated, or its GitHub repository is archived',
  composer: 'the package is marked abandoned on Packagist',
  cargo: 'every version of the crate is yanked, or a RustSec advisory declares the crate unmaintained',
  nuget:
    'the latest listed version is deprecated as no longer maintained (Legacy), every listed version is deprecated, or none is listed',
  gem: 'never: rubygems.org has no deprecation flag (a gem with every version yanked is deleted)',
  distro: 'never: a distribution release is answered by its end-of-life, not archived',
};

/**
 * The definition sentence worded for a kind: the spec words age states for repositories
 * ("last commit"), and says that for a package registry they are about the latest
 * published version, so a page for an npm package must not talk about commits.
 *
 * `observationDate` is the date of the observation the answer rests on, null when there is none:
 * then nothing was read, and the answer is "not checked", not a check that failed.
 */
export function stateDefinition(state: State, kind: ComponentKind, observationDate: string | null): string {
  if (observationDate === null) return NOT_CHECKED_DEFINITION;
  const activity = ACTIVITY[kind];
  switch (state) {
    case 'alive':
      // A distribution release is alive while its listing says it is supported (DESIGN §3).
      if (kind === 'distro')
        return 'the end-of-life listing marks the distribution release supported (its end of life still ahead), or, no longer marked supported, its latest point release dates from 180 days ago or less';
      return `${activity} 180 days ago or less`;
    case 'dormant':
      return `${activity} 180 to 365 days ago`;
    case 'abandoned':
      return `${activity} more than 365 days ago`;
    case 'archived':
      return ARCHIVED[kind];
    default:
      return STATE_DEFINITIONS[state];
  }
}

/**
 * Age in whole days from last activity to the observation date → state:
 * d ≤ 180 alive, 181–365 dormant, > 365 abandoned. A negative age (an upstream clock ahead
 * of ours) is activity "now", so alive.
 */
export function stateFromAge(days: number): 'alive' | 'dormant' | 'abandoned' {
  if (Number.isNaN(days)) throw new RangeError('stateFromAge needs a number of days');
  if (days <= ALIVE_MAX_DAYS) return 'alive';
  if (days <= DORMANT_MAX_DAYS) return 'dormant';
  return 'abandoned';
}

export const UNREACHABLE_REASONS = [
  'rate_limited',
  'timeout',
  'network',
  'server_error',
  'unparsable',
  'unauthorized',
  // The reference names something the readers cannot read honestly (another registry, a bare digest).
  'unsupported',
  // The registry does not list it, and that proves no deletion: Maven Central removes nothing and
  // the Go proxy forgets nothing, so the name may be private or live elsewhere.
  'not_listed',
] as const;
export type UnreachableReason = (typeof UNREACHABLE_REASONS)[number];

/** What a failed read met, by the reason its evidence records (`evidence.unreachable`), as a clause. */
export const FAILED_READ: Record<UnreachableReason, string> = {
  rate_limited: 'the upstream asked Tended to wait (a rate limit)',
  timeout: 'the read timed out',
  network: 'the read met a network failure',
  server_error: 'the upstream answered with a server error',
  unparsable: 'the upstream answered something Tended could not read',
  unauthorized: 'the upstream refused the read as unauthorised',
  unsupported: 'the reference names something Tended cannot read honestly (another registry, a bare digest)',
  not_listed: 'the registry does not list it, which proves no deletion (it may be private or live elsewhere)',
};

/** What one read of the upstreams established. */
export interface Signals {
  /** Set when the read failed: rate_limited | timeout | network | server_error | unparsable | unauthorized. */
  unreachable?: string;
  /** An authoritative "this does not exist" (a 404 that is not a rate limit, an unpublish…). */
  notFound?: boolean;
  archived?: boolean;
  eol?: boolean;
  /**
   * A distribution release the end-of-life listing says is supported on the date (its end of
   * life still ahead): alive on that word, not on its age. A long-term release ships point
   * releases rarely, so its latest one says nothing about whether it is kept (DESIGN §3).
   */
  supported?: boolean;
  /** RFC 3339 instant of the last activity (commit, publish, push). */
  lastActivity?: string | null;
}

/**
 * The state one read supports on its observation date.
 *
 * A failed read asserts nothing, so it wins over everything: a 429 must never turn into a
 * death. Otherwise the strongest signal wins: deleted > archived > eol > supported > age. A read that
 * yields no last-activity date (or one we cannot read as an instant) asserts nothing
 * either: we do not guess an age.
 */
export function classify(signals: Signals, observationDate: string): State {
  if (signals.unreachable) return 'not_observed';
  if (signals.notFound) return 'deleted';
  if (signals.archived) return 'archived';
  if (signals.eol) return 'eol';
  if (signals.supported) return 'alive';
  const last = signals.lastActivity;
  if (typeof last !== 'string' || !isRfc3339Instant(last)) return 'not_observed';
  return stateFromAge(daysBetween(utcDateOf(last), observationDate));
}
