import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { datedRead, effectiveObservations, parseAsOf, resolveAsOf, type CensoringStatus } from './as-of.js';
import { ValidationError } from './errors.js';
import { addDays } from './calendar.js';
import type { Observation } from './observation.js';
import { STATES, type State } from './state.js';

/** One reading of one repository, read on `date`; a correction names the leaf it corrects. */
function obs(date: string, state: State, leaf: number, corrects: number | null = null): Observation {
  return {
    component: { kind: 'github', id: 'acme/x' },
    observed_at: `${date}T06:00:00Z`,
    observation_date: date,
    state,
    source: `https://api.github.com/repos/acme/x#${leaf}`,
    evidence: { leaf },
    method: 'test',
    corrects,
    leaf_index: leaf,
  };
}

const today = '2025-12-31';
// A record with a gap and a failed read in it.
const record = [
  obs('2025-01-10', 'alive', 1),
  obs('2025-02-01', 'not_observed', 2),
  obs('2025-03-01', 'dormant', 3),
  obs('2025-03-02', 'dormant', 4),
];

describe('resolveAsOf', () => {
  it.each<[string, string | null, State, string | null, CensoringStatus, number | null]>([
    ['a date before coverage', '2025-01-09', 'not_observed', null, 'not-observed-at-date', null],
    ['the first observation date', '2025-01-10', 'alive', '2025-01-10', 'observed-on-date', 0],
    ['a date inside a gap: carried forward', '2025-01-20', 'alive', '2025-01-10', 'interval-censored', 10],
    ['a failed read on the date: reported honestly', '2025-02-01', 'not_observed', '2025-02-01', 'observed-on-date', 0],
    [
      'after a failed read: not replaced by the older state',
      '2025-02-15',
      'not_observed',
      '2025-02-01',
      'interval-censored',
      14,
    ],
    ['an exact hit', '2025-03-01', 'dormant', '2025-03-01', 'observed-on-date', 0],
    [
      '180 days after the last read: still carried',
      addDays('2025-03-02', 180),
      'dormant',
      '2025-03-02',
      'interval-censored',
      180,
    ],
    [
      '181 days after the last read: stale',
      addDays('2025-03-02', 181),
      'unknown-stale',
      '2025-03-02',
      'interval-censored',
      181,
    ],
    ['no as_of: answered for today', null, 'unknown-stale', '2025-03-02', 'interval-censored', 304],
  ])('%s (%s)', (_, asOf, state, date, censoring, age) => {
    const r = resolveAsOf(record, asOf, today);
    expect(r.as_of).toBe(asOf ?? today);
    expect(r.state).toBe(state);
    expect(r.observation_date).toBe(date);
    expect(r.censoring_status).toBe(censoring);
    expect(r.age_days).toBe(age);
    expect(r.stale).toBe(state === 'unknown-stale');
    expect(r.observation?.observation_date ?? null).toBe(date);
  });

  it('holding nothing is not-observed-at-date, never "gone"', () => {
    expect(resolveAsOf([], null, today)).toEqual({
      as_of: today,
      state: 'not_observed',
      observation_date: null,
      censoring_status: 'not-observed-at-date',
      observation: null,
      stale: false,
      age_days: null,
      last_asserted: null,
    });
  });

  it('a stale answer still carries the real date and the source', () => {
    const r = resolveAsOf(record, '2025-12-01', today);
    expect(r.state).toBe('unknown-stale');
    expect(r.observation?.source).toBe('https://api.github.com/repos/acme/x#4');
    expect(r.observation?.state).toBe('dormant');
  });

  it.each<[string, string, { state: State; observation_date: string; leaf_index: number } | null]>([
    ['before coverage', '2025-01-01', null],
    ['on an asserted read', '2025-01-10', { state: 'alive', observation_date: '2025-01-10', leaf_index: 1 }],
    ['after a failed read', '2025-02-15', { state: 'alive', observation_date: '2025-01-10', leaf_index: 1 }],
    ['when stale', '2025-12-01', { state: 'dormant', observation_date: '2025-03-02', leaf_index: 4 }],
  ])('last_asserted gives context %s', (_, asOf, expected) => {
    expect(resolveAsOf(record, asOf, today).last_asserted).toEqual(expected);
  });

  it('never uses an observation after the date, however close', () => {
    const r = resolveAsOf([obs('2025-05-02', 'alive', 1)], '2025-05-01', today);
    expect(r.state).toBe('not_observed');
    expect(r.censoring_status).toBe('not-observed-at-date');
  });

  it('does not depend on the order observations arrive in', () => {
    expect(resolveAsOf([...record].reverse(), '2025-03-05', today)).toEqual(resolveAsOf(record, '2025-03-05', today));
  });

  it('refuses dates that are not dates (programming errors; users go through parseAsOf)', () => {
    expect(() => resolveAsOf(record, '2025-02-30', today)).toThrow(RangeError);
    expect(() => resolveAsOf(record, null, 'today')).toThrow(RangeError);
  });
});

