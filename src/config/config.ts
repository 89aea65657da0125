import { trimTrailing } from '../domain/text.js';
import { isIP } from 'node:net';
import { z } from 'zod';
import { DEFAULT_PARSE_OPTIONS, type ParsePoolOptions } from '../operations/parse-pool.js';
import { DEFAULT_BODY_BUDGET, type BodyBudgetOptions } from '../api/body-budget.js';
import { SWEEP_DAYS_DEFAULT } from '../domain/follow-schedule.js';
import { witnessEntry } from './witnesses.js';
import { budgetOverrides } from './budget-variables.js';
import { FOLLOWED_REGISTRIES, type FeedUrls, type FollowedRegistry } from '../upstreams/following/follower.js';
import { budgetLimits, type BudgetLimits } from '../upstreams/http/budget-limits.js';

/** The service's configuration, read from the environment once and frozen (DESIGN §7). */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string;
  readonly redisUrl: string | null;
  readonly upstreams: {
    readonly github: string;
    readonly npm: string;
    readonly pypi: string;
    readonly endoflife: string;
    readonly dockerhub: string;
    readonly dependents: string;
    readonly dependentsRegistry: string;
    readonly maven: string;
    readonly goproxy: string;
    readonly rubygems: string;
    readonly packagist: string;
    readonly crates: string;
    readonly cratesIndex: string;
    readonly nuget: string;
    readonly osv: string;
  };
  readonly githubToken: string | null;
  readonly observer: boolean;
  /** TENDED_WEBHOOK_ALLOW_PRIVATE: webhooks may go to loopback and private addresses (and plain http). */
  readonly webhookAllowPrivate: boolean;
  readonly signingKeyPath: string;
  readonly origin: string;
  readonly verdicts: boolean;
  readonly rateLimitFree: number;
  readonly rateLimitKey: number;
  /** Proxy addresses whose X-Forwarded-For names the client; none by default. */
  readonly trustProxy: readonly string[];
  readonly pageMinDependents: number;
  readonly publicUrl: string;
  /** Where `tended export --daily` writes its dumps and /api/v1/exports serves them from. */
  readonly exportDir: string;
  /** TENDED_DISCOVERY, TENDED_DISCOVERY_DAILY, TENDED_DISCOVERY_SHARE: reads queue the unheld components they name. */
  readonly discovery: { readonly enabled: boolean; readonly dailyCap: number; readonly clientShare: number };
  /** TENDED_ANSWER_CACHE_BYTES: the most the serialised entity answers kept in memory may hold. */
  readonly answerCacheBytes: number;
  /** TENDED_PARSE_THREADS, TENDED_PARSE_DEADLINE_MS, TENDED_PARSE_MEMORY_MB: the parse pool (DESIGN §8c). */
  readonly parsing: ParsePoolOptions;
  /** TENDED_BODY_MEMORY_MB, TENDED_BODY_MIN_RATE_KB: what unfinished request bodies may hold together, and how slow one may arrive. */
  readonly bodies: BodyBudgetOptions;
  /** TENDED_METRICS_ADDRESS: where `serve` answers GET /metrics, apart from the service; null, nowhere. */
  readonly metrics: { readonly host: string; readonly port: number } | null;
  /** TENDED_FOLLOW, TENDED_SWEEP_DAYS, TENDED_FEED_*_URL: whole registries followed (none by default). */
  readonly follow: {
    readonly registries: readonly FollowedRegistry[];
    readonly sweepDays: number;
    readonly feeds: Readonly<FeedUrls>;
    /** TENDED_OSV_EXPORT_URL: OSV's export bucket, whose RustSec advisories crates.io's follower follows. */
    readonly osvExport: string;
  };
  /** TENDED_BUDGET_<UPSTREAM>: each upstream host's request budget, the defaults with the overrides. */
  readonly budgets: BudgetLimits;
  /** TENDED_WITNESSES: the tlog witnesses each new checkpoint is sent to (none by default). */
  readonly witnesses: readonly { readonly vkey: string; readonly url: string }[];
  /** TENDED_WITNESS_PERIOD_S: how often the newest checkpoint is sent to the witnesses, in ms. */
  readonly witnessPeriodMs: number;
}

