/**
 * Parsing off the main thread (DESIGN §8c): every pasted manifest and SBOM is parsed in a pool of
 * worker threads, each under a deadline and a heap budget. A parse past either ends its worker
 * (terminated, a fresh one takes its place) and answers 422 "too complex to check", while the main
 * thread goes on serving everyone else. Safe by construction: a new format's parser that turns out
 * slow on some input costs its own request a 422, never the service a stall.
 *
 * A small pool written here rather than piscina: the deadline must start when a worker takes the
 * task, not when it is queued (a task waiting behind another is not "too complex"), and a queue
 * that waits too long is a different answer (503, busy) from a parse that takes too long (422).
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { TendedError } from '../domain/errors.js';
import { TooComplexError } from '../parsers/reference.js';
import { fromWire, type WireError } from './parse-errors.js';
import { FairQueue, NO_CLIENT } from './parse-fairness.js';
import type { SubmittedComponents } from './submitted-components.js';

/** One submission to parse: its bytes (moved to the worker, not copied) or its text (MCP). */
export type ParseJob =
  | { route: 'manifest'; body: Uint8Array | string; json?: boolean; format?: string; filename?: string }
  | { route: 'sbom'; body: Uint8Array | string; contentType?: string };

export type WorkerAnswer = { ok: SubmittedComponents } | { error: WireError };

export interface ParsePoolOptions {
  /** Worker threads at most; each parses one submission at a time. */
  threads: number;
  /** How long one parse may run once a worker has taken it. */
  deadlineMs: number;
  /** The heap (old generation) one worker may use; past it the worker is ended. */
  memoryMb: number;
  /** Submissions that may wait for a free worker; one more is answered 503. */
  maxWaiting: number;
}

export const DEFAULT_PARSE_OPTIONS: ParsePoolOptions = {
  threads: Math.max(1, Math.min(4, availableParallelism())),
  deadlineMs: 1_000,
  memoryMb: 160,
  maxWaiting: 64,
};

/** Every worker is busy and the queue is full, or a task waited past its time: answered 503 with Retry-After. */
export class ParseBusyError extends TendedError {
  constructor() {
    super(
      'parse_busy',
      'Tended is reading as many files as it can right now; nothing was kept. Send the file again in a few seconds.',
    );
    this.name = 'ParseBusyError';
  }
}

interface Task {
  job: ParseJob;
  /** The opaque fairness key of the client that sent it (NO_CLIENT when none). */
  client: string;
  resolve: (value: SubmittedComponents) => void;
  reject: (error: Error) => void;
  /** Set while the task waits: it gives up after a few deadlines' worth of queue. */
  waitTimer?: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  task: Task | null;
  deadline: NodeJS.Timeout | null;
  /** When the task in hand started, for its client's account. */
  startedAt: number;
}

/**
 * Each worker's young generation. Fixed, it is the same on every Node line, where V8's own
 * default is not (a 32 MB new space on Node 20, 128 MB on 24), so a parse's garbage costs the same
 * collections everywhere; test/parse-timing.test.ts measures parsing under the same limit.
 */
export const PARSE_YOUNG_GENERATION_MB = 16;

// Under vitest or tsx the sources are TypeScript: the worker registers tsx, then loads its .ts entry.
const fromSource = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(fromSource ? '../thread-from-source.mjs' : './parse-worker.js', import.meta.url);
const WORKER_DATA = fromSource ? { entry: new URL('./parse-worker.ts', import.meta.url).href } : undefined;

/** How parses ended, as the operator's metrics count them (read when scraped). */
export interface ParseCounts {
  parsed: number;
  /** Past the deadline or the heap: answered 422 "too complex to check". */
  tooComplex: number;
  /** No worker free and the queue full, or a wait too long: answered 503. */
  busy: number;
  /** The input was refused as malformed (422, 400): the parser did its work. */
  refused: number;
  /** A worker fault: a 500. */
  failed: number;
}

export class ParsePool {
  readonly counts: ParseCounts = { parsed: 0, tooComplex: 0, busy: 0, refused: 0, failed: 0 };
  private readonly slots = new Set<Slot>();
  /** Waiting work, one queue per client, served least-cost first (parse-fairness.ts). */
  private readonly waiting = new FairQueue<Task>({ halfLifeMs: 30_000, maxAccounts: 10_000 });
  private closed = false;
  private readonly readyWaiters: { resolve: () => void; reject: (error: Error) => void }[] = [];

