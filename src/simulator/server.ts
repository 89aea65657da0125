/**
 * One loopback HTTP server that answers like every upstream Tended reads, each under its own
 * path prefix (`/github`, `/npm`, `/pypi`, `/endoflife`, `/dockerhub`, `/dependents`). What it
 * says comes from a scenario whose dated phases are picked by the clock, so `faketime` (or the
 * `clock` option) moves every component through its life. Healthy answers carry ETags and are
 * answered 304 to a matching If-None-Match; chaos replaces a seeded share of answers by faults.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { utcDateOf } from '../domain/calendar.js';
import type { UpstreamOptions } from '../upstreams/source.js';
import { commonFailure, type Ctx, type HttpAnswer, type SimAnswer, type Upstream } from './answer.js';
import { answerDependents } from './dependents.js';
import { answerDockerhub } from './dockerhub.js';
import { answerEndoflife } from './endoflife.js';
import { answerGithub, GithubBudget } from './github.js';
import { GithubGraphql } from './github-graphql.js';
import { answerNpm } from './npm.js';
import { answerGoproxy } from './goproxy.js';
import { answerMaven } from './maven.js';
import { answerRubygems } from './rubygems.js';
import { answerPackagist } from './packagist.js';
import { answerCratesApi, answerCratesIndex } from './crates.js';
import { answerNuget } from './nuget.js';
import { answerOsv } from './osv.js';
import { answerOsvExport } from './osv-export.js';
import { answerPypi } from './pypi.js';
import { seededRandom } from './random.js';
import { parseScenario, type Scenario } from './scenario.js';
import { type CommonFail } from './scenario-phases.js';
import { World } from './world.js';
import type { FeedUrls, FollowedRegistry } from '../upstreams/following/follower.js';
import type { FeedFaults } from './registries/faults.js';
import {
  FEED_ONLY_PREFIXES,
  FEED_ROUTES,
  GeneratedRegistries,
  type GeneratedRegistriesOptions,
} from './registries/registries.js';
import { Traffic, type Budget } from './traffic.js';

export interface SimulatorOptions {
  scenario: Scenario;
  port?: number;
  host?: string;
  /** With probability `rate` (seeded), an answer is replaced by a random fault. */
  chaos?: { rate: number; seed: number };
  /** The simulated moment (default: the system clock, which faketime moves). */
  clock?: () => Date;
  /** How long a hanging answer holds the connection before dropping it (default 120 s). */
  hangMs?: number;
  /** Whole registries generated from a seed, each feed served at its real path (registries/). */
  registries?: GeneratedRegistriesOptions;
  /** Request budgets by path prefix (`npm`, `replicate`, `pypi`…): a request past one is refused 429 and recorded. */
  budgets?: Record<string, Budget>;
}

export interface SimulatedRequest {
  method: string;
  path: string;
  /** 0 when no HTTP answer was sent (a hang or a reset). */
  status: number;
  conditional: boolean;
}

export interface Simulator {
  url: string;
  /** Every upstream's base URL, and OSV's export bucket (a feed's, but read only beside crates.io's). */
  urls: UpstreamOptions['urls'] & { osvExport: string };
  close(): Promise<void>;
  requests: SimulatedRequest[];
  setScenario(s: Scenario): void;
  /** Each generated registry's feed base URL (those not generated point at their prefix all the same). */
  feeds: FeedUrls;
  /** Requests counted per upstream, per second and per day, and every budget violation. */
  traffic: Traffic;
  /** GitHub's GraphQL endpoint: queries answered and points spent. */
  githubGraphql(): GithubGraphql;
  registries: GeneratedRegistries | null;
  setFeedFaults(faults: FeedFaults): void;
}

const HANDLERS: Record<Upstream, (ctx: Ctx, world: World) => SimAnswer> = {
  github: answerGithub,
  npm: answerNpm,
  pypi: answerPypi,
  endoflife: answerEndoflife,
  dockerhub: answerDockerhub,
  maven: answerMaven,
  goproxy: answerGoproxy,
  rubygems: answerRubygems,
  packagist: answerPackagist,
  cratesindex: answerCratesIndex,
  crates: answerCratesApi,
  nuget: answerNuget,
  osv: answerOsv,
  osvexport: answerOsvExport,
  dependents: answerDependents,
};
const UPSTREAMS = Object.keys(HANDLERS) as Upstream[];
const CHAOS_FAULTS: CommonFail[] = ['rate_limit_403', 'rate_limit_429', 'server_error', 'reset', 'timeout'];
/** The request log stops growing here, so a long demo does not eat memory. */
const MAX_LOGGED = 1_000_000;

