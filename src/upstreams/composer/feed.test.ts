import { describe, expect, it } from 'vitest';
import { packageOf, parseChanges, parsePackageList, startingTimestamp } from './feed.js';

/** composer/packagist templates/api_doc/index.html.twig@31ecf359f1c3 and PackageController.php. */
describe('Packagist changes.json and list.json', () => {
  it('reads updates and deletes, and the timestamp to ask from next', () => {
    const answer = {
      actions: [
        { type: 'update', package: 'acme/package', time: 1614264954 },
        { type: 'update', package: 'foo/bar~dev', time: 1614264951 },
        { type: 'delete', package: 'acme/gone', time: 1614264953 },
      ],
      timestamp: 16142649540001,
    };
    const parsed = parseChanges(answer);
    expect(parsed).toEqual(answer);
    if (typeof parsed === 'string') throw new Error(parsed);
    expect(parsed.actions.map(packageOf)).toEqual(['acme/package', 'foo/bar', 'acme/gone']);
  });

  it('reads a resync, and the starting timestamp a 400 offers', () => {
    expect(
      parseChanges({ actions: [{ type: 'resync', time: 1614264954, package: '*' }], timestamp: 16142649540001 }),
    ).toMatchObject({
      actions: [{ type: 'resync' }],
    });
    const refused = {
      error:
        'Invalid or missing "since" query parameter, make sure you store the timestamp at the initial point you started mirroring, then send that to begin receiving changes, e.g. https://packagist.org/metadata/changes.json?since=16142636710498 for example.',
      timestamp: 16142636710498,
    };
    expect(startingTimestamp(refused)).toBe(16142636710498);
    expect(parseChanges(refused)).toMatch(/actions, timestamp/);
  });

  it('refuses an action Packagist does not write, and reads the package list', () => {
    expect(parseChanges({ actions: [{ type: 'rename', package: 'a/b', time: 1 }], timestamp: 2 })).toMatch(
      /does not write/,
    );
    expect(parsePackageList({ packageNames: ['acme/package', 'foo/bar'] })).toEqual(['acme/package', 'foo/bar']);
  });
});