  /**
   * `warm`: every worker started at once and replaced as soon as one is ended, because loading
   * the parsers takes a moment no submission should wait for (serve). Otherwise the workers start
   * at the first submission, and are kept warm from then on (the default pool of apps built in
   * tests and scripts, most of which parse nothing).
   */
  constructor(
    readonly options: ParsePoolOptions = DEFAULT_PARSE_OPTIONS,
    private warm = true,
  ) {
    if (warm) this.warmUp();
  }

  private warmUp(): void {
    this.warm = true;
    while (this.slots.size < this.options.threads) this.spawn();
  }

  /** Settles once a worker has loaded its parsers: `serve` waits for it before it listens. */
  ready(): Promise<void> {
    if (!this.warm) this.warmUp();
    if ([...this.slots].some((slot) => slot.ready)) return Promise.resolve();
    return new Promise((resolve, reject) => this.readyWaiters.push({ resolve, reject }));
  }

  /**
   * Parses one submission off the main thread; rejects with the error a person should get.
   * `client`: the sender's opaque fairness key (RequestClient.parseKey), so that one client's work
   * waits behind its own and not in front of everyone's.
   */
  parse(job: ParseJob, client: string = NO_CLIENT): Promise<SubmittedComponents> {
    return this.queued(job, client).then(
      (parsed) => {
        this.counts.parsed++;
        return parsed;
      },
      (error: Error) => {
        const code = error instanceof TendedError ? error.code : 'fault';
        if (code === 'too_complex') this.counts.tooComplex++;
        else if (code === 'parse_busy') this.counts.busy++;
        else if (code === 'validation' || code === 'malformed_json' || code === 'input') this.counts.refused++;
        else this.counts.failed++;
        throw error;
      },
    );
  }

  /** Workers parsing now, and submissions waiting for one. */
  get load(): { busy: number; waiting: number; threads: number } {
    let busy = 0;
    for (const slot of this.slots) if (slot.task !== null) busy++;
    return { busy, waiting: this.waiting.length, threads: this.options.threads };
  }

  private queued(job: ParseJob, client: string): Promise<SubmittedComponents> {
    if (this.closed) return Promise.reject(new ParseBusyError());
    if (!this.warm) this.warmUp();
    return new Promise((resolve, reject) => {
      const task: Task = { job, client, resolve, reject };
      if (this.waiting.length >= this.options.maxWaiting) return reject(new ParseBusyError());
      // A known client may fill a quarter of the queue at most: a few clients cannot fill it for all.
      if (client !== NO_CLIENT && this.waiting.waitingOf(client) >= Math.max(1, Math.ceil(this.options.maxWaiting / 4)))
        return reject(new ParseBusyError());
      this.waiting.push(client, task);
      this.dispatch();
      if (task.waitTimer === undefined && this.slotOf(task) === null) this.waitFor(task);
    });
  }

  private slotOf(task: Task): Slot | null {
    for (const slot of this.slots) if (slot.task === task) return slot;
    return null;
  }

  /**
   * Gives every free worker the next task the fair queue names. The last free worker (of two or
   * more) goes only to a client with nothing running: a client, however many files it sends, holds
   * at most all workers but one while others wait, and a newcomer waits for at most one parse to
   * end (the deadline at worst), not behind a queue of someone else's.
   */
  private dispatch(): void {
    for (;;) {
      if (this.waiting.length === 0) return;
      const idle = [...this.slots].filter((slot) => slot.ready && slot.task === null);
      if (idle.length === 0) {
        if (this.slots.size < this.options.threads) this.spawn();
        return;
      }
      const picked = this.waiting.next(this.options.threads > 1 && idle.length === 1);
      if (!picked) return;
      this.run(idle[0]!, picked.task);
    }
  }

