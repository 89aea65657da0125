import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { LogInvariantError } from './store-errors.js';

/**
 * Leaves are kept sixteen to a row, compressed together (DESIGN §8b). Leaves appended together
 * repeat each other (the same keys, methods, URLs and dates), so a block costs a fraction of its
 * leaves: about 25 bytes a leaf where one leaf alone is 450. A row per leaf would cost more in
 * row headers and index entries than the compressed leaf itself.
 *
 * A block holds leaves [block × LEAVES_PER_BLOCK, … + size). Its bytes are one format byte, then
 * the raw DEFLATE (with the dictionary that byte names) of:
 *   u16 size · size × u16 leaf length · size × (u8 length, ASCII logged_at) · the leaves' bytes
 * Leaf bytes are stored exactly: decoding gives back what was hashed, byte for byte.
 */
export const BLOCK_LEVEL = 4;
export const LEAVES_PER_BLOCK = 1 << BLOCK_LEVEL;

/**
 * The dictionary of format 1: text every kind of leaf repeats. The first leaf of a block finds its
 * keys and usual values here rather than spelling them out. Never change it: blocks written with
 * it are read with it. A better one is a new format byte with its own dictionary.
 */
const DICTIONARY_1 = Buffer.from(
  [
    '{"_type":"tended/census/v1","component":"pkg:',
    '{"_type":"tended/keyset/v1",',
    '"dependents":',
    '"read_at":"',
    '"read_date":"',
    '"digest":"',
    '"issued_at":"',
    '"version":',
    '"http_status":404',
    '"unreachable":"',
    '"error":"',
    '"deprecated":',
    '"latest_version":"',
    '"yanked":',
    '"default_branch":"main","disabled":false,"fork":false,"full_name":"',
    '"pushed_at":"',
    '"created_at":"',
    '"committer_date":"',
    '"author_date":"',
    '"present":true,"sha":"',
    '"last_published":"',
    '"versions":',
    'https://registry.npmjs.org/',
    'https://pypi.org/pypi/',
    'https://crates.io/api/v1/crates/',
    'https://proxy.golang.org/',
    'https://api.nuget.org/v3/',
    'https://rubygems.org/api/v1/gems/',
    'https://repo.packagist.org/p2/',
    'https://repo1.maven.org/maven2/',
    'https://endoflife.date/api/',
    'pkg:npm/',
    'pkg:pypi/',
    'pkg:cargo/',
    'pkg:golang/',
    'pkg:nuget/',
    'pkg:gem/',
    'pkg:composer/',
    'pkg:maven/',
    '"state":"dormant"}',
    '"state":"abandoned"}',
    '"state":"archived"}',
    '"state":"deleted"}',
    '"state":"eol"}',
    '"state":"not_observed"}',
    '{"_type":"tended/observation/v1","component":"pkg:github/',
    '","evidence":{"archived":false,"http_status":200,"last_commit":"',
    '"id":"',
    '"kind":"github","logged_at":"20',
    '"method":"github: default-branch head commit date and archived flag","observation_date":"20',
    '"observed_at":"20',
    'T00:00:00Z"',
    '"source":"https://api.github.com/repos/',
    '"state":"alive"}',
  ].join(''),
);
const FORMAT_1 = 1;

export interface BlockLeaf {
  bytes: Uint8Array;
  logged_at: string;
}

/** The block a leaf lies in, and its place there. */
export function blockOf(leafIndex: number): { block: number; slot: number } {
  return { block: Math.floor(leafIndex / LEAVES_PER_BLOCK), slot: leafIndex % LEAVES_PER_BLOCK };
}

export function encodeBlock(leaves: BlockLeaf[]): Uint8Array {
  if (leaves.length === 0 || leaves.length > LEAVES_PER_BLOCK)
    throw new LogInvariantError(`a block holds 1 to ${LEAVES_PER_BLOCK} leaves, not ${leaves.length}`);
  const stamps = leaves.map((leaf) => Buffer.from(leaf.logged_at, 'latin1'));
  let length = 2 + 2 * leaves.length;
  for (let i = 0; i < leaves.length; i++) length += 1 + stamps[i]!.length + leaves[i]!.bytes.length;
  const raw = Buffer.allocUnsafe(length);
  let at = raw.writeUInt16BE(leaves.length, 0);
  for (const leaf of leaves) at = raw.writeUInt16BE(leaf.bytes.length, at);
  for (const stamp of stamps) {
    raw[at++] = stamp.length;
    at += stamp.copy(raw, at);
  }
  for (const leaf of leaves) {
    raw.set(leaf.bytes, at);
    at += leaf.bytes.length;
  }
  const packed = deflateRawSync(raw, { dictionary: DICTIONARY_1 });
  const out = new Uint8Array(1 + packed.length);
  out[0] = FORMAT_1;
  out.set(packed, 1);
  return out;
}

export function decodeBlock(stored: Uint8Array): BlockLeaf[] {
  const { raw, leaves } = openBlock(stored);
  let at = 2 + 2 * leaves.length;
  return leaves.map((bytes) => {
    const length = raw[at]!;
    const logged_at = raw.toString('latin1', at + 1, at + 1 + length);
    at += 1 + length;
    // A copy, not a view: a caller may keep one leaf, and a view would keep the whole block alive.
    return { bytes: new Uint8Array(bytes), logged_at };
  });
}

/**
 * The leaves' bytes alone, as views into the block's one decompressed buffer: what reading the
 * whole log (verify, export) needs, without a copy and an object per leaf. A view keeps its
 * whole block alive, so this is for leaves used and let go, not kept.
 */
export function decodeBlockBytes(stored: Uint8Array): Uint8Array[] {
  return openBlock(stored).leaves;
}

/** A block decompressed, and its leaves as views into it. */
function openBlock(stored: Uint8Array): { raw: Buffer; leaves: Buffer[] } {
  if (stored[0] !== FORMAT_1) throw new LogInvariantError(`a leaf block has unknown format ${stored[0]}`);
  const raw = inflateRawSync(stored.subarray(1), { dictionary: DICTIONARY_1 });
  const size = raw.readUInt16BE(0);
  let at = 2 + 2 * size;
  for (let i = 0; i < size; i++) at += 1 + raw[at]!;
  const leaves: Buffer[] = [];
  for (let i = 0; i < size; i++) {
    const length = raw.readUInt16BE(2 + 2 * i);
    leaves.push(raw.subarray(at, at + length));
    at += length;
  }
  if (at !== raw.length) throw new LogInvariantError('a leaf block is longer than the leaves it lists');
  return { raw, leaves };
}
