import { describe, expect, it } from 'vitest';
import { parseVersionsFile, positionAfter, TAIL_BYTES } from './feed.js';

/** rubygems/compact_index conformance/08_yank_gem/%2Fversions@3e889b282c45, whole. */
const FILE = `created_at: 1990-01-01T01:08:00Z
---
a 0.1.0,0.0.1,0.2.0,0.2.0-x86-mingw32,0.2.0-java 734e7e961e968314d1b7c43d1bb332ea
b 1.0.0.pre 86c02d3a3f4c31e6f47cec95dbb2109f
a 0.3.0 46bd01981acbebafc2fda6a1fc141d9e
a -0.0.1 9a0c38a06b4b7fe552df0bbaad86777f
`;

describe('RubyGems /versions', () => {
  it('reads each line’s versions, yanks and checksum, and where the file ends', () => {
    const file = parseVersionsFile(FILE);
    if (typeof file === 'string') throw new Error(file);
    expect(file.lines).toEqual([
      {
        name: 'a',
        versions: ['0.1.0', '0.0.1', '0.2.0', '0.2.0-x86-mingw32', '0.2.0-java'],
        yanked: [],
        md5: '734e7e961e968314d1b7c43d1bb332ea',
      },
      { name: 'b', versions: ['1.0.0.pre'], yanked: [], md5: '86c02d3a3f4c31e6f47cec95dbb2109f' },
      { name: 'a', versions: ['0.3.0'], yanked: [], md5: '46bd01981acbebafc2fda6a1fc141d9e' },
      { name: 'a', versions: [], yanked: ['0.0.1'], md5: '9a0c38a06b4b7fe552df0bbaad86777f' },
    ]);
    expect(file.end.created_at).toBe('1990-01-01T01:08:00Z');
    expect(file.end.offset).toBe(Buffer.byteLength(FILE));
    expect(Buffer.from(file.end.tail, 'base64').toString()).toBe(FILE.slice(-TAIL_BYTES));
  });

  it('positions a range read by its start in the file', () => {
    const tail = Buffer.from(FILE).subarray(100);
    const p = positionAfter('1990-01-01T01:08:00Z', tail, 100);
    expect(p.offset).toBe(Buffer.byteLength(FILE));
    expect(Buffer.from(p.tail, 'base64').toString()).toBe(FILE.slice(-TAIL_BYTES));
  });

  it('refuses a file without its header, or a line it cannot read', () => {
    expect(parseVersionsFile('a 1.0 abc\n')).toMatch(/created_at/);
    expect(parseVersionsFile('created_at: 1990-01-01T01:08:00Z\n---\na b c d\n')).toMatch(/not "name versions md5"/);
  });
});