  /**
   * A task gives up waiting after ten deadlines of queue, but not while no worker has started
   * yet: the wait is then the workers' start (seconds on a loaded machine running from sources),
   * not other submissions, and a worker that cannot start fails its waiters itself.
   */
  private waitFor(task: Task): void {
    task.waitTimer = setTimeout(() => {
      if (![...this.slots].some((slot) => slot.ready)) return this.waitFor(task);
      if (this.waiting.remove(task.client, task)) task.reject(new ParseBusyError());
    }, this.options.deadlineMs * 10);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.waiting.drain()) {
      clearTimeout(task.waitTimer);
      task.reject(new ParseBusyError());
    }
    await Promise.all([...this.slots].map((slot) => this.end(slot)));
  }

  private spawn(): void {
    const worker = new Worker(WORKER_URL, {
      workerData: WORKER_DATA,
      // Not the parent's flags: a test's `--import` preloads are for the main thread (a worker
      // inherits them by default, and they fail there); the worker loads only what parsing needs.
      execArgv: [],
      resourceLimits: {
        maxOldGenerationSizeMb: this.options.memoryMb,
        maxYoungGenerationSizeMb: PARSE_YOUNG_GENERATION_MB,
      },
      // The worker's own output is not the request's: nothing it could print is wanted.
      stdout: true,
      stderr: true,
    });
    // A worker never keeps the process alive: a task in flight has its deadline timer for that.
    worker.unref();
    const slot: Slot = { worker, ready: false, task: null, deadline: null, startedAt: 0 };
    this.slots.add(slot);
    worker.on('message', (message: WorkerAnswer | { ready: true }) => {
      if ('ready' in message) {
        slot.ready = true;
        for (const waiter of this.readyWaiters.splice(0)) waiter.resolve();
        this.dispatch();
        return;
      }
      const task = this.finish(slot);
      if (!task) return;
      if ('ok' in message) task.resolve(message.ok);
      else task.reject(fromWire(message.error));
      this.dispatch();
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const task = this.finish(slot, error.code === 'ERR_WORKER_OUT_OF_MEMORY');
      this.retire(slot);
      task?.reject(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new TooComplexError(
              `reading it needed more than ${this.options.memoryMb} MB of memory, the most one request may use. Send a smaller file, or split it.`,
            )
          : new Error(`the parse worker failed: ${error.name}`),
      );
    });
    worker.on('exit', () => {
      const task = this.finish(slot);
      this.retire(slot);
      task?.reject(new Error('the parse worker stopped'));
    });
  }

  private run(slot: Slot, task: Task): void {
    clearTimeout(task.waitTimer);
    slot.task = task;
    slot.startedAt = performance.now();
    slot.deadline = setTimeout(() => {
      const timedOut = this.finish(slot, true);
      this.retire(slot);
      void slot.worker.terminate();
      timedOut?.reject(
        new TooComplexError(
          `reading it took longer than ${(this.options.deadlineMs / 1000).toLocaleString('en')} s, the most one request may take. Send a smaller or simpler file, or split it.`,
        ),
      );
    }, this.options.deadlineMs);
    const body = task.job.body;
    // The bytes move to the worker when they own their whole buffer; a view into a shared one is copied.
    const movable =
      typeof body !== 'string' && body.byteOffset === 0 && body.byteLength === body.buffer.byteLength
        ? [body.buffer as ArrayBuffer]
        : [];
    slot.worker.postMessage(task.job, movable);
  }

  /** The task in hand, taken off its worker, its worker time charged to its client. */
  private finish(slot: Slot, hitDeadline = false): Task | null {
    const task = slot.task;
    if (task) this.waiting.charge(task.client, performance.now() - slot.startedAt, hitDeadline);
    slot.task = null;
    if (slot.deadline) clearTimeout(slot.deadline);
    slot.deadline = null;
    return task;
  }

  /** A worker that timed out, ran out of memory or died: out of the pool, and a fresh one in its place. */
  private retire(slot: Slot): void {
    if (!this.slots.delete(slot)) return;
    if (!slot.ready) {
      // It died before its parsers loaded: a broken install, not an input. Starting another would
      // fail the same way, so whoever waits gets the fault (a logged 500) instead of a loop of starts.
      const failed = new Error('the parse worker could not start');
      for (const task of this.waiting.drain()) {
        clearTimeout(task.waitTimer);
        task.reject(failed);
      }
      for (const waiter of this.readyWaiters.splice(0)) waiter.reject(failed);
      return;
    }
    if (!this.closed && (this.warm || this.waiting.length > 0)) this.spawn();
  }

  private async end(slot: Slot): Promise<void> {
    this.slots.delete(slot);
    await slot.worker.terminate();
  }
}

let shared: ParsePool | null = null;

/** The process's pool with the default options, for an app built without one (tests, scripts). */
export function sharedParsePool(): ParsePool {
  return (shared ??= new ParsePool(DEFAULT_PARSE_OPTIONS, false));
}
