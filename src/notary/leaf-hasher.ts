import { Worker } from 'node:worker_threads';

// Under vitest or tsx the sources are TypeScript: the thread registers tsx, then loads its .ts entry.
const fromSource = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(fromSource ? '../thread-from-source.mjs' : './leaf-hash-worker.js', import.meta.url);
const WORKER_DATA = fromSource ? { entry: new URL('./leaf-hash-worker.ts', import.meta.url).href } : undefined;

/**
 * Leaf hashes computed on a second thread, a page at a time. Hashing the leaves is most of an
 * audit's work (a leaf is hundreds of bytes, a node 65), and each leaf's hash depends on its bytes
 * alone, so while this thread hashes one page the caller folds the previous page's hashes into the
 * tree. The bytes hashed are exactly the leaf bytes given: each page is copied into one buffer
 * for the thread, and the thread hashes 0x00‖bytes as hash.ts does.
 */
export class LeafHasher {
  private readonly worker = new Worker(WORKER_URL, { workerData: WORKER_DATA, execArgv: [] });
  private readonly waiting = new Map<number, { resolve: (hashes: Uint8Array) => void; reject: (e: Error) => void }>();
  private next = 0;
  private failed: Error | null = null;

  constructor() {
    this.worker.on('message', ({ id, hashes }: { id: number; hashes: ArrayBuffer }) => {
      const waiter = this.waiting.get(id);
      this.waiting.delete(id);
      waiter?.resolve(new Uint8Array(hashes));
    });
    const fail = (error: Error) => {
      this.failed = error;
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the leaf-hash thread stopped (exit code ${code})`)));
  }

  /** The leaf hashes of `leaves`, 32 bytes each, in order. */
  hashPage(leaves: readonly Uint8Array[]): Promise<Uint8Array> {
    if (this.failed) return Promise.reject(this.failed);
    let total = 0;
    for (const leaf of leaves) total += leaf.length;
    const bytes = new Uint8Array(new ArrayBuffer(total));
    const ends = new Uint32Array(leaves.length);
    let at = 0;
    leaves.forEach((leaf, i) => {
      bytes.set(leaf, at);
      at += leaf.length;
      ends[i] = at;
    });
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, bytes: bytes.buffer, ends }, [bytes.buffer, ends.buffer]);
    });
  }

  async close(): Promise<void> {
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
  }
}
