/**
 * Who the parse pool serves next (issue 34, item 3). One queue per client, and the next free worker
 * goes to the waiting client that has spent least: each client's account is charged the worker
 * time its parses used, a parse that hit the deadline three times its time (a client whose files
 * keep hitting the deadline spends its share faster), and the account halves every
 * `halfLifeMs`, so an honest client that once sent a big file is not held back for long.
 *
 * The client is an opaque key from the rate limiter's identity (RequestClient.parseKey): a salted
 * hash, kept only in memory, never logged. Work with no client (MCP in-process, tests, scripts)
 * shares one key.
 */

/** The key for work that came with no client. */
export const NO_CLIENT = '';

/** How much more a parse that hit the deadline costs than its worker time. */
export const DEADLINE_CHARGE = 3;

interface Account {
  /** Worker-milliseconds charged, as of `at` (decays from then). */
  cost: number;
  at: number;
  inFlight: number;
  waiting: unknown[];
}

export interface FairQueueOptions {
  /** How fast a charge is forgiven: the cost halves every this many milliseconds. */
  halfLifeMs: number;
  /** Accounts kept at most; idle ones with the least cost are forgotten first. */
  maxAccounts: number;
  now?: () => number;
}

/** Per-client queues served least-cost first; `T` is the pool's task. */
export class FairQueue<T> {
  private readonly accounts = new Map<string, Account>();
  private count = 0;
  private readonly now: () => number;

  constructor(private readonly options: FairQueueOptions) {
    this.now = options.now ?? Date.now;
  }

  get length(): number {
    return this.count;
  }

  /** Tasks this client has waiting. */
  waitingOf(client: string): number {
    return this.accounts.get(client)?.waiting.length ?? 0;
  }

  /** Parses this client has running now. */
  inFlightOf(client: string): number {
    return this.accounts.get(client)?.inFlight ?? 0;
  }

  push(client: string, task: T): void {
    this.account(client).waiting.push(task);
    this.count++;
  }

  /** Takes a waiting task out (it gave up waiting); false when it was not waiting. */
  remove(client: string, task: T): boolean {
    const waiting = this.accounts.get(client)?.waiting;
    const at = waiting?.indexOf(task) ?? -1;
    if (at < 0) return false;
    waiting!.splice(at, 1);
    this.count--;
    return true;
  }

  /** Every waiting task, taken out (the pool is closing or its workers cannot start). */
  drain(): T[] {
    const all: T[] = [];
    for (const account of this.accounts.values()) all.push(...(account.waiting.splice(0) as T[]));
    this.count = 0;
    return all;
  }

  /**
   * The next task for a free worker, and its client: the waiting client with fewest parses running,
   * then least cost. `idleOnly`: only a client with nothing running may have it (the pool keeps its
   * last free worker for them, so a newcomer never waits behind a client that already holds one).
   */
  next(idleOnly: boolean): { client: string; task: T } | null {
    const now = this.now();
    let best: [string, Account] | null = null;
    let bestCost = Infinity;
    for (const entry of this.accounts) {
      const account = entry[1];
      if (account.waiting.length === 0 || (idleOnly && account.inFlight > 0)) continue;
      const cost = this.decayed(account, now);
      if (
        best === null ||
        account.inFlight < best[1].inFlight ||
        (account.inFlight === best[1].inFlight && cost < bestCost)
      ) {
        best = entry;
        bestCost = cost;
      }
    }
    if (best === null) return null;
    const account = best[1];
    account.inFlight++;
    this.count--;
    return { client: best[0], task: account.waiting.shift() as T };
  }

  /** A parse this client started with `next` ended after `ms` of worker time. */
  charge(client: string, ms: number, hitDeadline: boolean): void {
    const account = this.accounts.get(client);
    if (!account) return;
    const now = this.now();
    account.cost = this.decayed(account, now) + ms * (hitDeadline ? DEADLINE_CHARGE : 1);
    account.at = now;
    account.inFlight = Math.max(0, account.inFlight - 1);
  }

  /** The client's cost now (for tests and the bench). */
  costOf(client: string): number {
    const account = this.accounts.get(client);
    return account ? this.decayed(account, this.now()) : 0;
  }

  private decayed(account: Account, now: number): number {
    return account.cost * 0.5 ** (Math.max(0, now - account.at) / this.options.halfLifeMs);
  }

  private account(client: string): Account {
    let account = this.accounts.get(client);
    if (!account) {
      if (this.accounts.size >= this.options.maxAccounts) this.forget();
      account = { cost: 0, at: this.now(), inFlight: 0, waiting: [] };
      this.accounts.set(client, account);
    }
    return account;
  }

  /**
   * Bounds the memory: idle accounts (nothing waiting or running) whose cost has decayed to almost
   * nothing go first, then, if still full, the idle one that costs least. An account forgotten
   * starts again at zero, the same as a new client: forgetting favours nobody who is still busy.
   */
  private forget(): void {
    const now = this.now();
    let cheapest: string | null = null;
    let cheapestCost = Infinity;
    for (const [client, account] of this.accounts) {
      if (account.waiting.length > 0 || account.inFlight > 0) continue;
      const cost = this.decayed(account, now);
      if (cost < 1) this.accounts.delete(client);
      else if (cost < cheapestCost) {
        cheapest = client;
        cheapestCost = cost;
      }
    }
    if (this.accounts.size >= this.options.maxAccounts && cheapest !== null) this.accounts.delete(cheapest);
  }
}