/** Each followed registry's feed host (research/registry-feeds.md §1), and the variable that moves it. */
export const FEED_DEFAULTS: Record<FollowedRegistry, { variable: string; url: string }> = {
  npm: { variable: 'TENDED_FEED_NPM_URL', url: 'https://replicate.npmjs.com' },
  pypi: { variable: 'TENDED_FEED_PYPI_URL', url: 'https://pypi.org' },
  cargo: { variable: 'TENDED_FEED_CARGO_URL', url: 'https://static.crates.io' },
  golang: { variable: 'TENDED_FEED_GOLANG_URL', url: 'https://index.golang.org' },
  nuget: { variable: 'TENDED_FEED_NUGET_URL', url: 'https://api.nuget.org' },
  gem: { variable: 'TENDED_FEED_GEM_URL', url: 'https://rubygems.org' },
  composer: { variable: 'TENDED_FEED_COMPOSER_URL', url: 'https://packagist.org' },
};

const onOff = z.enum(['on', 'off']);
const url = z.url({ protocol: /^https?$/ });
const positiveInt = z.coerce.number().int().positive();
/**
 * Names one client may ask to queue a UTC day: one full request's worth (operations/discovery.ts
 * MAX_QUEUED_PER_REQUEST), a hundredth of the default daily bound, so it takes a hundred clients
 * to spend the day.
 */
export const DISCOVERY_SHARE_DEFAULT = 1_000;
/** 64 MB: some 20,000 answers of a few kB, the hot repositories of a day, beside a ~60 MB process. */
export const ANSWER_CACHE_BYTES_DEFAULT = 64 * 1024 * 1024;

