/**
 * Big upstream and feed bodies read off the main thread. A 78 MB packument of a million versions
 * parsed with JSON.parse on the main thread holds the event loop for seconds (/healthz unanswered)
 * and adds half a gigabyte; here such a body's bytes are moved (not copied) to a worker thread,
 * which decodes, parses and extracts them, and only the facts come back.
 *
 * Memory is bounded whatever the body's size within its cap: a fixed number of threads (one by
 * default) each read one body at a time, the others wait in a queue holding only their bytes,
 * and a thread's heap has a ceiling; a body that needs more is answered unreadable, as is one
 * whose thread fails, never a crash of the pass or the process. A thread idle for a while is
 * ended, so the memory of the last big body goes back to the system.
 */
import { Worker } from 'node:worker_threads';
import type { EvidenceValue } from '../../domain/observation.js';
import type { BigBodyAnswer, BigBodyJob, PieceTaken } from './big-body-worker.js';
import type { BodyKind, BodyReading } from './facts-of-body.js';
import type { FactsSpec } from './facts-spec.js';

export interface BigBodyOptions {
  /** Bodies read at once, each on its own thread. */
  threads: number;
  /** The heap (old generation) one thread may use while reading a body. */
  memoryMb: number;
  /** A thread with nothing to read for this long is ended. */
  idleMs: number;
}

/** Bodies above this many bytes are read off the main thread; below it the round trip costs more than it saves. */
export const OFF_THREAD_ABOVE_BYTES = 1024 * 1024;

export const DEFAULT_BIG_BODY_OPTIONS: BigBodyOptions = { threads: 1, memoryMb: 2048, idleMs: 10_000 };

/** What the thread read, or why it could not (its thread failed or ran out of memory). */
export type BigBodyOutcome = BodyReading | { failed: string };

// Under vitest or tsx the sources are TypeScript: the thread registers tsx, then loads its .ts entry.
const fromSource = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(fromSource ? '../../thread-from-source.mjs' : './big-body-worker.js', import.meta.url);
const WORKER_DATA = fromSource ? { entry: new URL('./big-body-worker.ts', import.meta.url).href } : undefined;

interface Task {
  job: BigBodyJob;
  resolve: (outcome: BigBodyOutcome) => void;
  /** Long arrays of the facts, sent ahead in pieces, by the facts' field (null: the facts are the array). */
  pieces: Map<string | null, unknown[]>;
}

interface Thread {
  worker: Worker;
  task: Task | null;
  idle: NodeJS.Timeout | null;
}

export class BigBodyReader {
  /** Bodies read, and bodies whose thread failed (out of memory, stopped). */
  readonly counts = { read: 0, failed: 0 };
  private readonly threads = new Set<Thread>();
  private readonly waiting: Task[] = [];
  private nextId = 0;

  constructor(readonly options: BigBodyOptions = DEFAULT_BIG_BODY_OPTIONS) {}

  /**
   * Reads one 200 body off the main thread, given as the chunks it arrived in (joined there): the
   * chunks are moved to the thread and unusable here afterwards.
   */
  read(
    spec: FactsSpec<EvidenceValue>,
    kind: BodyKind,
    chunks: readonly Uint8Array[],
    headers: Headers,
  ): Promise<BigBodyOutcome> {
    const job: BigBodyJob = {
      id: this.nextId++,
      from: spec.from,
      version: spec.version,
      kind,
      chunks: chunks.map(movable),
      headers: [...headers],
    };
    return new Promise((resolve) => {
      this.waiting.push({ job, resolve, pieces: new Map() });
      this.pump();
    });
  }

  /** Bodies being read now, and bodies waiting for a thread. */
  get load(): { reading: number; waiting: number } {
    let reading = 0;
    for (const thread of this.threads) if (thread.task) reading++;
    return { reading, waiting: this.waiting.length };
  }

  async close(): Promise<void> {
    for (const task of this.waiting.splice(0)) task.resolve({ failed: 'the reader was closed' });
    await Promise.all([...this.threads].map((thread) => this.end(thread)));
  }

