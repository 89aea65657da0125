import { TendedError } from '../domain/errors.js';
import { utcDateOf } from '../domain/calendar.js';
import { normaliseComponent, type ComponentRef } from '../domain/component.js';
import type { Observation } from '../domain/observation.js';
import { heldBackUntil } from '../upstreams/reading.js';
import { entityResult, DATA_LICENSE, type EntityResult } from './entity-answer.js';
import { observationOf, type ObserverDeps } from './observe.js';
import { NotFoundError } from './read-chain.js';

export class DisputeRefusedError extends TendedError {
  constructor(message: string) {
    super('dispute_refused', message);
    this.name = 'DisputeRefusedError';
  }
}

export interface DisputeAnswer {
  disputed: { leaf_index: number; state: Observation['state']; observation_date: string };
  /** The re-read: a correction of today's observation, or today's first observation. */
  reread: Observation;
  kind_of_record: 'correction' | 'observation';
  result: EntityResult;
  license: typeof DATA_LICENSE;
}

/**
 * A dispute re-reads the public registry metadata now and appends what it reads: a dated
 * correction linked to today's observation, or, when the component was not yet read today,
 * today's observation. History is never edited, and an older observation is never re-dated: a
 * read made today says nothing certain about an earlier day. One dispute per component per day.
 */
export async function disputeComponent(deps: ObserverDeps, kind: string, name: string): Promise<DisputeAnswer> {
  const ref: ComponentRef = normaliseComponent(kind, name);
  const held = await deps.store.observationsOf(ref);
  const disputed = held.filter((o) => o.corrects === null).at(-1);
  if (!disputed) {
    throw new NotFoundError(
      `Tended holds no observation of ${ref.kind}:${ref.id}, so there is nothing to dispute (it is not checked, not "gone").`,
    );
  }
  const readAt = deps.clock.now();
  const today = utcDateOf(readAt);
  if (held.some((o) => o.corrects !== null && o.observation_date === today)) {
    throw new DisputeRefusedError(
      `${ref.kind}:${ref.id} was already re-read on a dispute today (${today}); one dispute per component per day. Try again tomorrow.`,
    );
  }
  const correcting = disputed.observation_date === today ? disputed.leaf_index : null;
  const reading = await deps.sources[ref.kind].read(ref, today);
  // A read never sent (the day's request budget spent, or the upstream asked us to wait) saw nothing.
  const notSent = heldBackUntil(reading);
  if (notSent !== null)
    throw new DisputeRefusedError(
      `${ref.kind}:${ref.id} could not be re-read now (Tended's request budget for its upstream is spent, or the upstream asked to wait); nothing was recorded. Try again after ${notSent}.`,
    );
  const { observations } = await deps.store.appendObservations(
    [observationOf(ref, reading, readAt, correcting)],
    deps.notary.seal,
  );
  const reread = observations[0]!;
  return {
    disputed: { leaf_index: disputed.leaf_index, state: disputed.state, observation_date: disputed.observation_date },
    reread,
    kind_of_record: correcting === null ? 'observation' : 'correction',
    result: entityResult(ref, [...held, reread], null, today),
    license: DATA_LICENSE,
  };
}
