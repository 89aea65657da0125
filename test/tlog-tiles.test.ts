/**
 * The log as C2SP tlog-tiles, read by a tile client written here from the spec alone (node:crypto
 * and fetch; nothing from src/notary): verify the checkpoint's signature with the pinned vkey,
 * fetch the tiles that size implies, fold the tree's perfect subtrees up to a root, and compare
 * it with /api/chain/head. The entry bundles must hash to the level-0 tiles, byte for byte the
 * leaves /api/chain/entries serves. Over real HTTP on loopback, on both store backends.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { githubObservation, postgresTestStore, recordDeps, sqliteTestStore, type TestStore } from './support/record.js';
import { serveLog } from './support/test-witness.js';

const sha = (...parts: Uint8Array[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const nodeHash = (l: Uint8Array, r: Uint8Array) => sha(Buffer.from([1]), l, r);

/** Tile index N as the spec writes it: 3-digit groups, all but the last prefixed x. */
function indexPath(n: number): string {
  const groups = [];
  do {
    groups.unshift(String(n % 1000).padStart(3, '0'));
    n = Math.floor(n / 1000);
  } while (n > 0);
  return groups.map((g, i) => (i < groups.length - 1 ? `x${g}` : g)).join('/');
}

class TileClient {
  fetched: string[] = [];
  private tiles = new Map<string, Buffer>();
  constructor(private readonly prefix: string) {}

  async get(path: string): Promise<Response> {
    this.fetched.push(path);
    return fetch(`${this.prefix}/${path}`);
  }

  /** The checkpoint, its signature checked against vkey; size and root from the signed text only. */
  async checkpoint(vkey: string): Promise<{ size: number; root: Buffer; note: string }> {
    const note = await (await this.get('checkpoint')).text();
    const text = note.slice(0, note.lastIndexOf('\n\n') + 1);
    const [name, id] = vkey.split('+') as [string, string];
    const key = Buffer.from(vkey.slice(name.length + id.length + 2), 'base64');
    const pub = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: key.subarray(1).toString('base64url') },
      format: 'jwk',
    });
    const signed = note
      .slice(note.lastIndexOf('\n\n') + 2)
      .split('\n')
      .filter((l) => l.startsWith(`\u2014 ${name} `))
      .map((l) => Buffer.from(l.split(' ')[2]!, 'base64'))
      .some(
        (blob) => blob.subarray(0, 4).toString('hex') === id && verify(null, Buffer.from(text), pub, blob.subarray(4)),
      );
    if (!signed) throw new Error('the checkpoint is not signed by the pinned key');
    const [, size, root] = text.split('\n');
    return { size: Number(size), root: Buffer.from(root!, 'base64'), note };
  }

  /** Hash i of tile level `level` in a tree of `size`, from the tile (full or the partial one the size implies). */
  private async tileHash(level: number, i: number, size: number): Promise<Buffer> {
    const n = Math.floor(i / 256);
    const count = Math.floor(size / 256 ** level);
    const width = n < Math.floor(count / 256) ? 256 : count % 256;
    const path = `tile/${level}/${indexPath(n)}${width === 256 ? '' : `.p/${width}`}`;
    let tile = this.tiles.get(path);
    if (!tile) {
      const res = await this.get(path);
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      tile = Buffer.from(await res.arrayBuffer());
      expect(tile.length).toBe(32 * width);
      this.tiles.set(path, tile);
    }
    return tile.subarray(32 * (i % 256), 32 * (i % 256) + 32);
  }

  /** MTH of the perfect subtree of height h at index i: from the tile level holding its height. */
  private async subtree(h: number, i: number, size: number): Promise<Buffer> {
    const level = Math.floor(h / 8);
    const below = h - 8 * level;
    let hashes: Buffer[] = [];
    for (let k = 0; k < 2 ** below; k++) hashes.push(await this.tileHash(level, i * 2 ** below + k, size));
    while (hashes.length > 1) {
      const up: Buffer[] = [];
      for (let k = 0; k < hashes.length; k += 2) up.push(nodeHash(hashes[k]!, hashes[k + 1]!));
      hashes = up;
    }
    return hashes[0]!;
  }

  /** RFC 6962 root of the tree of `size`: its perfect subtrees, largest first, folded from the right. */
  async root(size: number): Promise<Buffer> {
    if (size === 0) return sha();
    const subtrees: Buffer[] = [];
    let start = 0;
    for (let h = 52; h >= 0; h--) {
      if (start + 2 ** h <= size) {
        subtrees.push(await this.subtree(h, start / 2 ** h, size));
        start += 2 ** h;
      }
    }
    let acc = subtrees.pop()!;
    while (subtrees.length > 0) acc = nodeHash(subtrees.pop()!, acc);
    return acc;
  }
}