/** Weak comparison (RFC 9110 §13.1.2): W/"x" matches "x". */
function etagMatches(header: string | string[] | undefined, etag: string): boolean {
  if (typeof header !== 'string') return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => t.trim() === '*' || bare(t) === bare(etag));
}

function isConditional(req: IncomingMessage): boolean {
  return req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined;
}

/** Adds the ETag to a cacheable 200, and turns it into a 304 when the client already holds it. */
function revalidate(upstream: Upstream, req: IncomingMessage, answer: HttpAnswer): HttpAnswer {
  if (answer.status !== 200 || !answer.cacheable) return answer;
  const hash = createHash('sha1').update(answer.body).digest('base64url').slice(0, 20);
  // GitHub's ETags are weak; the others are strong.
  const etag = upstream === 'github' ? `W/"${hash}"` : `"${hash}"`;
  const headers: Record<string, string> = { ...answer.headers, etag };
  if (upstream === 'github') headers['cache-control'] = 'public, max-age=60, s-maxage=60';
  if (answer.lastModified) headers['last-modified'] = answer.lastModified;
  const ims = req.headers['if-modified-since'];
  const notModified =
    req.headers['if-none-match'] !== undefined
      ? etagMatches(req.headers['if-none-match'], etag)
      : answer.lastModified !== undefined &&
        typeof ims === 'string' &&
        Date.parse(ims) >= Date.parse(answer.lastModified);
  if (!notModified) return { ...answer, headers };
  const { 'content-type': _dropped, ...rest } = headers;
  return { status: 304, headers: rest, body: '' };
}

