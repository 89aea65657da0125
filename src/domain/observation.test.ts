import { describe, expect, it } from 'vitest';
import { ValidationError } from './errors.js';
import { observationLeafRecord, validateNewObservation, type NewObservation } from './observation.js';

function reading(over: Partial<NewObservation> = {}): NewObservation {
  return {
    component: { kind: 'github', id: 'expressjs/express' },
    observed_at: '2025-07-01T09:12:00Z',
    observation_date: '2025-07-01',
    state: 'alive',
    source: 'https://api.github.com/repos/expressjs/express',
    evidence: { http_status: 200, last_commit: '2025-06-28T09:12:00Z', archived: false },
    method: 'github: default-branch head commit committer.date, archived flag',
    corrects: null,
    ...over,
  };
}

function issuesOf(o: NewObservation) {
  try {
    validateNewObservation(o);
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    return (e as ValidationError).issues;
  }
  throw new Error('expected a ValidationError');
}

describe('validateNewObservation', () => {
  it.each<[string, Partial<NewObservation>]>([
    ['a scheduled read', {}],
    ['a correction', { corrects: 0, observed_at: '2025-08-10T10:00:00Z', observation_date: '2025-08-10' }],
    ['a failed read', { state: 'not_observed', evidence: { error: 'rate_limited', http_status: 429 } }],
    ['an instant with milliseconds', { observed_at: '2025-07-01T23:59:59.999Z' }],
    ['nested evidence', { evidence: { versions: [{ v: '1.0.0', t: '2020-01-01T00:00:00Z' }], n: -5, x: null } }],
    ['empty evidence', { evidence: {} }],
    ['a big but safe integer', { evidence: { stars: Number.MAX_SAFE_INTEGER } }],
  ])('accepts %s', (_, over) => {
    expect(() => validateNewObservation(reading(over))).not.toThrow();
  });

  it.each<[string, Partial<NewObservation>, (string | number)[]]>([
    ['unknown-stale, a read-time answer', { state: 'unknown-stale' }, ['state']],
    ['a state that does not exist', { state: 'dead' as never }, ['state']],
    ['a date that is not the UTC date of observed_at', { observation_date: '2025-06-30' }, ['observation_date']],
    ['an instant with an offset', { observed_at: '2025-07-01T09:12:00+02:00' }, ['observed_at']],
    ['a date-only instant', { observed_at: '2025-07-01' }, ['observed_at']],
    ['a fractional number in evidence', { evidence: { ratio: 0.5 } }, ['evidence', 'ratio']],
    ['a nested fractional number', { evidence: { a: [1, { b: 2.25 }] } }, ['evidence', 'a', 1, 'b']],
    ['an unsafe integer', { evidence: { n: 2 ** 53 } }, ['evidence', 'n']],
    ['NaN', { evidence: { n: Number.NaN } }, ['evidence', 'n']],
    ['Infinity', { evidence: { n: Number.POSITIVE_INFINITY } }, ['evidence', 'n']],
    ['undefined in evidence', { evidence: { n: undefined as never } }, ['evidence', 'n']],
    ['a Date in evidence', { evidence: { at: new Date() as never } }, ['evidence', 'at']],
    ['evidence that is an array', { evidence: [] as never }, ['evidence']],
    ['an id that is not normalised', { component: { kind: 'github', id: 'ExpressJS/Express' } }, ['component', 'id']],
    ['an id that is not valid', { component: { kind: 'npm', id: '.x' } }, ['component', 'id']],
    ['an unknown kind', { component: { kind: 'conan' as never, id: 'x' } }, ['component']],
    ['an empty source', { source: ' ' }, ['source']],
    ['an empty method', { method: '' }, ['method']],
    ['a negative corrects', { corrects: -1 }, ['corrects']],
    ['a fractional corrects', { corrects: 1.5 }, ['corrects']],
  ])('refuses %s', (_, over, loc) => {
    expect(issuesOf(reading(over)).map((i) => i.loc)).toContainEqual(loc);
  });

  it('reports every problem at once', () => {
    const issues = issuesOf(reading({ state: 'unknown-stale', source: '', evidence: { x: 1.5 } }));
    expect(issues.map((i) => i.loc)).toEqual([['state'], ['source'], ['evidence', 'x']]);
  });
});

describe('observationLeafRecord', () => {
  it('commits to the component, the reading and when it was logged', () => {
    expect(observationLeafRecord(reading(), '2025-07-01T09:12:01.250Z')).toEqual({
      _type: 'tended/observation/v1',
      component: 'pkg:github/expressjs/express',
      kind: 'github',
      id: 'expressjs/express',
      observed_at: '2025-07-01T09:12:00Z',
      observation_date: '2025-07-01',
      state: 'alive',
      source: 'https://api.github.com/repos/expressjs/express',
      evidence: { http_status: 200, last_commit: '2025-06-28T09:12:00Z', archived: false },
      method: 'github: default-branch head commit committer.date, archived flag',
      logged_at: '2025-07-01T09:12:01.250Z',
    });
  });

  it('names the corrected leaf only on a correction', () => {
    expect(observationLeafRecord(reading(), '2025-07-01T09:12:01Z')).not.toHaveProperty('corrects');
    const c = reading({ corrects: 41, observed_at: '2025-08-10T10:00:00Z', observation_date: '2025-08-10' });
    expect(observationLeafRecord(c, '2025-08-10T10:00:01Z')).toMatchObject({ corrects: 41 });
    expect(observationLeafRecord({ ...c, corrects: 0 }, '2025-08-10T10:00:01Z')).toMatchObject({ corrects: 0 });
  });

  it('uses the pkg: purl of the component', () => {
    const o = reading({ component: { kind: 'npm', id: '@babel/core' } });
    expect(observationLeafRecord(o, '2025-07-01T09:12:01Z')['component']).toBe('pkg:npm/%40babel/core');
  });

  it('refuses to commit to an invalid record or logging time', () => {
    expect(() => observationLeafRecord(reading({ state: 'unknown-stale' }), '2025-07-01T09:12:01Z')).toThrow(
      ValidationError,
    );
    expect(() => observationLeafRecord(reading(), '2025-07-01 09:12:01')).toThrow(ValidationError);
  });
});
