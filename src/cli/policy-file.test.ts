import { describe, expect, it } from 'vitest';
import { componentPattern, patternMatches, type ComponentPattern } from './component-pattern.js';
import { parsePolicy, PolicyError } from './policy-file.js';

/** The problems a policy is refused for, as the usage error lists them. */
function problems(text: string): string[] {
  try {
    parsePolicy(text, '.tended.yml');
  } catch (error) {
    if (error instanceof PolicyError) return error.problems;
    throw error;
  }
  throw new Error('the policy was accepted');
}

function pattern(written: string): ComponentPattern {
  const p = componentPattern(written);
  if (typeof p === 'string') throw new Error(p);
  return p;
}

describe('the policy file', () => {
  it('reads fail_on, scope and exceptions, each exception with where the file says it', () => {
    const policy = parsePolicy(
      'fail_on: [abandoned, eol]\nscope: direct\nexceptions:\n  - component: npm:@acme/*\n    reason: ours, kept by hand\n    expires: 2027-03-31\n',
      '.tended.yml',
    );
    expect(policy.failOn).toEqual(['abandoned', 'eol']);
    expect(policy.scope).toBe('direct');
    expect(policy.exceptions).toMatchObject([
      { reason: 'ours, kept by hand', expires: '2027-03-31', at: '.tended.yml line 4' },
    ]);
    expect(parsePolicy('fail_on: none\n', 'p').failOn).toEqual([]);
    expect(parsePolicy('', 'p')).toEqual({ file: 'p', exceptions: [] });
  });

  it('refuses a typo, a wrong word or a missing field, naming its line and field, so it never passes a gate quietly', () => {
    expect(problems('fail-on: [abandoned]\n')).toEqual([
      'line 1, fail-on: is not a key of a policy (they are fail_on, scope, exceptions)',
    ]);
    expect(problems('scope: direct\nfail_on: [abandoned, dead]\n')).toEqual([
      `line 2, fail_on: is a list of states (alive, dormant, abandoned, archived, deleted, eol, unknown-stale, not_observed), or none; "dead" is not a state`,
    ]);
    expect(problems('scope: mine\n')).toEqual(['line 1, scope: is direct or all; got "mine"']);
    expect(
      problems(
        'exceptions:\n  - component: npm:left-pad\n    reason: "  "\n    expires: 2027-02-30\n  - component: left-pad\n    reason: r\n    expires: soon\n',
      ),
    ).toEqual([
      'line 3, exceptions[0].reason: must be text, not empty; got "  "',
      "line 4, exceptions[0].expires: '2027-02-30' is not a date (YYYY-MM-DD): February 2027 has 28 days",
      'line 5, exceptions[1].component: a component is a package URL (pkg:npm/left-pad) or kind:name, where kind is one of github, npm, pypi, docker, maven, golang, cargo, nuget, gem, composer, distro and name may hold * for any run of characters (npm:@acme/*)',
      'line 7, exceptions[1].expires: takes a date written YYYY-MM-DD, e.g. 2025-07-01; got "soon"',
    ]);
    expect(problems('exceptions:\n  - component: npm:x\n    reason: r\n')).toEqual([
      'line 2, exceptions[0].expires: is required',
    ]);
    expect(
      problems(
        'exceptions:\n  - {component: pypi:Flask_Login, reason: a, expires: 2027-01-01}\n  - {component: pkg:pypi/flask-login, reason: b, expires: 2027-01-01}\n',
      ),
    ).toEqual(['line 3, component: pkg:pypi/flask-login is excepted already (.tended.yml line 2)']);
  });

  it('says where the YAML itself is broken, and a key given twice', () => {
    expect(problems('exceptions:\n  - component: [npm:x\n')[0]).toMatch(/^line 3: /);
    expect(problems('scope: direct\nscope: all\n')[0]).toMatch(/^line 2: Map keys must be unique/);
    expect(problems('- a\n- b\n')).toEqual(['line 1: a policy is a mapping of fail_on, scope, exceptions']);
  });
});

describe('the component an exception names', () => {
  it('matches a package URL or a component exactly, as the record names it', () => {
    expect(patternMatches(pattern('pkg:npm/%40acme/tool'), 'npm', '@acme/tool')).toBe(true);
    expect(patternMatches(pattern('pypi:Flask_Login'), 'pypi', 'flask-login')).toBe(true);
    expect(patternMatches(pattern('npm:left-pad'), 'pypi', 'left-pad')).toBe(false);
  });

  it('reads * as any run of characters and nothing else as special', () => {
    const acme = pattern('npm:@acme/*');
    expect(patternMatches(acme, 'npm', '@acme/tool')).toBe(true);
    expect(patternMatches(acme, 'npm', '@acme/')).toBe(true);
    expect(patternMatches(acme, 'npm', '@acmecorp/tool')).toBe(false);
    const middle = pattern('github:acme/*-action*');
    expect(patternMatches(middle, 'github', 'acme/setup-action')).toBe(true);
    expect(patternMatches(middle, 'github', 'acme/setup-action-v2')).toBe(true);
    expect(patternMatches(middle, 'github', 'acme/setup')).toBe(false);
    // The pieces may not overlap: `ab*ba` is not `aba`.
    expect(patternMatches(pattern('npm:ab*ba'), 'npm', 'aba')).toBe(false);
    expect(patternMatches(pattern('npm:left.pad'), 'npm', 'leftxpad')).toBe(false);
    expect(componentPattern('pkg:npm/*')).toMatch(/^a package URL names one component, without \*/);
  });

  it('takes time linear in the name, whatever the pattern (no backtracking)', () => {
    const stars = pattern(`npm:*${'a*'.repeat(90)}b*`);
    const name = 'a'.repeat(200_000);
    const started = performance.now();
    expect(patternMatches(stars, 'npm', name)).toBe(false);
    expect(performance.now() - started).toBeLessThan(100);
  });
});