export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  const registries = options.registries ? new GeneratedRegistries(options.registries) : null;
  const traffic = new Traffic(options.budgets ?? {});
  let world = new World(parseScenario(options.scenario), registries);
  let budget = new GithubBudget(world.scenario.github_rate_limit);
  let graphql = new GithubGraphql(world.scenario.github_graphql);
  const clock = options.clock ?? (() => new Date());
  const random = options.chaos ? seededRandom(options.chaos.seed) : null;
  const requests: SimulatedRequest[] = [];
  const sockets = new Set<Socket>();
  const hangs = new Set<NodeJS.Timeout>();
  const log = (entry: SimulatedRequest) => {
    if (requests.length < MAX_LOGGED) requests.push(entry);
  };

  const handle = (req: IncomingMessage, res: ServerResponse, body: string): void => {
    const url = new URL(req.url ?? '/', 'http://simulator.invalid');
    const method = req.method ?? 'GET';
    const conditional = isConditional(req);
    const prefixes: readonly string[] = registries ? [...UPSTREAMS, ...FEED_ONLY_PREFIXES] : UPSTREAMS;
    const prefix = prefixes.find((u) => url.pathname === `/${u}` || url.pathname.startsWith(`/${u}/`));
    const upstream = UPSTREAMS.find((u) => u === prefix);
    const now = clock();
    res.setHeader('date', now.toUTCString());
    const send = (answer: HttpAnswer) => {
      log({ method, path: `${url.pathname}${url.search}`, status: answer.status, conditional });
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    };
    if (!prefix)
      return send({
        status: 404,
        headers: { 'content-type': 'text/plain' },
        body: `no simulated upstream at ${url.pathname}`,
      });
    const refused = traffic.count(prefix, utcDateOf(now), `${url.pathname}${url.search}`);
    if (refused)
      return send({
        ...refused,
        headers: { ...refused.headers, 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({ error: `over the simulator's budget for ${prefix}` }),
      });
    const ctx: Ctx = {
      base: `http://${req.headers.host ?? 'localhost'}/${prefix}`,
      path: url.pathname.slice(prefix.length + 1) || '/',
      query: url.searchParams,
      headers: req.headers,
      today: utcDateOf(now),
      nowSec: Math.floor(now.getTime() / 1000),
      authorized: typeof req.headers.authorization === 'string',
      short: false,
      ...(method === 'POST' ? { body } : {}),
    };
    // A generated registry's feed first: its listing routes sit beside the per-package ones.
    const feed = registries?.answer(prefix, { ctx, method, body, nowMs: now.getTime() }) ?? null;
    if (feed && !('fault' in feed)) return send(method === 'HEAD' ? { ...feed, body: '' } : feed);
    // GitHub's one POST route: the GraphQL endpoint, with its own points, not REST's request budget.
    const isGraphql = upstream === 'github' && ctx.path === '/graphql';
    // OSV's query is a POST too (with the package in its body).
    const isPost = isGraphql || (upstream === 'osv' && ctx.path === '/v1/query');
    if (isPost && method !== 'POST') return send({ status: 405, headers: { allow: 'POST' }, body: '' });
    if (method !== 'GET' && method !== 'HEAD' && !isPost)
      return send({ status: 405, headers: { allow: 'GET, HEAD' }, body: '' });
    if (!upstream)
      return send({ status: 404, headers: { 'content-type': 'text/plain' }, body: `nothing at ${url.pathname}` });
    let answer: SimAnswer;
    if (random && random() < (options.chaos?.rate ?? 0)) {
      const fault = CHAOS_FAULTS[Math.floor(random() * CHAOS_FAULTS.length)] ?? 'server_error';
      answer = commonFailure(upstream, fault, { ...ctx, short: true });
    } else {
      answer = isGraphql
        ? graphql.answer(ctx, world, body)
        : ((upstream === 'github' ? budget.exhausted(ctx) : null) ?? HANDLERS[upstream](ctx, world));
    }
    if ('fault' in answer) {
      log({ method, path: `${url.pathname}${url.search}`, status: 0, conditional });
      if (answer.fault === 'reset') {
        req.socket.destroy();
        return;
      }
      // Hang: say nothing until the client gives up, or drop the connection much later.
      const timer = setTimeout(() => {
        hangs.delete(timer);
        req.socket.destroy();
      }, options.hangMs ?? 120_000);
      hangs.add(timer);
      req.socket.once('close', () => {
        clearTimeout(timer);
        hangs.delete(timer);
      });
      return;
    }
    const final = isGraphql ? answer : revalidate(upstream, req, answer);
    if (upstream === 'github' && !isGraphql) budget.account(ctx, final);
    send(method === 'HEAD' ? { ...final, body: '' } : final);
  };

  const server = createServer((req, res) => {
    // The body only matters to XML-RPC (PyPI's journal); a GET's is empty and ends at once.
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        handle(req, res, Buffer.concat(chunks).toString('utf8'));
      } catch (error) {
        // A bug in a handler is the simulator's, not an upstream behaviour: say so loudly.
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`simulator error: ${error instanceof Error ? error.stack : String(error)}`);
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const root = `http://${host}:${address.port}`;
  return {
    url: root,
    urls: {
      github: `${root}/github`,
      npm: `${root}/npm`,
      pypi: `${root}/pypi`,
      endoflife: `${root}/endoflife`,
      dockerhub: `${root}/dockerhub`,
      dependents: `${root}/dependents`,
      dependentsRegistry: world.scenario.dependents_registry ?? 'npmjs.org',
      maven: `${root}/maven/maven2`,
      goproxy: `${root}/goproxy`,
      rubygems: `${root}/rubygems`,
      packagist: `${root}/packagist`,
      cratesIndex: `${root}/cratesindex`,
      crates: `${root}/crates`,
      nuget: `${root}/nuget`,
      osv: `${root}/osv`,
      osvExport: `${root}/osvexport`,
    },
    requests,
    feeds: Object.fromEntries(
      Object.entries(FEED_ROUTES).map(([registry, route]) => [registry, `${root}/${route.prefix}`]),
    ) as Record<FollowedRegistry, string>,
    traffic,
    githubGraphql: () => graphql,
    registries,
    setFeedFaults(faults: FeedFaults) {
      if (registries) registries.faults = faults;
    },
    setScenario(s: Scenario) {
      world = new World(parseScenario(s), registries);
      budget = new GithubBudget(world.scenario.github_rate_limit);
      graphql = new GithubGraphql(world.scenario.github_graphql);
    },
    async close() {
      for (const t of hangs) clearTimeout(t);
      hangs.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      await closed;
    },
  };
}
