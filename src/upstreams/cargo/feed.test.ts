import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { tarFile } from '../../simulator/registries/tar.js';
import { parseDump, parseUpdatesFeed } from './feed.js';

/**
 * An updates feed as rust-lang/crates.io sync_updates_feed.rs@0399c94504c7 writes it (the rss
 * crate's output: title, link, description, guid, pubDate, then the crates: extensions).
 */
const FEED = `<?xml version="1.0" encoding="utf-8"?><rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:crates="https://crates.io/"><channel><title>crates.io: recent updates</title><link>https://crates.io/</link><description>Recent version publishes on the crates.io package registry</description><language>en</language><atom:link href="https://static.crates.io/rss/updates.xml" rel="self" type="application/rss+xml"/><item><title>New crate version published: serde v1.0.219</title><link>https://crates.io/crates/serde/1.0.219</link><description>A generic serialization/deserialization framework</description><guid isPermaLink="true">https://crates.io/crates/serde/1.0.219</guid><pubDate>Sat, 15 Mar 2025 22:54:11 +0000</pubDate><crates:name>serde</crates:name><crates:version>1.0.219</crates:version></item><item><title>New crate version published: tokio v1.44.1</title><link>https://crates.io/crates/tokio/1.44.1</link><guid isPermaLink="true">https://crates.io/crates/tokio/1.44.1</guid><pubDate>Sat, 15 Mar 2025 21:07:02 +0000</pubDate></item></channel></rss>`;

describe('crates.io bulk sources', () => {
  it('reads the updates feed’s publications, from the crates: fields or else the title', () => {
    expect(parseUpdatesFeed(FEED)).toEqual([
      { name: 'serde', version: '1.0.219', at: Date.parse('2025-03-15T22:54:11Z') },
      { name: 'tokio', version: '1.44.1', at: Date.parse('2025-03-15T21:07:02Z') },
    ]);
    expect(parseUpdatesFeed('<html></html>')).toMatch(/not an RSS/);
  });

  it('reads the dump’s timestamp and every crate’s updated_at, quoted fields and all', () => {
    const crates = [
      'created_at,description,documentation,homepage,id,max_upload_size,name,readme,repository,updated_at',
      '2014-11-11 19:26:21.146599,"A generic, ""serialization"" framework\nover lines",,,463,,serde,,https://github.com/serde-rs/serde,2025-03-15 22:54:11.468398',
      '2016-07-26 02:29:43.345102,An event-driven runtime,,,3185,,tokio,,,2025-03-15 21:07:02.012345',
    ].join('\n');
    const tar = Buffer.concat([
      tarFile(
        '2025-03-16-020000/metadata.json',
        '{"timestamp":"2025-03-16T02:00:11.117374Z","crates_io_commit":"abc"}',
        0,
      ),
      tarFile('2025-03-16-020000/data/crates.csv', `${crates}\n`, 0),
      Buffer.alloc(1024),
    ]);
    expect(parseDump(gzipSync(tar))).toEqual({
      timestamp: '2025-03-16T02:00:11.117374Z',
      crates: [
        ['serde', Date.parse('2025-03-15T22:54:11.468Z')],
        ['tokio', Date.parse('2025-03-15T21:07:02.012Z')],
      ],
    });
    expect(parseDump(Buffer.from('not gzip'))).toMatch(/not a gzipped tar/);
  });
});