describe('effectiveObservations: corrections', () => {
  // Leaf 2 read a 404 by mistake; a dispute re-read on 2025-04-10 (leaf 9) corrects it.
  const withCorrection = [
    obs('2025-03-01', 'alive', 1),
    obs('2025-03-02', 'deleted', 2),
    obs('2025-03-03', 'alive', 3),
    obs('2025-04-10', 'alive', 9, 2),
  ];

  it('puts the correction on the date it corrects; the original leaves the view', () => {
    const view = effectiveObservations(withCorrection);
    expect(view.map((o) => [o.observation_date, o.state, o.leaf_index])).toEqual([
      ['2025-03-01', 'alive', 1],
      ['2025-03-02', 'alive', 9],
      ['2025-03-03', 'alive', 3],
    ]);
    // It still points at the correction's own leaf and says when it was re-read.
    expect(view[1]).toMatchObject({ corrects: 2, observed_at: '2025-04-10T06:00:00Z' });
  });

  it('the latest correction wins, also when it corrects a correction', () => {
    const chain = [...withCorrection, obs('2025-05-01', 'archived', 12, 9), obs('2025-04-20', 'dormant', 11, 2)];
    const day = effectiveObservations(chain).find((o) => o.observation_date === '2025-03-02');
    expect(day?.leaf_index).toBe(12);
    expect(day?.state).toBe('archived');
  });

  it('answers an as_of on the corrected date with the corrected reading', () => {
    const r = resolveAsOf(withCorrection, '2025-03-02', today);
    expect(r.state).toBe('alive');
    expect(r.observation_date).toBe('2025-03-02');
    expect(r.censoring_status).toBe('observed-on-date');
    expect(r.observation?.leaf_index).toBe(9);
  });

  it('leaves the input untouched (the original stays in the record)', () => {
    const input = structuredClone(withCorrection);
    effectiveObservations(input);
    expect(input).toEqual(withCorrection);
  });

  it('keeps a correction whose target is not held, or not earlier in the log, on its own date', () => {
    expect(effectiveObservations([obs('2025-04-01', 'alive', 5, 99)]).map((o) => o.observation_date)).toEqual([
      '2025-04-01',
    ]);
    const loop = [obs('2025-01-01', 'alive', 1, 2), obs('2025-01-02', 'dormant', 2, 1)];
    expect(effectiveObservations(loop).map((o) => [o.observation_date, o.leaf_index])).toEqual([['2025-01-01', 2]]);
  });

  it('is idempotent, so a view cut at a date can be read again', () => {
    const once = effectiveObservations(withCorrection);
    expect(effectiveObservations(once)).toEqual(once);
  });
});

