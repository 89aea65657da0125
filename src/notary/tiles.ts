/**
 * C2SP tlog-tiles (https://c2sp.org/tlog-tiles): the log's Merkle tree as static 256-hash tiles.
 *
 * The n-th tile at level l holds MTH(D[(n·256 + i)·256^l : (n·256 + i + 1)·256^l]) for i in
 * 0…255: in this tree's own terms, the perfect subtrees at tree level 8·l, indices n·256 + i. A
 * tree of size s has floor(s / 256^l) such hashes at level l, so floor(that / 256) full tiles and
 * one partial tile of the remainder's width (none when it is 0: empty tiles are never served).
 *
 * Arithmetic is by division, never bit operators, as in merkle.ts: sizes pass 2^31.
 */
import { MAX_LEAF_BYTES } from './leaf.js';

export const TILE_WIDTH = 256;
/** tlog-tiles allows levels 0 to 63; past level 6 no JS-safe tree size has a hash. */
export const MAX_TILE_LEVEL = 63;

export interface TileAddress {
  /** 'entries' for an entry bundle, else the tile level. */
  level: number | 'entries';
  index: number;
  /** null for a full tile, 1…255 for a partial one. */
  width: number | null;
}

export class TilePathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TilePathError';
  }
}

const GROUP = /^\d{3}$/;
const DECIMAL = /^(?:0|[1-9]\d*)$/;

/** N as path elements: zero-padded 3-digit groups, all but the last prefixed x (1234067 → x001/x234/067). */
export function tileIndexPath(index: number): string {
  if (!Number.isSafeInteger(index) || index < 0)
    throw new RangeError(`tile index must be a whole number, got ${index}`);
  const groups: string[] = [];
  let n = index;
  do {
    groups.unshift(String(n % 1000).padStart(3, '0'));
    n = Math.floor(n / 1000);
  } while (n > 0);
  return groups.map((g, i) => (i < groups.length - 1 ? `x${g}` : g)).join('/');
}

/** `<L>/<N>[.p/<W>]` or `entries/<N>[.p/<W>]`, the part of a tile URL after `tile/`. */
export function tilePath(address: TileAddress): string {
  const width = address.width === null ? '' : `.p/${address.width}`;
  return `${address.level}/${tileIndexPath(address.index)}${width}`;
}

/** Parses the part of a tile URL after `tile/`, refusing every spelling the spec does not allow. */
export function parseTilePath(path: string): TileAddress {
  const parts = path.split('/');
  const head = parts.shift();
  let level: number | 'entries';
  if (head === 'entries') level = 'entries';
  else if (head !== undefined && DECIMAL.test(head) && Number(head) <= MAX_TILE_LEVEL) level = Number(head);
  else throw new TilePathError('a tile level is a whole number from 0 to 63 without leading zeros, or "entries"');

  let width: number | null = null;
  const last = parts.at(-1);
  const beforeLast = parts.at(-2);
  if (beforeLast !== undefined && beforeLast.endsWith('.p')) {
    if (last === undefined || !DECIMAL.test(last) || Number(last) < 1 || Number(last) >= TILE_WIDTH)
      throw new TilePathError('a partial tile width (after .p/) is a whole number from 1 to 255');
    width = Number(last);
    parts.pop();
    parts[parts.length - 1] = beforeLast.slice(0, -2);
  }
  if (parts.length === 0 || parts.length > 6)
    throw new TilePathError('a tile index is written as 3-digit groups, e.g. x001/x234/067');
  let index = 0;
  parts.forEach((part, i) => {
    const digits = i < parts.length - 1 ? (part.startsWith('x') ? part.slice(1) : '') : part;
    if (!GROUP.test(digits))
      throw new TilePathError(
        'a tile index is written as 3-digit groups, all but the last starting with x (e.g. x001/x234/067)',
      );
    index = index * 1000 + Number(digits);
  });
  // x000/001 would name tile 1 a second way; the spec's encoding has no leading zero groups.
  if (parts.length > 1 && parts[0] === 'x000') throw new TilePathError('a tile index has no leading x000 groups');
  if (!Number.isSafeInteger(index)) throw new TilePathError('the tile index is too large');
  return { level, index, width };
}

/** How many hashes a tree of `size` leaves has at tile level `level` (tree level 8·level). */
export function hashesAtTileLevel(size: number, level: number): number {
  return Math.floor(size / TILE_WIDTH ** level);
}

/**
 * The width a tile of the tree may be served at: 256 when the tile is full, the hashes it holds
 * when it is the partial one, 0 when it lies beyond the tree. A partial tile of width W is served
 * whenever W hashes are held, whatever the current width: its bytes are a prefix of the tile and
 * never change, and a client with an older checkpoint asks for the width that checkpoint implies.
 */
export function heldWidth(size: number, level: number, index: number): number {
  const count = hashesAtTileLevel(size, level);
  return Math.max(0, Math.min(TILE_WIDTH, count - index * TILE_WIDTH));
}

/** The tree level (8·L) and first node index of tile (L, N). */
export function tileNodes(level: number, index: number): { treeLevel: number; first: number } {
  return { treeLevel: 8 * level, first: index * TILE_WIDTH };
}

/** Entries as an entry bundle: each one a big-endian uint16 length, then its bytes. */
export function encodeEntryBundle(entries: Uint8Array[]): Uint8Array {
  let total = 0;
  for (const e of entries) {
    if (e.length > MAX_LEAF_BYTES) throw new RangeError(`an entry of ${e.length} bytes does not fit a uint16 length`);
    total += 2 + e.length;
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const e of entries) {
    out[at] = e.length >> 8;
    out[at + 1] = e.length & 0xff;
    out.set(e, at + 2);
    at += 2 + e.length;
  }
  return out;
}

/** The inverse of encodeEntryBundle; a truncated bundle is an error, not a shorter list. */
export function decodeEntryBundle(bundle: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let at = 0;
  while (at < bundle.length) {
    if (at + 2 > bundle.length) throw new RangeError('entry bundle ends inside a length prefix');
    const length = (bundle[at]! << 8) | bundle[at + 1]!;
    if (at + 2 + length > bundle.length) throw new RangeError('entry bundle ends inside an entry');
    out.push(bundle.subarray(at + 2, at + 2 + length));
    at += 2 + length;
  }
  return out;
}
