import { describe, expect, it } from 'vitest';
import type { ReleaseFacts } from '../endoflife/facts.js';
import { findCycle, planEolChecks } from './tag-cycle.js';
import { objectContaining } from '../../../test/support/matchers.js';

describe('planEolChecks (research §4.3)', () => {
  it.each([
    ['library/node', '18-alpine', [{ product: 'nodejs', version: '18' }], [/Alpine without its version/]],
    [
      'library/node',
      '18-alpine3.19',
      [
        { product: 'nodejs', version: '18' },
        { product: 'alpine-linux', version: '3.19' },
      ],
      [],
    ],
    [
      'library/python',
      '3.8-slim-bookworm',
      [
        { product: 'python', version: '3.8' },
        { product: 'debian', codename: 'bookworm' },
      ],
      [],
    ],
    ['library/python', '3.8.18', [{ product: 'python', version: '3.8.18' }], []],
    ['library/ubuntu', 'jammy', [{ product: 'ubuntu', codename: 'jammy' }], []],
    ['library/debian', 'bookworm-slim', [{ product: 'debian', codename: 'bookworm' }], []],
    ['library/node', 'hydrogen', [{ product: 'nodejs', version: '18' }], []],
    [
      'library/node',
      'iron-bookworm',
      [
        { product: 'nodejs', version: '20' },
        { product: 'debian', codename: 'bookworm' },
      ],
      [],
    ],
    ['library/postgres', '16.2', [{ product: 'postgresql', version: '16.2' }], []],
    [
      'library/golang',
      '1.22-alpine3.20',
      [
        { product: 'go', version: '1.22' },
        { product: 'alpine-linux', version: '3.20' },
      ],
      [],
    ],
    ['library/node', 'latest', [], [/names no release cycle/]],
    ['library/python', 'bookworm', [{ product: 'debian', codename: 'bookworm' }], [/names no release cycle/]],
    ['library/busybox', '1.36', [], [/no end-of-life product/]],
    ['bitnami/redis', '7.2', [], [/not an official image/]],
  ])('%s:%s', (path, tag, lookups, unchecked) => {
    const plan = planEolChecks(path, tag);
    expect(plan.lookups).toEqual(lookups.map((l) => objectContaining(l)));
    expect(plan.lookups.length).toBe(lookups.length);
    expect(plan.unchecked).toHaveLength(unchecked.length);
    unchecked.forEach((re, i) => expect(plan.unchecked[i]).toMatch(re));
  });
});

describe('findCycle', () => {
  const r = (name: string, codename: string | null = null): ReleaseFacts => ({
    name,
    codename,
    is_eol: false,
    eol_from: null,
    is_maintained: true,
    eoes_from: null,
    latest: null,
    latest_date: null,
  });
  const releases = [r('3.12'), r('3.8'), r('18'), r('16'), r('12', 'Bookworm'), r('22.04', 'Jammy Jellyfish')];
  it.each([
    [{ version: '3.8.18' }, '3.8'],
    [{ version: '18.20.1' }, '18'],
    [{ version: '16.2' }, '16'],
    [{ version: '3.12' }, '3.12'],
    [{ version: '3' }, null],
    [{ version: '22.04' }, '22.04'],
    [{ codename: 'bookworm' }, '12'],
    [{ codename: 'jammy' }, '22.04'],
    [{ codename: 'focal' }, null],
  ])('%j → %s', (match, name) => {
    expect(findCycle(releases, { product: 'x', from: 'test', ...match })?.name ?? null).toBe(name);
  });
});
