import { describe, expect, it } from 'vitest';
import { commitKey, parseCatalogIndex, parseCatalogPage } from './feed.js';
import { itemHint } from './list.js';

/** NuGet/docs.microsoft.com-nuget docs/api/_data/catalog-page.json@c15a987ef0ea (two of its five items). */
const PAGE = {
  commitId: '616117f5-d9dd-4664-82b9-74d87169bbe9',
  commitTimeStamp: '2017-10-31T23:30:32.4197849Z',
  count: 5,
  parent: 'https://api.nuget.org/v3/catalog0/index.json',
  items: [
    {
      '@id': 'https://api.nuget.org/v3/catalog0/data/2017.10.31.23.30.32/util.biz.payments.0.0.4-preview.json',
      '@type': 'nuget:PackageDetails',
      commitId: '616117f5-d9dd-4664-82b9-74d87169bbe9',
      commitTimeStamp: '2017-10-31T23:30:32.4197849Z',
      'nuget:id': 'Util.Biz.Payments',
      'nuget:version': '0.0.4-preview',
    },
    {
      '@id': 'https://api.nuget.org/v3/catalog0/data/2017.10.31.23.28.02/util.biz.0.0.4-preview.json',
      '@type': 'nuget:PackageDetails',
      commitId: '820340b2-97e3-4f93-b82e-bc85550a6560',
      commitTimeStamp: '2017-10-31T23:28:02.788239Z',
      'nuget:id': 'Util.Biz',
      'nuget:version': '0.0.4-preview',
    },
  ],
};

describe('NuGet catalog documents', () => {
  it('reads a page’s items with their commit instants written to seven digits', () => {
    expect(parseCatalogPage(PAGE)).toEqual([
      { id: 'Util.Biz.Payments', version: '0.0.4-preview', commit: '2017-10-31T23:30:32.4197849Z', deleted: false },
      // Six digits on the wire: compared as seven, so it sorts before the item 2.5 minutes later.
      { id: 'Util.Biz', version: '0.0.4-preview', commit: '2017-10-31T23:28:02.7882390Z', deleted: false },
    ]);
    expect(parseCatalogPage({ items: [{ ...PAGE.items[0], '@type': 'nuget:PackageDelete' }] })).toMatchObject([
      { deleted: true },
    ]);
  });

  it('takes the index’s pages in commit order, whatever order it lists them in', () => {
    const index = parseCatalogIndex({
      commitTimeStamp: '2017-10-31T23:30:32.4197849Z',
      items: [
        {
          '@id': 'https://api.nuget.org/v3/catalog0/page2926.json',
          commitTimeStamp: '2017-10-31T23:30:32.4197849Z',
          count: 5,
        },
        {
          '@id': 'https://api.nuget.org/v3/catalog0/page0.json',
          commitTimeStamp: '2015-02-01T06:30:11.7477681Z',
          count: 540,
        },
      ],
    });
    expect(index).toEqual({
      commit: '2017-10-31T23:30:32.4197849Z',
      pages: [
        { url: 'https://api.nuget.org/v3/catalog0/page0.json', commit: '2015-02-01T06:30:11.7477681Z' },
        { url: 'https://api.nuget.org/v3/catalog0/page2926.json', commit: '2017-10-31T23:30:32.4197849Z' },
      ],
    });
  });

  it('refuses an instant it cannot order', () => {
    expect(commitKey('2017-10-31T23:30:32+02:00')).toBeNull();
    expect(commitKey('2017-10-31T23:30:32Z')).toBe('2017-10-31T23:30:32.0000000Z');
    expect(
      parseCatalogPage({ items: [{ 'nuget:id': 'x', 'nuget:version': '1', commitTimeStamp: 'yesterday' }] }),
    ).toMatch(/commitTimeStamp/);
  });

  it('gives a version listed again (deprecated, unlisted) a marker of its own, so its hint is not taken as already read', () => {
    const first = itemHint({
      id: 'Util.Biz',
      version: '1.2.0',
      commit: '2026-03-01T10:00:00.0000000Z',
      deleted: false,
    });
    const again = itemHint({
      id: 'Util.Biz',
      version: '1.2.0',
      commit: '2026-04-02T08:15:00.0000000Z',
      deleted: false,
    });
    expect(first!.marker).not.toBe(again!.marker);
    expect(again!.changed_on).toBe('2026-04-02');
  });
});
