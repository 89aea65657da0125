import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from './calendar.js';
import {
  ALIVE_MAX_DAYS,
  DORMANT_MAX_DAYS,
  STALE_AFTER_DAYS,
  STATES,
  NOT_CHECKED_DEFINITION,
  STATE_DEFINITIONS,
  UNREACHABLE_REASONS,
  classify,
  isAsserted,
  stateDefinition,
  stateFromAge,
  stateInWords,
  type Signals,
  type State,
} from './state.js';

describe('states', () => {
  it('are the eight of the spec, two of which assert nothing', () => {
    expect([...STATES]).toEqual([
      'alive',
      'dormant',
      'abandoned',
      'archived',
      'deleted',
      'eol',
      'unknown-stale',
      'not_observed',
    ]);
    expect(STATES.filter((s) => !isAsserted(s))).toEqual(['unknown-stale', 'not_observed']);
  });

  it('thresholds are those of the spec', () => {
    expect([ALIVE_MAX_DAYS, DORMANT_MAX_DAYS, STALE_AFTER_DAYS]).toEqual([180, 365, 180]);
  });

  it.each<[State, string]>([
    ['alive', 'last commit 180 days ago or less'],
    ['dormant', 'last commit 180 to 365 days ago'],
    ['abandoned', 'last commit more than 365 days ago'],
    ['archived', "the repository's archived flag is set"],
    ['deleted', 'an authoritative HTTP 404 was read'],
    ['eol', 'an end-of-life listing declares end-of-life (used for container base images)'],
    ['not_observed', 'the check met 403, 429, a time-out or a network failure; it is not dead'],
  ])('%s means %j (spec §3)', (state, sentence) => {
    expect(STATE_DEFINITIONS[state]).toBe(sentence);
  });

  it('unknown-stale says no state is asserted and it is not a death', () => {
    expect(STATE_DEFINITIONS['unknown-stale']).toContain('no state is asserted');
    expect(STATE_DEFINITIONS['unknown-stale']).toContain('not a death');
  });
});

describe('stateDefinition per kind', () => {
  it.each([
    ['alive', 'github', 'last commit 180 days ago or less'],
    ['dormant', 'npm', 'latest published version 180 to 365 days ago'],
    ['abandoned', 'pypi', 'latest published version more than 365 days ago'],
    ['alive', 'docker', 'tag last pushed 180 days ago or less'],
    ['archived', 'github', "the repository's archived flag is set"],
    ['archived', 'npm', 'the latest version carries a registry deprecation notice'],
    ['deleted', 'npm', 'an authoritative HTTP 404 was read'],
    ['eol', 'docker', 'an end-of-life listing declares end-of-life (used for container base images)'],
  ] as const)('%s for %s: %j', (state, kind, sentence) => {
    expect(stateDefinition(state, kind, '2025-07-01')).toBe(sentence);
  });

  it('never speaks of commits for a package registry', () => {
    for (const s of STATES) {
      expect(stateDefinition(s, 'npm', '2025-07-01')).not.toContain('commit');
      expect(stateDefinition(s, 'pypi', '2025-07-01')).not.toContain('commit');
    }
  });

  // Issue 27 item 1: where nothing was read (no observation on or before the date) no check was
  // made, so the definition must not say a check met 403, 429, a time-out or a network failure.
  it('says "not checked", never a failed check, where nothing was read', () => {
    const meaning = stateDefinition('not_observed', 'npm', null);
    expect(meaning).toBe(NOT_CHECKED_DEFINITION);
    expect(meaning).toMatch(/^not checked: /);
    expect(meaning).not.toMatch(/403|429|time-out|network|check met/);
    // A read that failed keeps the spec's sentence.
    expect(stateDefinition('not_observed', 'npm', '2025-07-01')).toBe(STATE_DEFINITIONS.not_observed);
  });

  it('words the state "not checked" only where nothing was read', () => {
    expect(stateInWords('not_observed', null)).toBe('not checked');
    expect(stateInWords('not_observed', '2025-07-01')).toBe('not_observed');
    expect(stateInWords('unknown-stale', '2024-01-01')).toBe('unknown-stale');
  });

  // Issue 27 item 7: a distribution release's alive is its listing's support, not a recent point release.
  it('defines a distribution release alive by its support, and ages only one no longer supported', () => {
    expect(stateDefinition('alive', 'distro', '2026-03-01')).toMatch(
      /^the end-of-life listing marks the distribution release supported/,
    );
    expect(stateDefinition('abandoned', 'distro', '2026-03-01')).toMatch(
      /^the end-of-life listing no longer marks the distribution release supported, and its latest point release dates from more than 365 days ago$/,
    );
  });
});

