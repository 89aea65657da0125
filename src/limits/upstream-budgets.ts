import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import {
  LEASE_MS,
  LEASE_POLL_MS,
  MemoryBudgetStore,
  type BudgetStore,
  type Spend,
} from '../upstreams/http/budget-store.js';

/**
 * Tended's own upstream request budgets (src/upstreams/budget.ts) kept in Redis, so every process
 * that reads an upstream (serve's observer, `tended observe` workers, the followers) spends one
 * budget per host. Keys hold a host name, a UTC day and a count: nothing about any client.
 *
 * One script grants a turn atomically: refused when the day's count has reached the asker's
 * ceiling, "wait N ms" while another turn is granted and not yet sent (its lease) or the last
 * request was sent less than an interval ago (Redis TIME is the clock every process shares), else
 * granted, counted and leased. A second script, run as the request leaves, ends the lease and
 * spaces the next turn from that moment. The count expires a while after its day.
 * Values go back as strings: Lua numbers returned to Redis are truncated to integers.
 */
const SPEND_SCRIPT = `
local used = tonumber(redis.call('GET', KEYS[2]) or '0')
if used >= tonumber(ARGV[1]) then return {'spent', tostring(used)} end
local leased = redis.call('PTTL', KEYS[3])
if leased > 0 then return {'wait', tostring(math.min(leased, tonumber(ARGV[4])))} end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local nxt = tonumber(redis.call('GET', KEYS[1]) or '0')
if now < nxt then return {'wait', string.format('%.3f', nxt - now)} end
redis.call('SET', KEYS[3], ARGV[5], 'PX', tonumber(ARGV[3]))
used = redis.call('INCR', KEYS[2])
if used == 1 then redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[2])) end
return {'granted', tostring(used)}
`;

/** Ends this turn's lease (if still its own); when sent (ARGV[2] = 1), the next waits an interval from now. */
const SENT_SCRIPT = `
if redis.call('GET', KEYS[2]) == ARGV[3] then redis.call('DEL', KEYS[2]) end
if ARGV[2] ~= '1' then return 0 end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local interval = tonumber(ARGV[1])
local nxt = tonumber(redis.call('GET', KEYS[1]) or '0')
if now + interval > nxt then
  redis.call('SET', KEYS[1], string.format('%.3f', now + interval), 'PX', math.ceil(interval) + 1000)
end
return 1
`;

/** A day's count outlives its day by two hours (clocks of processes differ a little), then goes. */
const DAY_TTL_MS = 26 * 3600_000;
const COMMAND_TIMEOUT_MS = 500;
/** After a failed command, this process spends from memory this long before asking Redis again. */
const COOL_DOWN_MS = 1_000;
/** How long the first spend waits for the connection, rather than start from an empty memory count. */
const FIRST_CONNECT_MS = 2_000;

type SpendCommand = (
  next: string,
  day: string,
  lease: string,
  ceiling: number,
  dayTtlMs: number,
  leaseMs: number,
  pollMs: number,
  token: string,
) => Promise<[string, string]>;
type SentCommand = (next: string, lease: string, intervalMs: number, sent: 0 | 1, token: string) => Promise<number>;

/**
 * Redis while it answers, this process's memory meanwhile (as the edge's buckets fall back): the
 * memory count starts from the last count Redis gave, and the spacing from the last turn it
 * granted, so a failover neither restarts the day nor sends a burst. While Redis is away each
 * process keeps to the whole budget on its own; the upstreams' own 429s are still honoured.
 */
export class RedisBudgetStore implements BudgetStore {
  private readonly redis: Redis;
  private readonly memory = new MemoryBudgetStore();
  private readonly prefix: string;
  private downUntil = 0;
  private readonly firstConnect: Promise<void>;
  /** The lease this process holds on each upstream, granted by Redis and not yet used. */
  private readonly leases = new Map<string, string>();

  constructor(url: string, options: { prefix?: string } = {}) {
    this.prefix = options.prefix ?? 'tended:ub:';
    this.redis = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: 2_000,
      retryStrategy: (times) => Math.min(times * 100, 1_000),
      enableAutoPipelining: true,
    });
    this.redis.defineCommand('tendedBudgetSpend', { numberOfKeys: 3, lua: SPEND_SCRIPT });
    this.redis.defineCommand('tendedBudgetSent', { numberOfKeys: 2, lua: SENT_SCRIPT });
    // ioredis emits 'error' on every failed reconnect; spends fall back to memory meanwhile.
    this.redis.on('error', () => {});
    this.firstConnect = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, FIRST_CONNECT_MS);
      timer.unref();
      this.redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  readonly where = (): 'memory' | 'redis' =>
    this.redis.status === 'ready' && Date.now() >= this.downUntil ? 'redis' : 'memory';

  async spend(upstream: string, day: string, ceiling: number): Promise<Spend> {
    await this.firstConnect;
    if (this.where() === 'memory') return this.memory.spend(upstream, day, ceiling);
    const spend = (this.redis as unknown as { tendedBudgetSpend: SpendCommand }).tendedBudgetSpend;
    const token = randomBytes(9).toString('base64');
    try {
      const [kind, value] = await spend.call(
        this.redis,
        this.key(upstream, 'next'),
        this.key(upstream, `day:${day}`),
        this.key(upstream, 'lease'),
        ceiling,
        DAY_TTL_MS,
        LEASE_MS,
        LEASE_POLL_MS,
        token,
      );
      const n = Number(value);
      if (kind === 'wait') return { kind: 'wait', ms: n };
      this.memory.noteUsed(upstream, day, n);
      if (kind === 'spent') return { kind: 'spent', used: n };
      this.leases.set(upstream, token);
      return { kind: 'granted', used: n };
    } catch {
      this.downUntil = Date.now() + COOL_DOWN_MS;
      return this.memory.spend(upstream, day, ceiling);
    }
  }

  sent(upstream: string, intervalMs: number): Promise<void> {
    this.memory.sent(upstream, intervalMs);
    return this.endLease(upstream, intervalMs, 1);
  }

  unused(upstream: string): Promise<void> {
    this.memory.unused(upstream);
    return this.endLease(upstream, 0, 0);
  }

  /** A turn granted by memory (Redis was away) holds no lease in Redis. */
  private async endLease(upstream: string, intervalMs: number, sent: 0 | 1): Promise<void> {
    const token = this.leases.get(upstream);
    if (token === undefined) return;
    this.leases.delete(upstream);
    const end = (this.redis as unknown as { tendedBudgetSent: SentCommand }).tendedBudgetSent;
    try {
      await end.call(this.redis, this.key(upstream, 'next'), this.key(upstream, 'lease'), intervalMs, sent, token);
    } catch {
      // The lease runs out by itself; meanwhile this process spends from memory.
      this.downUntil = Date.now() + COOL_DOWN_MS;
    }
  }

  async usedOn(upstream: string, day: string): Promise<number> {
    await this.firstConnect;
    if (this.where() === 'redis') {
      try {
        const used = Number((await this.redis.get(this.key(upstream, `day:${day}`))) ?? 0);
        this.memory.noteUsed(upstream, day, used);
        return used;
      } catch {
        this.downUntil = Date.now() + COOL_DOWN_MS;
      }
    }
    return this.memory.usedOn(upstream, day);
  }

  private key(upstream: string, what: string): string {
    return `${this.prefix}${upstream}:${what}`;
  }

  async close(): Promise<void> {
    this.redis.disconnect();
    await this.memory.close();
  }
}