describe.each([
  ['sqlite', sqliteTestStore],
  ['postgres', postgresTestStore],
] as const)('tlog-tiles on %s', (_backend, open) => {
  let t: TestStore;
  let close = async () => {};
  afterEach(async () => {
    await close();
    await t.dispose();
  });

  async function logOf(batches: number[]) {
    t = await open();
    const deps = recordDeps(t.store);
    await t.store.initialiseLog(deps.notary.seal);
    let n = 0;
    for (const size of batches) {
      const batch = Array.from({ length: size }, () => githubObservation(`acme/r${n++}`, '2025-03-01', 'alive'));
      await t.store.appendObservations(batch, deps.notary.seal);
    }
    const served = await serveLog(deps);
    close = () => served.close();
    return { deps, url: served.url };
  }

  it('a tile client recomputes the head’s root from the checkpoint and tiles; bundles hash to the level-0 tiles', async () => {
    const { deps, url } = await logOf([300, 1, 299]);
    const client = new TileClient(`${url}/tlog`);
    const { size, root } = await client.checkpoint(deps.notary.vkey);
    const head = (await (await fetch(`${url}/api/chain/head`)).json()) as { tree_size: number; root_hash: string };
    expect(size).toBe(600);
    expect(head.tree_size).toBe(600);
    expect((await client.root(size)).toString('base64')).toBe(head.root_hash);
    expect(root.toString('base64')).toBe(head.root_hash);
    // 600 = 512 + 88: the two complete 256-leaf subtrees come from the level-1 tile (width 2), the
    // rest from the partial level-0 tile of 88; no full level-0 tile is needed for the root.
    expect(client.fetched).toEqual(['checkpoint', 'tile/1/000.p/2', 'tile/0/002.p/88']);

    const leaves = Buffer.from(await (await fetch(`${url}/api/chain/entries?start=0&end=600`)).arrayBuffer())
      .toString('utf8')
      .trimEnd()
      .split('\n');
    for (const [n, width] of [
      [0, 256],
      [1, 256],
      [2, 88],
    ] as const) {
      const suffix = width === 256 ? '' : `.p/${width}`;
      const bundle = Buffer.from(
        await (await fetch(`${url}/tlog/tile/entries/${indexPath(n)}${suffix}`)).arrayBuffer(),
      );
      const tile = Buffer.from(await (await fetch(`${url}/tlog/tile/0/${indexPath(n)}${suffix}`)).arrayBuffer());
      const entries: Buffer[] = [];
      for (let at = 0; at < bundle.length;) {
        const length = bundle.readUInt16BE(at);
        entries.push(bundle.subarray(at + 2, at + 2 + length));
        at += 2 + length;
      }
      expect(entries.length).toBe(width);
      entries.forEach((entry, i) => {
        expect(entry.toString('utf8')).toBe(leaves[n * 256 + i]);
        expect(sha(Buffer.from([0]), entry).equals(tile.subarray(32 * i, 32 * i + 32))).toBe(true);
      });
    }
  });

  it('serves full tiles as immutable, partial ones briefly; 404 past the tree; 400 with a sentence for a malformed path', async () => {
    const { url } = await logOf([300]);
    const full = await fetch(`${url}/tlog/tile/0/000`);
    expect(full.status).toBe(200);
    expect(full.headers.get('content-type')).toBe('application/octet-stream');
    expect(full.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await full.arrayBuffer()).byteLength).toBe(8192);
    const partial = await fetch(`${url}/tlog/tile/0/001.p/44`);
    expect(partial.headers.get('cache-control')).toBe('public, max-age=60');
    // A narrower partial (an older checkpoint's) is the same hashes' prefix.
    const older = Buffer.from(await (await fetch(`${url}/tlog/tile/0/001.p/10`)).arrayBuffer());
    expect(older.equals(Buffer.from(await partial.arrayBuffer()).subarray(0, 320))).toBe(true);
    const checkpoint = await fetch(`${url}/tlog/checkpoint`);
    expect(checkpoint.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
    expect(checkpoint.headers.get('cache-control')).toBe('public, max-age=5');

    for (const path of ['0/001', '0/001.p/45', '0/002.p/1', '1/000', 'entries/001', '2/000.p/1']) {
      const res = await fetch(`${url}/tlog/tile/${path}`);
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/log of 300 leaves/);
    }
    for (const path of ['00/000', '0/1', '0/000.p/256', '0/000.p/0', '64/000', 'x/000', '0/x000/001', '0/000/']) {
      const res = await fetch(`${url}/tlog/tile/${path}`);
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/tlog-tiles/);
    }
  });
});

