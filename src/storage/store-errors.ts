/** The store's errors: two answered (a duplicate observation 409, an outage 503), two faults. */
import type { ComponentRef } from '../domain/component.js';
import { TendedError } from '../domain/errors.js';

/** A second observation (or a second correction) of one component on one UTC date. */
export class DuplicateObservationError extends TendedError {
  constructor(
    readonly component: ComponentRef,
    readonly observation_date: string,
    readonly correction = false,
  ) {
    super(
      'duplicate_observation',
      correction
        ? `${component.kind}:${component.id} already has a correction dated ${observation_date}; one re-read per component per day`
        : `${component.kind}:${component.id} already has an observation dated ${observation_date}; a re-read that day is a correction`,
    );
    this.name = 'DuplicateObservationError';
  }
}

/** A key-set version that is not the next one: another writer published first. */
export class KeySetConflictError extends Error {
  constructor(
    readonly version: number,
    readonly latest: number,
  ) {
    super(`key set version ${version} cannot follow version ${latest}; another writer published first`);
    this.name = 'KeySetConflictError';
  }
}

/** An append that would break the log's invariants (logged_at going backwards, a bad leaf). */
export class LogInvariantError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LogInvariantError';
  }
}

/**
 * The database does not answer: down, restarting, refusing connections, or the connection broke
 * mid-query. Nothing about the request is wrong; the same call may succeed in a few seconds. An
 * append that fails this way was rolled back, or (if the connection broke at COMMIT) may have
 * landed: a retry is safe either way, because the store refuses a second observation of a
 * component on one date.
 */
export class StoreUnavailableError extends TendedError {
  constructor(
    readonly backend: 'sqlite' | 'postgres',
    readonly reason: string,
  ) {
    super(
      'store_unavailable',
      `the ${backend === 'postgres' ? 'PostgreSQL' : 'SQLite'} store does not answer (${reason})`,
    );
    this.name = 'StoreUnavailableError';
  }
}
