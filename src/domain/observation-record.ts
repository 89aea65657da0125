import { isUtcInstant } from './calendar.js';
import { isComponentKind } from './component.js';
import { ValidationError } from './errors.js';
import {
  OBSERVATION_LEAF_TYPE,
  observationLeafRecord,
  validateNewObservation,
  type NewObservation,
} from './observation.js';
import type { State } from './state.js';

/**
 * The inverse of observationLeafRecord: reads an observation back out of a leaf record (an
 * import, an audit). Rejects any record that observationLeafRecord would not have written, so
 * a leaf's bytes and the row stored beside them can never say different things.
 */
export function observationFromLeafRecord(record: unknown): { observation: NewObservation; logged_at: string } {
  const fail = (msg: string) => new ValidationError([{ loc: ['leaf'], msg, type: 'value_error.leaf' }]);
  if (typeof record !== 'object' || record === null || Array.isArray(record))
    throw fail('a leaf must be a JSON object');
  const r = record as Record<string, unknown>;
  if (r['_type'] !== OBSERVATION_LEAF_TYPE)
    throw fail(`this leaf is not an observation (_type ${JSON.stringify(r['_type'])})`);
  const kind = r['kind'];
  if (typeof kind !== 'string' || !isComponentKind(kind)) throw fail('the leaf names no known component kind');
  const loggedAt = r['logged_at'];
  if (typeof loggedAt !== 'string' || !isUtcInstant(loggedAt)) throw fail('the leaf has no logged_at instant');
  const observation: NewObservation = {
    component: { kind: kind, id: String(r['id']) },
    observed_at: String(r['observed_at']),
    observation_date: String(r['observation_date']),
    state: r['state'] as State,
    source: String(r['source']),
    evidence: r['evidence'] as NewObservation['evidence'],
    method: String(r['method']),
    corrects: typeof r['corrects'] === 'number' ? r['corrects'] : null,
  };
  validateNewObservation(observation);
  const rebuilt = observationLeafRecord(observation, loggedAt);
  if (
    JSON.stringify(Object.keys(rebuilt).sort()) !== JSON.stringify(Object.keys(r).sort()) ||
    rebuilt['component'] !== r['component']
  ) {
    throw fail('the leaf carries fields an observation record does not have, or a purl that does not match its id');
  }
  return { observation, logged_at: loggedAt };
}
