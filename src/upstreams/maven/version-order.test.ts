import { describe, expect, it } from 'vitest';
import { compareMavenVersions, highestRelease, isMavenRelease } from './version-order.js';

describe('Maven version order', () => {
  it.each([
    ['1.0', '1.0.0', 0],
    ['1.10', '1.9', 1],
    ['3.0.1.1', '3.0.1', 1],
    ['1.0-rc1', '1.0', -1],
    ['1.0-alpha2', '1.0-beta1', -1],
    ['1.0-SNAPSHOT', '1.0', -1],
    ['1.0-sp1', '1.0', 1],
    ['23.6-jre', '23.5-jre', 1],
    ['2.0.0-M1', '2.0.0', -1],
    ['1.0.1', '1.0-sp', 1],
  ])('%s vs %s → %i', (a, b, sign) => {
    expect(Math.sign(compareMavenVersions(a, b))).toBe(sign);
    expect(Math.sign(compareMavenVersions(b, a))).toBe(sign === 0 ? 0 : -sign);
  });

  it('picks the highest release, not the last listed nor a pre-release (Guava lists 23.7-rc1 after 23.6)', () => {
    expect(highestRelease(['r03', '23.5-jre', '23.6-jre', '23.7-rc1-android', '23.7-rc1-jre'])).toBe('23.6-jre');
    expect(highestRelease(['3.0.1.1', '3.0.1', '2.9'])).toBe('3.0.1.1');
    expect(highestRelease(['1.0-SNAPSHOT', '1.0-beta1'])).toBeNull();
  });

  it.each(['1.0-rc1', '2.0.0-M3', '5.0.0-beta', '1.0-SNAPSHOT', '3.0-alpha-1', '1.0-b2'])(
    '%s is a pre-release',
    (v) => {
      expect(isMavenRelease(v)).toBe(false);
    },
  );
  it.each(['1.0', '23.6-jre', '2.17.1', '1.0-sp1', '9.4.51.v20230217'])('%s is a release', (v) => {
    expect(isMavenRelease(v)).toBe(true);
  });
});
