import { describe, expect, it } from 'vitest';
import { afterPosition, parseIndexPage } from './feed.js';

/** The index's first two rows (index.golang.org/index, as a third-party fixture quotes them). */
const PAGE = `{"Path":"golang.org/x/text","Version":"v0.3.0","Timestamp":"2019-04-10T19:08:52.997264Z"}
{"Path":"github.com/FiloSottile/mkcert","Version":"v1.3.0","Timestamp":"2019-04-10T20:30:31.325463Z"}
`;

describe('Go module index pages', () => {
  it('reads each line as path, version and timestamp, the path’s case kept', () => {
    expect(parseIndexPage(PAGE)).toEqual([
      { path: 'golang.org/x/text', version: 'v0.3.0', timestamp: '2019-04-10T19:08:52.997264Z' },
      { path: 'github.com/FiloSottile/mkcert', version: 'v1.3.0', timestamp: '2019-04-10T20:30:31.325463Z' },
    ]);
    expect(parseIndexPage('{"Path":"x"}\n')).toMatch(/without Path, Version and Timestamp/);
    expect(parseIndexPage('<html>')).toMatch(/not JSON/);
  });

  it('drops the rows at the position’s instant it has read, and keeps the others at that instant', () => {
    const rows = parseIndexPage(
      `${PAGE}{"Path":"example.com/same","Version":"v1.0.0","Timestamp":"2019-04-10T20:30:31.325463Z"}\n`,
    ) as Exclude<ReturnType<typeof parseIndexPage>, string>;
    const p = { since: '2019-04-10T20:30:31.325463Z', at_since: ['github.com/FiloSottile/mkcert@v1.3.0'] };
    const { fresh, next, behind } = afterPosition(p, rows.slice(1));
    expect(fresh.map((r) => r.path)).toEqual(['example.com/same']);
    expect(behind).toBeNull();
    expect(next).toEqual({
      since: '2019-04-10T20:30:31.325463Z',
      at_since: ['github.com/FiloSottile/mkcert@v1.3.0', 'example.com/same@v1.0.0'],
    });
    // A row before the position: the index went back.
    expect(afterPosition(p, rows).behind?.path).toBe('golang.org/x/text');
  });
});