  private pump(): void {
    while (this.waiting.length > 0) {
      let free: Thread | null = null;
      for (const thread of this.threads) if (!thread.task) free = thread;
      if (!free && this.threads.size < this.options.threads) free = this.spawn();
      if (!free) return;
      this.run(free, this.waiting.shift()!);
    }
  }

  private spawn(): Thread {
    const worker = new Worker(WORKER_URL, {
      workerData: WORKER_DATA,
      // Not the parent's flags: a test's `--import` preloads are for the main thread.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: this.options.memoryMb },
      stdout: true,
      stderr: true,
    });
    // A thread never keeps the process alive: whoever waits for a body holds its own request open.
    worker.unref();
    const thread: Thread = { worker, task: null, idle: null };
    this.threads.add(thread);
    worker.on('message', (answer: BigBodyAnswer) => this.heard(thread, answer));
    worker.on('error', (error: Error & { code?: string }) =>
      this.lost(
        thread,
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `reading it needed more than ${this.options.memoryMb} MB of memory`
          : `the reading thread failed (${error.name})`,
      ),
    );
    worker.on('exit', () => this.lost(thread, 'the reading thread stopped'));
    return thread;
  }

  private run(thread: Thread, task: Task): void {
    if (thread.idle) clearTimeout(thread.idle);
    thread.idle = null;
    thread.task = task;
    thread.worker.postMessage(task.job, task.job.chunks);
  }

  private heard(thread: Thread, answer: BigBodyAnswer): void {
    const task = thread.task;
    if (!task || answer.id !== task.job.id) return;
    if ('part' in answer) {
      const { key, items } = answer.part;
      let list = task.pieces.get(key);
      if (!list) task.pieces.set(key, (list = []));
      for (const item of items) list.push(item);
      // Said after a turn of the event loop: whatever else waits runs before the next piece.
      setImmediate(() => {
        if (thread.task === task) thread.worker.postMessage({ taken: task.job.id } satisfies PieceTaken);
      });
      return;
    }
    thread.task = null;
    this.counts.read++;
    task.resolve(rebuilt(answer.done, task.pieces));
    thread.idle = setTimeout(() => void this.end(thread), this.options.idleMs);
    thread.idle.unref();
    this.pump();
  }

  /** A thread that failed or stopped: its body is answered unreadable, and the next body gets a fresh thread. */
  private lost(thread: Thread, why: string): void {
    if (!this.threads.delete(thread)) return;
    if (thread.idle) clearTimeout(thread.idle);
    const task = thread.task;
    thread.task = null;
    if (task) this.counts.failed++;
    task?.resolve({ failed: why });
    void thread.worker.terminate();
    this.pump();
  }

  private async end(thread: Thread): Promise<void> {
    this.threads.delete(thread);
    if (thread.idle) clearTimeout(thread.idle);
    thread.task?.resolve({ failed: 'the reader was closed' });
    thread.task = null;
    await thread.worker.terminate();
  }
}

/** A chunk's buffer, to move: the chunk's own when the chunk is all of it, else a copy (a view into a shared one). */
function movable(chunk: Uint8Array): ArrayBuffer {
  const whole =
    chunk.buffer instanceof ArrayBuffer && chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength;
  return whole ? chunk.buffer : new Uint8Array(chunk).buffer;
}

/** The facts with the long arrays sent ahead put back in their places. */
function rebuilt(done: BodyReading, pieces: Map<string | null, unknown[]>): BodyReading {
  if (!('facts' in done) || pieces.size === 0) return done;
  const whole = pieces.get(null);
  if (whole) return { facts: whole as EvidenceValue };
  const facts = { ...(done.facts as Record<string, EvidenceValue>) };
  for (const [key, items] of pieces) if (key !== null) facts[key] = items as EvidenceValue;
  return { facts };
}

let shared: BigBodyReader | null = null;

/** The process's one reader: every client's big bodies share its threads, so memory is bounded once. */
export function sharedBigBodyReader(): BigBodyReader {
  return (shared ??= new BigBodyReader());
}
