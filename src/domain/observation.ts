/** Observations: one dated read of one component, and the leaf record that commits to it. */
import { isUtcInstant, utcDateOf } from './calendar.js';
import { componentPurls, isComponentKind, normaliseComponent, type ComponentRef } from './component.js';
import { ValidationError, type ValidationIssue } from './errors.js';
import { isState, type State } from './state.js';

/**
 * Evidence is committed to a leaf as RFC 8785 canonical JSON, where a non-integer number has
 * no single spelling across implementations; so evidence holds integers only (timestamps
 * and fractions go in as strings).
 */
export type EvidenceValue = string | number | boolean | null | EvidenceValue[] | { [k: string]: EvidenceValue };

/** What a component's series needs of each reading: no evidence, no source (an index-only read). */
export type SeriesEntry = Pick<Observation, 'leaf_index' | 'observation_date' | 'state' | 'corrects'>;

export interface Observation {
  component: ComponentRef;
  /** RFC 3339 UTC instant of the read (`…Z`). */
  observed_at: string;
  /** The UTC date of `observed_at`. In the read view of a correction: the date it corrects. */
  observation_date: string;
  /** Never `unknown-stale`: that is only ever a read-time answer. */
  state: State;
  /** The URL (or other reference) the evidence was read from. */
  source: string;
  evidence: Record<string, EvidenceValue>;
  /** Names the registry metadata the state was read from. */
  method: string;
  /** leaf_index of the observation this one corrects; null for a scheduled read. */
  corrects: number | null;
  leaf_index: number;
}

export type NewObservation = Omit<Observation, 'leaf_index'>;

export const OBSERVATION_LEAF_TYPE = 'tended/observation/v1';

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Collects every place in `value` that is not evidence, with its path. */
function evidenceIssues(value: unknown, loc: (string | number)[], out: ValidationIssue[]): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    // Safe integers only: beyond 2^53 a number no longer round-trips through JSON.
    if (!Number.isSafeInteger(value)) {
      out.push({
        loc,
        msg: `evidence numbers must be whole numbers within ±2^53 (write fractions and timestamps as strings); got ${String(value)}`,
        type: 'value_error.evidence.number',
      });
    }
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((v, i) => evidenceIssues(v, [...loc, i], out));
    return;
  }
  if (isPlainObject(value)) {
    for (const [k, v] of Object.entries(value)) evidenceIssues(v, [...loc, k], out);
    return;
  }
  out.push({
    loc,
    msg: `evidence values must be JSON: strings, whole numbers, booleans, null, arrays or objects; got a value of type ${typeof value}`,
    type: 'value_error.evidence.type',
  });
}

function nonEmpty(v: unknown): boolean {
  return typeof v === 'string' && v.trim() !== '';
}

/**
 * Checks a record before it is appended; history is never edited, so a bad record would
 * stay in the log for good. Reports every problem at once.
 */
export function validateNewObservation(o: NewObservation): void {
  const issues: ValidationIssue[] = [];
  const c = o.component as Partial<ComponentRef> | undefined;
  if (!c || typeof c.kind !== 'string' || !isComponentKind(c.kind) || typeof c.id !== 'string') {
    issues.push({
      loc: ['component'],
      msg: 'component must be a kind and a normalised id',
      type: 'value_error.component',
    });
  } else {
    let normal: string | null;
    try {
      normal = normaliseComponent(c.kind, c.id).id;
    } catch {
      normal = null;
    }
    if (normal !== c.id) {
      issues.push({
        loc: ['component', 'id'],
        msg: `component id must be the normalised ${c.kind} id${normal ? ` "${normal}"` : ''}`,
        type: 'value_error.component',
      });
    }
  }
  if (typeof o.observed_at !== 'string' || !isUtcInstant(o.observed_at)) {
    issues.push({
      loc: ['observed_at'],
      msg: 'observed_at must be an RFC 3339 UTC instant such as 2025-07-01T12:00:00Z',
      type: 'value_error.datetime',
    });
  } else if (o.observation_date !== utcDateOf(o.observed_at)) {
    issues.push({
      loc: ['observation_date'],
      msg: `observation_date must be the UTC date of observed_at (${utcDateOf(o.observed_at)})`,
      type: 'value_error.date',
    });
  }
  if (typeof o.state !== 'string' || !isState(o.state) || o.state === 'unknown-stale') {
    issues.push({
      loc: ['state'],
      msg: 'state must be one of the observed states; unknown-stale is only ever a read-time answer',
      type: 'value_error.state',
    });
  }
  if (!nonEmpty(o.source))
    issues.push({ loc: ['source'], msg: 'source must name what was read', type: 'value_error.source' });
  if (!nonEmpty(o.method))
    issues.push({ loc: ['method'], msg: 'method must name the metadata used', type: 'value_error.method' });
  if (!isPlainObject(o.evidence)) {
    issues.push({ loc: ['evidence'], msg: 'evidence must be an object', type: 'value_error.evidence.type' });
  } else {
    evidenceIssues(o.evidence, ['evidence'], issues);
  }
  if (o.corrects !== null && !(Number.isSafeInteger(o.corrects) && o.corrects >= 0)) {
    issues.push({
      loc: ['corrects'],
      msg: 'corrects must be null or the leaf_index of the corrected observation',
      type: 'value_error.corrects',
    });
  }
  if (issues.length > 0) throw new ValidationError(issues);
}

/**
 * The JSON object a leaf commits to. The notary serialises it (RFC 8785) and stores the
 * exact bytes; `corrects` is left out for scheduled reads so their leaves stay minimal.
 */
export function observationLeafRecord(o: NewObservation, loggedAt: string): Record<string, unknown> {
  const record = observationLeafBody(o);
  assertLoggedAt(loggedAt);
  record['logged_at'] = loggedAt;
  return record;
}

/** An observation's leaf record but for its logged_at, which the log sets when it appends it. */
export function observationLeafBody(o: NewObservation): Record<string, unknown> {
  validateNewObservation(o);
  const record: Record<string, unknown> = {
    _type: OBSERVATION_LEAF_TYPE,
    component: componentPurls(o.component)[1],
    kind: o.component.kind,
    id: o.component.id,
    observed_at: o.observed_at,
    observation_date: o.observation_date,
    state: o.state,
    source: o.source,
    evidence: o.evidence,
    method: o.method,
  };
  if (o.corrects !== null) record['corrects'] = o.corrects;
  return record;
}

export function assertLoggedAt(loggedAt: string): void {
  if (!isUtcInstant(loggedAt)) {
    throw new ValidationError([
      {
        loc: ['logged_at'],
        msg: 'logged_at must be an RFC 3339 UTC instant such as 2025-07-01T12:00:00Z',
        type: 'value_error.datetime',
      },
    ]);
  }
}
