// A thread that hashes pages of leaves for an audit (leaf-hasher.ts): each message is one page, its
// leaves packed into one buffer with their end offsets; the answer is their RFC 6962 leaf hashes,
// 32 bytes each, in order.
import { parentPort } from 'node:worker_threads';
import { HASH_SIZE, leafHashBuffer } from './hash.js';

interface Page {
  id: number;
  bytes: ArrayBuffer;
  ends: Uint32Array;
}

parentPort!.on('message', ({ id, bytes, ends }: Page) => {
  const all = new Uint8Array(bytes);
  const hashes = new Uint8Array(ends.length * HASH_SIZE);
  let start = 0;
  for (let i = 0; i < ends.length; i++) {
    hashes.set(leafHashBuffer(all.subarray(start, ends[i])), i * HASH_SIZE);
    start = ends[i]!;
  }
  parentPort!.postMessage({ id, hashes: hashes.buffer }, [hashes.buffer]);
});