describe('tlog-tiles at the spec’s example size (SQLite: 70,000 leaves take seconds to append)', () => {
  it('a tree of 70,000: the root from tiles of levels 0, 1 and 2; a full level-1 tile holds each level-0 tile’s root', async () => {
    const t = await sqliteTestStore();
    const deps = recordDeps(t.store);
    await t.store.initialiseLog(deps.notary.seal);
    let n = 0;
    for (let b = 0; b < 14; b++) {
      const batch = Array.from({ length: 5000 }, () => githubObservation(`acme/r${n++}`, '2025-03-01', 'alive'));
      await t.store.appendObservations(batch, deps.notary.seal);
    }
    const served = await serveLog(deps);
    try {
      const client = new TileClient(`${served.url}/tlog`);
      const { size } = await client.checkpoint(deps.notary.vkey);
      const head = (await (await fetch(`${served.url}/api/chain/head`)).json()) as { root_hash: string };
      expect(size).toBe(70_000);
      expect((await client.root(size)).toString('base64')).toBe(head.root_hash);
      // 70,000 = 65,536 + 4,096 + 256 + 112: level 2 (width 1), level 1 (the partial of 17), level 0 (273, of 112).
      expect(client.fetched).toEqual(['checkpoint', 'tile/2/000.p/1', 'tile/1/001.p/17', 'tile/0/273.p/112']);

      const level1 = Buffer.from(await (await fetch(`${served.url}/tlog/tile/1/000`)).arrayBuffer());
      expect(level1.length).toBe(8192);
      for (const k of [0, 100, 255]) {
        let hashes: Buffer[] = [];
        const tile = Buffer.from(await (await fetch(`${served.url}/tlog/tile/0/${indexPath(k)}`)).arrayBuffer());
        for (let i = 0; i < 256; i++) hashes.push(tile.subarray(32 * i, 32 * i + 32));
        while (hashes.length > 1) {
          const up: Buffer[] = [];
          for (let i = 0; i < hashes.length; i += 2) up.push(nodeHash(hashes[i]!, hashes[i + 1]!));
          hashes = up;
        }
        expect(hashes[0]!.equals(level1.subarray(32 * k, 32 * k + 32))).toBe(true);
      }
      expect((await fetch(`${served.url}/tlog/tile/0/273.p/113`)).status).toBe(404);
      expect((await fetch(`${served.url}/tlog/tile/1/002`)).status).toBe(404);
    } finally {
      await served.close();
      await t.dispose();
    }
  });
});
