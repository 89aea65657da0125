import { TendedError } from '../domain/errors.js';
import { leafHash } from '../notary/hash.js';
import { splitNote } from '../notary/note.js';
import {
  encodeEntryBundle,
  heldWidth,
  parseTilePath,
  TILE_WIDTH,
  TilePathError,
  tileNodes,
  type TileAddress,
} from '../notary/tiles.js';
import type { RecordDeps } from './deps.js';
import { NotFoundError, readHead } from './read-chain.js';

/**
 * The log as C2SP tlog-tiles. Every tile is computed from what the store holds, and no request
 * reads more than one tile's worth: a level-0 tile or entry bundle is 256 leaves (16 blocks,
 * hashed again: 256 SHA-256); a tile at level L ≥ 1 is 256 perfect-subtree hashes at tree level
 * 8·L, which the store keeps from level 6 up as each subtree completes (tree_nodes), read as one
 * index range. Nothing is ever rebuilt from the leaves below it.
 */

export class TileRequestError extends TendedError {
  constructor(message: string) {
    super('tile_request', message);
    this.name = 'TileRequestError';
  }
}

export interface Tile {
  bytes: Uint8Array;
  /** A full tile (or bundle) never changes; a partial one is replaced by the full one in time. */
  full: boolean;
}

export function readTileAddress(path: string): TileAddress {
  try {
    return parseTilePath(path);
  } catch (error) {
    if (error instanceof TilePathError) throw new TileRequestError(`${error.message}; see https://c2sp.org/tlog-tiles`);
    throw error;
  }
}

/** A hash tile or an entry bundle, or NotFoundError when the tree does not hold it (yet). */
export async function readTile(deps: RecordDeps, address: TileAddress): Promise<Tile> {
  const size = (await readHead(deps)).tree_size;
  const level = address.level === 'entries' ? 0 : address.level;
  const held = heldWidth(size, level, address.index);
  const wanted = address.width ?? TILE_WIDTH;
  if (held < wanted) {
    const what = address.level === 'entries' ? 'entry bundle' : `level-${level} tile`;
    throw new NotFoundError(
      held === 0
        ? `the log of ${size} leaves has no ${what} ${address.index}`
        : `the log of ${size} leaves holds ${held} of ${what} ${address.index}'s ${TILE_WIDTH}: ask for .p/${held} or less`,
    );
  }
  if (address.level === 'entries') {
    const entries = await deps.store.leafBytes(address.index * TILE_WIDTH, wanted);
    return { bytes: encodeEntryBundle(entries), full: wanted === TILE_WIDTH };
  }
  const { treeLevel, first } = tileNodes(level, address.index);
  const hashes =
    treeLevel === 0
      ? (await deps.store.leafBytes(first, wanted)).map(leafHash)
      : await deps.store.nodeHashRange(treeLevel, first, wanted);
  if (hashes.length !== wanted) throw new NotFoundError(`the store holds only ${hashes.length} of the tile's hashes`);
  const bytes = new Uint8Array(32 * wanted);
  hashes.forEach((h, i) => bytes.set(h, 32 * i));
  return { bytes, full: wanted === TILE_WIDTH };
}

/**
 * The current checkpoint as tlog-tiles serves it: the log's note with the cosignature lines of
 * every witness whose latest cosigned checkpoint is this one (same text), so tile clients and
 * witness-policy verifiers read one note. Witnesses still behind add nothing until they catch up.
 */
export async function readCosignedCheckpoint(deps: RecordDeps): Promise<string> {
  const note = (await readHead(deps)).checkpoint;
  const { text } = splitNote(note);
  let lines = '';
  for (const record of await deps.store.witnessRecords()) {
    if (!record.cosigned) continue;
    const cosigned = splitNote(record.cosigned.note);
    if (cosigned.text !== text) continue;
    const own = record.cosigned.note.split('\n').filter((l) => l.startsWith(`\u2014 ${record.witness} `));
    for (const l of own) lines += `${l}\n`;
  }
  return note + lines;
}
