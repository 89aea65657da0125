import { describe, expect, it } from 'vitest';
import {
  decodeEntryBundle,
  encodeEntryBundle,
  heldWidth,
  parseTilePath,
  tileIndexPath,
  tilePath,
  TilePathError,
} from './tiles.js';

describe('tlog-tiles paths', () => {
  it('writes N in 3-digit groups, all but the last prefixed x (the spec’s example)', () => {
    expect(tileIndexPath(1234067)).toBe('x001/x234/067');
    expect(tileIndexPath(0)).toBe('000');
    expect(tileIndexPath(999)).toBe('999');
    expect(tileIndexPath(1000)).toBe('x001/000');
    expect(tilePath({ level: 'entries', index: 5, width: 12 })).toBe('entries/005.p/12');
  });

  it('parses what it writes, for full and partial tiles and bundles', () => {
    for (const address of [
      { level: 0, index: 0, width: null },
      { level: 3, index: 1234067, width: 255 },
      { level: 'entries' as const, index: 1000, width: 1 },
      { level: 63, index: 999_999_999, width: null },
    ])
      expect(parseTilePath(tilePath(address))).toEqual(address);
  });

  it.each([
    ['00/000', 'level'],
    ['64/000', 'level'],
    ['-1/000', 'level'],
    ['tiles/000', 'level'],
    ['0/000.p/0', 'width'],
    ['0/000.p/256', 'width'],
    ['0/000.p/012', 'width'],
    ['0/000.p/', 'width'],
    ['0/1', '3-digit'],
    ['0/001/067', '3-digit'],
    ['0/x1/067', '3-digit'],
    ['0/x001/x067', '3-digit'],
    ['0/x000/001', 'leading'],
    ['0/', '3-digit'],
    ['0', '3-digit'],
  ])('refuses %s with a sentence naming the %s', (path, word) => {
    expect(() => parseTilePath(path)).toThrow(TilePathError);
    expect(() => parseTilePath(path)).toThrow(new RegExp(word));
  });
});

describe('tile widths', () => {
  it('a tree of 70,000: 273 full level-0 tiles and one of 112, one full level-1 tile and one of 17, one level-2 of 1', () => {
    expect(heldWidth(70_000, 0, 272)).toBe(256);
    expect(heldWidth(70_000, 0, 273)).toBe(112);
    expect(heldWidth(70_000, 0, 274)).toBe(0);
    expect(heldWidth(70_000, 1, 0)).toBe(256);
    expect(heldWidth(70_000, 1, 1)).toBe(17);
    expect(heldWidth(70_000, 2, 0)).toBe(1);
    expect(heldWidth(70_000, 3, 0)).toBe(0);
  });

  it('a tree of 256: a full level-0 tile and a level-1 tile of width 1', () => {
    expect(heldWidth(256, 0, 0)).toBe(256);
    expect(heldWidth(256, 0, 1)).toBe(0);
    expect(heldWidth(256, 1, 0)).toBe(1);
  });

  it('stays exact past 2^32 leaves and at the deepest levels', () => {
    expect(heldWidth(2 ** 40 + 5, 0, 2 ** 32)).toBe(5);
    expect(heldWidth(Number.MAX_SAFE_INTEGER, 6, 0)).toBe(31);
    expect(heldWidth(Number.MAX_SAFE_INTEGER, 7, 0)).toBe(0);
  });
});

describe('entry bundles', () => {
  it('length-prefixes each entry with a big-endian uint16 and reads back the same bytes', () => {
    const entries = [new Uint8Array([]), new TextEncoder().encode('{"a":1}'), new Uint8Array(0xffff).fill(7)];
    const bundle = encodeEntryBundle(entries);
    expect([...bundle.subarray(0, 2)]).toEqual([0, 0]);
    expect([...bundle.subarray(2, 4)]).toEqual([0, 7]);
    expect(decodeEntryBundle(bundle).map((e) => e.length)).toEqual([0, 7, 0xffff]);
    expect(() => decodeEntryBundle(bundle.subarray(0, bundle.length - 1))).toThrow(/ends inside an entry/);
    expect(() => encodeEntryBundle([new Uint8Array(0x10000)])).toThrow(/uint16/);
  });
});
