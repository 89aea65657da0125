import { isUtcInstant, utcDateOf } from './calendar.js';
import {
  componentPurls,
  isComponentKind,
  normaliseComponent,
  type ComponentKind,
  type ComponentRef,
} from './component.js';
import { ValidationError, type ValidationIssue } from './errors.js';
import type { EvidenceValue } from './observation.js';

/**
 * A census: one dated read of a component's adoption signal (how many packages depend on it, as
 * a named dependents source counts them). Chained in the log like an observation, because a page
 * is published or not on its strength.
 */
export interface Census {
  component: ComponentRef;
  read_at: string;
  read_date: string;
  /** null when the source could not be read: not zero, not known. */
  dependents: number | null;
  source: string;
  evidence: Record<string, EvidenceValue>;
  method: string;
  leaf_index: number;
}

export type NewCensus = Omit<Census, 'leaf_index'>;

export const CENSUS_LEAF_TYPE = 'tended/census/v1';

/**
 * The kinds whose registry has a dependents count Tended reads (DESIGN §3 "Adoption"): the package
 * registries the dependents source indexes under the names Tended keeps. NuGet is left out: the
 * source names NuGet packages in their published case and looks names up case-sensitively, while
 * NuGet ids compare without case and Tended keeps them lower-cased, so most reads would miss.
 */
export const CENSUS_KINDS: ReadonlySet<ComponentKind> = new Set([
  'npm',
  'pypi',
  'maven',
  'golang',
  'cargo',
  'gem',
  'composer',
]);

export function validateNewCensus(c: NewCensus): void {
  const issues: ValidationIssue[] = [];
  if (!c.component || !isComponentKind(c.component.kind))
    issues.push({
      loc: ['component'],
      msg: 'component must be a kind and a normalised id',
      type: 'value_error.component',
    });
  else if (normaliseComponent(c.component.kind, c.component.id).id !== c.component.id) {
    issues.push({ loc: ['component', 'id'], msg: 'component id must be normalised', type: 'value_error.component' });
  }
  if (!isUtcInstant(c.read_at))
    issues.push({ loc: ['read_at'], msg: 'read_at must be an RFC 3339 UTC instant', type: 'value_error.datetime' });
  else if (c.read_date !== utcDateOf(c.read_at))
    issues.push({ loc: ['read_date'], msg: 'read_date must be the UTC date of read_at', type: 'value_error.date' });
  if (c.dependents !== null && !(Number.isSafeInteger(c.dependents) && c.dependents >= 0)) {
    issues.push({
      loc: ['dependents'],
      msg: 'dependents must be a whole number of packages, or null when it could not be read',
      type: 'value_error.dependents',
    });
  }
  if (typeof c.source !== 'string' || c.source === '')
    issues.push({ loc: ['source'], msg: 'source must name what was read', type: 'value_error.source' });
  if (typeof c.method !== 'string' || c.method === '')
    issues.push({ loc: ['method'], msg: 'method must name the dependents source', type: 'value_error.method' });
  if (issues.length > 0) throw new ValidationError(issues);
}

/** The JSON object a census leaf commits to (serialised by the notary, RFC 8785). */
export function censusLeafRecord(c: NewCensus, loggedAt: string): Record<string, unknown> {
  return { ...censusLeafBody(c), logged_at: loggedAt };
}

/** A census read's leaf record but for its logged_at, which the log sets when it appends it. */
export function censusLeafBody(c: NewCensus): Record<string, unknown> {
  validateNewCensus(c);
  return {
    _type: CENSUS_LEAF_TYPE,
    component: componentPurls(c.component)[1],
    kind: c.component.kind,
    id: c.component.id,
    read_at: c.read_at,
    read_date: c.read_date,
    dependents: c.dependents,
    source: c.source,
    evidence: c.evidence,
    method: c.method,
  };
}

/** The inverse of censusLeafRecord, refusing any record it would not have written. */
export function censusFromLeafRecord(record: Record<string, unknown>): { census: NewCensus; logged_at: string } {
  const census: NewCensus = {
    component: { kind: record['kind'] as ComponentKind, id: String(record['id']) },
    read_at: String(record['read_at']),
    read_date: String(record['read_date']),
    dependents: (record['dependents'] as number | null) ?? null,
    source: String(record['source']),
    evidence: record['evidence'] as NewCensus['evidence'],
    method: String(record['method']),
  };
  const loggedAt = String(record['logged_at']);
  const rebuilt = censusLeafRecord(census, loggedAt);
  if (
    JSON.stringify(rebuilt) !== JSON.stringify(Object.fromEntries(Object.keys(rebuilt).map((k) => [k, record[k]]))) ||
    Object.keys(record).length !== Object.keys(rebuilt).length
  ) {
    throw new ValidationError([
      { loc: ['leaf'], msg: 'this census leaf does not match the census record format', type: 'value_error.leaf' },
    ]);
  }
  return { census, logged_at: loggedAt };
}