describe('stateFromAge', () => {
  it.each([
    [-3, 'alive'], // upstream clock ahead of ours
    [0, 'alive'],
    [180, 'alive'],
    [181, 'dormant'],
    [365, 'dormant'],
    [366, 'abandoned'],
    [10_000, 'abandoned'],
  ])('%i days → %s', (days, state) => {
    expect(stateFromAge(days)).toBe(state);
  });

  it('never gets younger as the age grows (property)', () => {
    const rank = { alive: 0, dormant: 1, abandoned: 2 };
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 5000 }), fc.integer({ min: 0, max: 1000 }), (d, more) => {
        expect(rank[stateFromAge(d + more)]).toBeGreaterThanOrEqual(rank[stateFromAge(d)]);
      }),
    );
  });
});

describe('classify', () => {
  const day = '2025-07-01';
  const ago = (n: number) => `${addDays(day, -n)}T12:00:00Z`;

  it.each<[string, Signals, State]>([
    ['a recent commit', { lastActivity: ago(0) }, 'alive'],
    ['activity 180 days before', { lastActivity: ago(180) }, 'alive'],
    ['activity 181 days before', { lastActivity: ago(181) }, 'dormant'],
    ['activity 365 days before', { lastActivity: ago(365) }, 'dormant'],
    ['activity 366 days before', { lastActivity: ago(366) }, 'abandoned'],
    ['activity after the observation (clock skew)', { lastActivity: ago(-2) }, 'alive'],
    // The age counts UTC dates: 23:30 at -05:00 is already the next UTC day.
    ['an offset that crosses midnight', { lastActivity: `${addDays(day, -181)}T23:30:00-05:00` }, 'alive'],
    ['a 404', { notFound: true, lastActivity: ago(1) }, 'deleted'],
    ['an archived repository', { archived: true, lastActivity: ago(1) }, 'archived'],
    ['an end-of-life image', { eol: true, lastActivity: ago(1) }, 'eol'],
    // Precedence: deleted > archived > eol > supported > age.
    ['deleted and archived', { notFound: true, archived: true, eol: true }, 'deleted'],
    ['archived and eol', { archived: true, eol: true, lastActivity: ago(1000) }, 'archived'],
    ['eol and old', { eol: true, lastActivity: ago(1000) }, 'eol'],
    // A supported distribution release is alive, however old its latest point release (DESIGN §3,
    // issue 27 item 7); end-of-life still wins, and a failed read still asserts nothing.
    ['supported and old', { supported: true, lastActivity: ago(1000) }, 'alive'],
    ['supported with no activity date', { supported: true, lastActivity: null }, 'alive'],
    ['supported and eol', { supported: true, eol: true }, 'eol'],
    ['supported, read failed', { unreachable: 'timeout', supported: true }, 'not_observed'],
    // A failed read asserts nothing, whatever else was set.
    ['a rate limit', { unreachable: 'rate_limited' }, 'not_observed'],
    ['a rate limit with a 404 flag', { unreachable: 'rate_limited', notFound: true }, 'not_observed'],
    [
      'a time-out on an archived repo',
      { unreachable: 'timeout', archived: true, lastActivity: ago(1) },
      'not_observed',
    ],
    ['nothing read', {}, 'not_observed'],
    ['no activity date', { lastActivity: null }, 'not_observed'],
    ['an unreadable activity date', { lastActivity: 'last Tuesday' }, 'not_observed'],
    ['explicit false flags', { notFound: false, archived: false, eol: false, lastActivity: ago(200) }, 'dormant'],
  ])('%s → %s', (_, signals, state) => {
    expect(classify(signals, day)).toBe(state);
  });

  it('every unreachable reason is not_observed, never a death', () => {
    for (const reason of UNREACHABLE_REASONS) {
      expect(classify({ unreachable: reason, notFound: true }, day)).toBe('not_observed');
    }
  });

  it('never returns unknown-stale: staleness is only a read-time answer (property)', () => {
    const signals = fc.record(
      {
        unreachable: fc.constantFrom(...UNREACHABLE_REASONS),
        notFound: fc.boolean(),
        archived: fc.boolean(),
        eol: fc.boolean(),
        lastActivity: fc.option(fc.integer({ min: -30, max: 3000 }).map(ago), { nil: null }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(signals, (s) => {
        const state = classify(s, day);
        expect(state).not.toBe('unknown-stale');
        if (s.unreachable) expect(state).toBe('not_observed');
      }),
    );
  });
});
