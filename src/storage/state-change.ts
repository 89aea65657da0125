import type { ComponentRef } from '../domain/component.js';
import type { AssertedState } from '../domain/state.js';

/**
 * A state change the record appended, as the change feed, the subscriptions' outbox and their
 * feeds read it (Store.stateChanges): a file of its own so that the records built on it need not
 * import the port that returns them.
 */

export interface StateChangeQuery {
  fromLeaf: number;
  /** Exclusive. */
  untilLeaf: number;
  /** Only readings dated on or after this date; null for all. */
  since: string | null;
  limit: number;
}

export interface StateChange {
  component: ComponentRef;
  from: AssertedState;
  to: AssertedState;
  /** The date of the reading that showed `to` (for a correction: its own date). */
  observation_date: string;
  /** The date of the reading `from` comes from: the last time the old state was read. */
  previous_date: string;
  previous_leaf_index: number;
  leaf_index: number;
  /** Set when the reading is a correction: the leaf it corrects. */
  corrects: number | null;
  /** When the reading's leaf was logged. */
  logged_at: string;
}