const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .regex(/^(sqlite:.+|postgres(ql)?:\/\/.+)$/, 'DATABASE_URL must be sqlite:PATH or postgres://…')
    .default('sqlite:./data/tended.db'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'REDIS_URL must start with redis:// or rediss://')
    .optional(),
  TENDED_GITHUB_API_URL: url.default('https://api.github.com'),
  TENDED_NPM_REGISTRY_URL: url.default('https://registry.npmjs.org'),
  TENDED_PYPI_URL: url.default('https://pypi.org'),
  TENDED_EOL_API_URL: url.default('https://endoflife.date'),
  TENDED_DOCKERHUB_API_URL: url.default('https://hub.docker.com'),
  TENDED_DEPENDENTS_URL: url.default('https://packages.ecosyste.ms'),
  TENDED_DEPENDENTS_REGISTRY: z.string().min(1).default('npmjs.org'),
  TENDED_MAVEN_URL: url.default('https://repo1.maven.org/maven2'),
  TENDED_GOPROXY_URL: url.default('https://proxy.golang.org'),
  TENDED_RUBYGEMS_URL: url.default('https://rubygems.org'),
  TENDED_PACKAGIST_URL: url.default('https://repo.packagist.org'),
  TENDED_CRATES_URL: url.default('https://crates.io'),
  TENDED_CRATES_INDEX_URL: url.default('https://index.crates.io'),
  TENDED_NUGET_URL: url.default('https://api.nuget.org'),
  TENDED_OSV_URL: url.default('https://api.osv.dev'),
  TENDED_OSV_EXPORT_URL: url.default('https://osv-vulnerabilities.storage.googleapis.com'),
  GITHUB_TOKEN: z.string().min(1).optional(),
  TENDED_OBSERVER: onOff.default('on'),
  // Off by default (SSRF): a subscription cannot make the service POST into its own network.
  TENDED_WEBHOOK_ALLOW_PRIVATE: onOff.default('off'),
  TENDED_SIGNING_KEY: z.string().min(1).optional(),
  TENDED_ORIGIN: z
    .string()
    .regex(/^[^\s+]+$/, 'TENDED_ORIGIN is the checkpoint origin line: no spaces and no "+"')
    .default('tended.local/log/v1'),
  TENDED_VERDICTS: onOff.default('off'),
  TENDED_RATE_LIMIT_FREE: positiveInt.default(60),
  TENDED_RATE_LIMIT_KEY: positiveInt.default(600),
  TENDED_TRUST_PROXY: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((a) => a.trim())
        .filter((a) => a !== ''),
    )
    .refine(
      (list) => list.every((a) => isIP(a) !== 0),
      'TENDED_TRUST_PROXY is a comma-separated list of proxy IP addresses, e.g. 127.0.0.1,::1',
    )
    .optional(),
  TENDED_PAGE_MIN_DEPENDENTS: z.coerce.number().int().min(0).default(1),
  TENDED_DISCOVERY: onOff.default('on'),
  TENDED_DISCOVERY_DAILY: z.coerce.number().int().min(0).default(100_000),
  TENDED_DISCOVERY_SHARE: z.coerce
    .number()
    .int('TENDED_DISCOVERY_SHARE is a whole number of names, e.g. 1000')
    .min(1, 'TENDED_DISCOVERY_SHARE must be at least 1 (TENDED_DISCOVERY=off turns discovery off)')
    .optional(),
  TENDED_PUBLIC_URL: url.optional(),
  // At least 1 MB: a smaller cache holds too few answers to spare the store anything.
  TENDED_ANSWER_CACHE_BYTES: z.coerce
    .number()
    .int('TENDED_ANSWER_CACHE_BYTES is a whole number of bytes, e.g. 67108864 for 64 MB')
    .min(1024 * 1024, 'TENDED_ANSWER_CACHE_BYTES must be at least 1048576 (1 MB)')
    .default(ANSWER_CACHE_BYTES_DEFAULT),
  TENDED_PARSE_THREADS: z.coerce.number().int().min(1).max(64).default(DEFAULT_PARSE_OPTIONS.threads),
  // At least 100 ms: an honest 4 MB SBOM takes about that on a quiet machine. At most a minute.
  TENDED_PARSE_DEADLINE_MS: z.coerce.number().int().min(100).max(60_000).default(DEFAULT_PARSE_OPTIONS.deadlineMs),
  // At least 64 MB: the parsers' own code and one honest 4 MB SBOM's tree need about that.
  TENDED_PARSE_MEMORY_MB: z.coerce.number().int().min(64).max(16_384).default(DEFAULT_PARSE_OPTIONS.memoryMb),
  // At least 16 MB: four 4 MB uploads at once.
  TENDED_BODY_MEMORY_MB: z.coerce
    .number()
    .int()
    .min(16)
    .max(65_536)
    .default(DEFAULT_BODY_BUDGET.totalBytes / (1024 * 1024)),
  TENDED_BODY_MIN_RATE_KB: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_048_576)
    .default(DEFAULT_BODY_BUDGET.minBytesPerSecond / 1024),
  // host:port, [v6]:port; its own listener, so never the service's own address (checked below).
  TENDED_METRICS_ADDRESS: z
    .string()
    .regex(
      /^(?:\[[\d.:a-f]+\]|[\w.-]+):\d{1,5}$/i,
      'TENDED_METRICS_ADDRESS is host:port where GET /metrics is served, e.g. 127.0.0.1:9464 or [::1]:9464',
    )
    .refine(
      (v) => Number(v.slice(v.lastIndexOf(':') + 1)) <= 65535,
      'TENDED_METRICS_ADDRESS: the port is at most 65535',
    )
    .optional(),
  TENDED_FOLLOW: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((r) => r.trim().toLowerCase())
        .filter((r) => r !== ''),
    )
    .superRefine((names, ctx) => {
      const unknown = names.filter((r) => !(FOLLOWED_REGISTRIES as readonly string[]).includes(r));
      if (unknown.length > 0)
        ctx.addIssue({
          code: 'custom',
          message: `${unknown.map((r) => `"${r}"`).join(', ')} ${unknown.length === 1 ? 'is not a registry' : 'are not registries'} Tended can follow; name some of ${FOLLOWED_REGISTRIES.join(', ')}, comma-separated (Maven Central and GitHub publish no feed: they are read when watched or asked about)`,
        });
    })
    .optional(),
  // At most 180 days: a longer sweep lets a package's last read pass the staleness threshold.
  TENDED_SWEEP_DAYS: z.coerce
    .number()
    .int('TENDED_SWEEP_DAYS is a whole number of days, e.g. 30')
    .min(1, 'TENDED_SWEEP_DAYS must be at least 1')
    .max(
      180,
      'TENDED_SWEEP_DAYS must be at most 180: a longer sweep would let an answer rest on a read past the 180-day staleness threshold',
    )
    .default(SWEEP_DAYS_DEFAULT),
  ...(Object.fromEntries(
    Object.values(FEED_DEFAULTS).map(({ variable, url: fallback }) => [variable, url.default(fallback)]),
  ) as Record<string, z.ZodDefault<typeof url>>),
  TENDED_WITNESSES: z
    .string()
    .transform((v, ctx) => {
      const out: { vkey: string; url: string }[] = [];
      for (const entry of v
        .split(/[,\n]/)
        .map((e) => e.trim())
        .filter((e) => e !== '')) {
        const witness = witnessEntry(entry);
        if (typeof witness === 'string') ctx.addIssue({ code: 'custom', message: `TENDED_WITNESSES: ${witness}` });
        else out.push(witness);
      }
      const names = out.map((w) => w.vkey.slice(0, w.vkey.indexOf('+')));
      const twice = names.find((n, i) => names.indexOf(n) !== i);
      if (twice) ctx.addIssue({ code: 'custom', message: `TENDED_WITNESSES names the witness ${twice} twice` });
      return out;
    })
    .optional(),
  TENDED_WITNESS_PERIOD_S: z.coerce
    .number()
    .int('TENDED_WITNESS_PERIOD_S is a whole number of seconds, e.g. 60')
    .min(1, 'TENDED_WITNESS_PERIOD_S must be at least 1')
    .max(86_400, 'TENDED_WITNESS_PERIOD_S must be at most 86400 (a day)')
    .default(60),
  // A directory path; a control character in it is always a mistake (often a pasted newline).
  TENDED_EXPORT_DIR: z
    .string()
    .regex(/^[^\x00-\x1f]+$/, 'TENDED_EXPORT_DIR must be a directory path')
    .optional(),
});

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Validates the environment; a bad value stops the process with a sentence naming the variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const set = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== '')) as Record<
    string,
    string
  >;
  const parsed = Env.safeParse(set);
  const budgets = budgetOverrides(set);
  if (!parsed.success || budgets.lines.length > 0) {
    const lines = (parsed.success ? [] : parsed.error.issues).map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new ConfigError(`invalid configuration:\n  ${[...lines, ...budgets.lines].join('\n  ')}`);
  }
  const e = parsed.data;
  if (e.TENDED_DISCOVERY_SHARE !== undefined && e.TENDED_DISCOVERY_SHARE > e.TENDED_DISCOVERY_DAILY)
    throw new ConfigError(
      `invalid configuration:\n  TENDED_DISCOVERY_SHARE: ${e.TENDED_DISCOVERY_SHARE} is more than TENDED_DISCOVERY_DAILY (${e.TENDED_DISCOVERY_DAILY}); a share that large lets one client spend the whole day`,
    );
  // Following holds every GitHub repository its packages name, read in GraphQL batches, and
  // GitHub answers GraphQL only with a token: without one, following would stall on REST's 60 an hour.
  if ((e.TENDED_FOLLOW ?? []).length > 0 && e.GITHUB_TOKEN === undefined)
    throw new ConfigError(
      'invalid configuration:\n  TENDED_FOLLOW is set but GITHUB_TOKEN is not: following reads every held GitHub repository in GraphQL batches, and GitHub answers GraphQL only with a token (one with public read access is enough); set GITHUB_TOKEN, or unset TENDED_FOLLOW',
    );
  const metrics = e.TENDED_METRICS_ADDRESS === undefined ? null : hostAndPort(e.TENDED_METRICS_ADDRESS);
  if (metrics && metrics.port !== 0 && metrics.port === e.PORT && metrics.host === e.HOST)
    throw new ConfigError(
      `invalid configuration:\n  TENDED_METRICS_ADDRESS: ${e.TENDED_METRICS_ADDRESS} is the service's own address (HOST:PORT); metrics need an address of their own`,
    );
  const dataDir = e.DATABASE_URL.startsWith('sqlite:') ? dirOf(e.DATABASE_URL.slice('sqlite:'.length)) : './data';
  const strip = (u: string) => trimTrailing(u, '/');
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL ?? null,
    upstreams: Object.freeze({
      github: strip(e.TENDED_GITHUB_API_URL),
      npm: strip(e.TENDED_NPM_REGISTRY_URL),
      pypi: strip(e.TENDED_PYPI_URL),
      endoflife: strip(e.TENDED_EOL_API_URL),
      dockerhub: strip(e.TENDED_DOCKERHUB_API_URL),
      dependents: strip(e.TENDED_DEPENDENTS_URL),
      dependentsRegistry: e.TENDED_DEPENDENTS_REGISTRY,
      maven: strip(e.TENDED_MAVEN_URL),
      goproxy: strip(e.TENDED_GOPROXY_URL),
      rubygems: strip(e.TENDED_RUBYGEMS_URL),
      packagist: strip(e.TENDED_PACKAGIST_URL),
      crates: strip(e.TENDED_CRATES_URL),
      cratesIndex: strip(e.TENDED_CRATES_INDEX_URL),
      nuget: strip(e.TENDED_NUGET_URL),
      osv: strip(e.TENDED_OSV_URL),
    }),
    githubToken: e.GITHUB_TOKEN ?? null,
    observer: e.TENDED_OBSERVER === 'on',
    webhookAllowPrivate: e.TENDED_WEBHOOK_ALLOW_PRIVATE === 'on',
    signingKeyPath: e.TENDED_SIGNING_KEY ?? `${dataDir}/checkpoint-key.pem`,
    origin: e.TENDED_ORIGIN,
    verdicts: e.TENDED_VERDICTS === 'on',
    rateLimitFree: e.TENDED_RATE_LIMIT_FREE,
    rateLimitKey: e.TENDED_RATE_LIMIT_KEY,
    trustProxy: Object.freeze(e.TENDED_TRUST_PROXY ?? []),
    pageMinDependents: e.TENDED_PAGE_MIN_DEPENDENTS,
    exportDir: e.TENDED_EXPORT_DIR ?? `${dataDir}/exports`,
    answerCacheBytes: e.TENDED_ANSWER_CACHE_BYTES,
    parsing: Object.freeze({
      ...DEFAULT_PARSE_OPTIONS,
      threads: e.TENDED_PARSE_THREADS,
      deadlineMs: e.TENDED_PARSE_DEADLINE_MS,
      memoryMb: e.TENDED_PARSE_MEMORY_MB,
    }),
    bodies: Object.freeze({
      ...DEFAULT_BODY_BUDGET,
      totalBytes: e.TENDED_BODY_MEMORY_MB * 1024 * 1024,
      minBytesPerSecond: e.TENDED_BODY_MIN_RATE_KB * 1024,
    }),
    discovery: Object.freeze({
      enabled: e.TENDED_DISCOVERY === 'on',
      dailyCap: e.TENDED_DISCOVERY_DAILY,
      // Unset, the default, but never more than the day itself (a small deployment's bound).
      clientShare: e.TENDED_DISCOVERY_SHARE ?? Math.min(DISCOVERY_SHARE_DEFAULT, e.TENDED_DISCOVERY_DAILY),
    }),
    metrics: metrics && Object.freeze(metrics),
    follow: Object.freeze({
      registries: Object.freeze([...new Set(e.TENDED_FOLLOW ?? [])] as FollowedRegistry[]),
      sweepDays: e.TENDED_SWEEP_DAYS,
      feeds: Object.freeze(
        Object.fromEntries(
          FOLLOWED_REGISTRIES.map((r) => [r, strip(String((e as Record<string, unknown>)[FEED_DEFAULTS[r].variable]))]),
        ) as FeedUrls,
      ),
      osvExport: strip(e.TENDED_OSV_EXPORT_URL),
    }),
    budgets: budgetLimits(e.GITHUB_TOKEN !== undefined, budgets.overrides),
    witnesses: Object.freeze((e.TENDED_WITNESSES ?? []).map((w) => Object.freeze(w))),
    witnessPeriodMs: e.TENDED_WITNESS_PERIOD_S * 1000,
    publicUrl: strip(e.TENDED_PUBLIC_URL ?? `http://${e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST}:${e.PORT}`),
  });
}

/** `127.0.0.1:9464` → host and port; `[::1]:9464` → `::1` and 9464 (the brackets are the address's notation only). */
function hostAndPort(address: string): { host: string; port: number } {
  const colon = address.lastIndexOf(':');
  const host = address.slice(0, colon);
  return { host: host.startsWith('[') ? host.slice(1, -1) : host, port: Number(address.slice(colon + 1)) };
}

function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? (i === 0 ? '/' : '.') : path.slice(0, i);
}