describe('properties', () => {
  const start = '2024-01-01';
  const reading = fc.record({
    day: fc.integer({ min: 0, max: 800 }),
    state: fc.constantFrom(...STATES.filter((s) => s !== 'unknown-stale')),
  });
  /** A record with at most one scheduled read per date and some corrections appended after. */
  const history = fc
    .tuple(
      fc.uniqueArray(reading, { selector: (r) => r.day, maxLength: 30 }),
      fc.array(
        fc.record({ target: fc.nat(), delay: fc.integer({ min: 0, max: 300 }), state: reading.map((r) => r.state) }),
        {
          maxLength: 5,
        },
      ),
    )
    .map(([reads, fixes]) => {
      const sorted = [...reads].sort((a, b) => a.day - b.day);
      const out = sorted.map((r, i) => obs(addDays(start, r.day), r.state, i));
      fixes.forEach((f, j) => {
        const target = out[f.target % Math.max(out.length, 1)];
        if (target)
          out.push(obs(addDays(target.observation_date, f.delay), f.state, out.length + j, target.leaf_index));
      });
      return out;
    });
  const asOf = fc.integer({ min: -10, max: 1000 }).map((d) => addDays(start, d));

  it('as_of never returns an observation dated after as_of', () => {
    fc.assert(
      fc.property(history, asOf, (observations, date) => {
        const r = resolveAsOf(observations, date, '2030-01-01');
        if (r.observation_date !== null) expect(r.observation_date <= date).toBe(true);
        if (r.observation !== null) expect(r.observation.observation_date <= date).toBe(true);
        if (r.last_asserted !== null) expect(r.last_asserted.observation_date <= date).toBe(true);
      }),
    );
  });

  it('reads and corrections of reads after as_of change nothing in the answer', () => {
    const later = fc.array(
      fc.record({ after: fc.integer({ min: 1, max: 400 }), state: reading.map((r) => r.state), fix: fc.boolean() }),
      {
        minLength: 1,
        maxLength: 10,
      },
    );
    fc.assert(
      fc.property(history, asOf, later, (observations, date, extra) => {
        const next = observations.length + 100;
        const appended = extra.flatMap((e, i) => {
          const read = obs(addDays(date, e.after), e.state, next + 2 * i);
          return e.fix ? [read, obs(addDays(date, e.after + 5), 'alive', next + 2 * i + 1, read.leaf_index)] : [read];
        });
        expect(resolveAsOf([...observations, ...appended], date, '2030-01-01')).toEqual(
          resolveAsOf(observations, date, '2030-01-01'),
        );
      }),
    );
  });

  it('the answer is stale exactly when its observation is more than 180 days old', () => {
    fc.assert(
      fc.property(history, asOf, (observations, date) => {
        const r = resolveAsOf(observations, date, '2030-01-01');
        expect(r.stale).toBe(r.age_days !== null && r.age_days > 180);
        expect(r.state === 'unknown-stale').toBe(r.stale);
        expect(r.censoring_status === 'observed-on-date').toBe(r.age_days === 0);
      }),
    );
  });

  it('the view has one observation per date, ascending, and is idempotent', () => {
    fc.assert(
      fc.property(history, (observations) => {
        const view = effectiveObservations(observations);
        const dates = view.map((o) => o.observation_date);
        expect(dates).toEqual([...new Set(dates)].sort());
        expect(effectiveObservations(view)).toEqual(view);
      }),
    );
  });
});

describe('parseAsOf', () => {
  const today = '2025-07-01';

  it.each([
    [undefined, null],
    ['', null],
    ['2025-07-01', '2025-07-01'], // today itself is allowed
    ['2025-06-30', '2025-06-30'],
    ['2024-02-29', '2024-02-29'],
    ['1999-01-01', '1999-01-01'], // before any coverage: valid, answered as not observed
  ])('%j → %j', (raw, expected) => {
    expect(parseAsOf(raw, today)).toBe(expected);
  });

  function issueOf(raw: string) {
    try {
      parseAsOf(raw, today);
    } catch (e) {
      expect(e).toBeInstanceOf(ValidationError);
      const [issue] = (e as ValidationError).issues;
      return issue;
    }
    throw new Error('expected a ValidationError');
  }

  it.each(['2025-02-30', '2023-02-29', '2025-13-01', '2025-1-01', 'yesterday', '2025-07-01T00:00:00Z', ' 2025-07-01'])(
    'refuses %j as malformed, saying what to write',
    (raw) => {
      const issue = issueOf(raw);
      expect(issue).toEqual({
        loc: ['query', 'as_of'],
        msg: `as_of must be a real calendar date written YYYY-MM-DD, for example 2025-07-01; got ${JSON.stringify(raw)}`,
        type: 'value_error.date',
      });
    },
  );

  it.each(['2025-07-02', '2030-01-01'])('refuses %s as later than today, naming today', (raw) => {
    const issue = issueOf(raw);
    expect(issue?.type).toBe('value_error.date.future');
    expect(issue?.loc).toEqual(['query', 'as_of']);
    expect(issue?.msg).toContain('cannot be later than today');
    expect(issue?.msg).toContain(today);
  });

  it('never echoes more than 40 characters of the input', () => {
    const raw = `2025-07-01${'x'.repeat(5000)}`;
    const msg = issueOf(raw)?.msg ?? '';
    expect(msg).toContain(`"${raw.slice(0, 40)}…"`);
    expect(msg.length).toBeLessThan(160);
  });

  it('shows control characters as ? so the message stays one line', () => {
    expect(issueOf('2025\n07\u000001')?.msg).toContain('"2025?07?01"');
  });
});

describe('datedRead', () => {
  it('reads as_of against the UTC date of now', () => {
    expect(datedRead(undefined, new Date('2025-07-01T23:59:59Z'))).toEqual({ asOf: null, today: '2025-07-01' });
    expect(datedRead('2025-06-30', new Date('2025-07-01T00:00:00Z'))).toEqual({
      asOf: '2025-06-30',
      today: '2025-07-01',
    });
    expect(() => datedRead('2025-07-02', new Date('2025-07-01T12:00:00Z'))).toThrow(ValidationError);
  });
});
