/**
 * How a follower reads its feed: through the upstreams' one HTTP client (time-outs, the
 * User-Agent, body caps, rate limits), but without the conditional-request cache: a feed page is
 * read once and its facts are its events, so remembering them would only hold every page read.
 */
import type { EvidenceValue } from '../../domain/observation.js';
import type { UpstreamBudgets } from '../http/budget.js';
import type { BudgetedUpstream } from '../http/budget-limits.js';
import { HttpClient } from '../http/client.js';
import { type Answer } from '../http/answer.js';
import type { FactsSpec } from '../http/facts-spec.js';
import type { ConditionalCache } from '../http/ports.js';

/**
 * A feed that could not be read this time: nothing is assumed, the pass ends and the cursor stays.
 * `refused`: the answer was there but is one the follower will not follow on (a body past the
 * page's cap is a page larger than asked for), a fault it reports and backs off from.
 */
export type Unreachable = { unreachable: string; refused?: 'oversized_page' };

export function isUnreachable(x: unknown): x is Unreachable {
  return typeof x === 'object' && x !== null && 'unreachable' in x;
}

const FORGETFUL: ConditionalCache = {
  get: () => Promise.resolve(null),
  set: () => Promise.resolve(),
};

export interface FeedClientOptions {
  userAgent: string;
  timeoutMs: number;
  /**
   * The largest page or file read (default 256 MiB: PyPI's /simple/ and the crates.io dump at
   * scale; a registry's pageBodyCap is smaller where its pages are bounded by what they are asked).
   */
  maxBodyBytes?: number;
  /** The clock rate-limit holds are measured by. */
  now?: () => number;
  /**
   * The hosts' request budgets, shared with the readers (PyPI's /simple/ is pypi.org, whose JSON
   * API the readers read). A feed's requests go at the priority of the code that runs the pass:
   * with none, the top one, beside events (the feed is what finds them, a few requests a minute).
   */
  budgets?: UpstreamBudgets;
}

export function createFeedClient(
  upstream: string,
  base: string,
  options: FeedClientOptions,
  budget?: BudgetedUpstream,
): HttpClient {
  return new HttpClient({
    upstream,
    base,
    userAgent: options.userAgent,
    timeoutMs: options.timeoutMs,
    // A follower reads its feed in order, one request at a time.
    concurrency: 1,
    cache: FORGETFUL,
    maxBodyBytes: options.maxBodyBytes ?? 256 * 1024 * 1024,
    ...(options.now ? { now: options.now } : {}),
    ...(options.budgets && budget ? { budget: options.budgets.of(budget) } : {}),
  });
}

/**
 * A parser as the client's facts: a feed page's facts are what the page says. `from` is the
 * module that exports the spec made here (its import.meta.url), for the thread that reads big pages.
 */
export function parsedBy<F extends EvidenceValue>(
  name: string,
  parse: (body: unknown) => F | string,
  from: string,
): FactsSpec<F> {
  return { version: name, from, extract: (body) => parse(body) };
}

/** Why an answer is not one the follower can use, in a sentence for its status. */
export function unreachableOf(answer: Exclude<Answer<unknown>, { kind: 'facts' }>): Unreachable {
  if (answer.kind === 'unreachable') {
    const unreachable = `${answer.url}: ${answer.reason} (${JSON.stringify(answer.evidence).slice(0, 200)})`;
    // The client's own words for a body past its cap (upstreams/http/client.ts).
    const error = answer.evidence['error'];
    const tooLarge = typeof error === 'string' && /^the body is larger than \d+ bytes/.test(error);
    return tooLarge ? { unreachable, refused: 'oversized_page' } : { unreachable };
  }
  return { unreachable: `${answer.url}: HTTP ${answer.status} ${answer.text.slice(0, 120)}` };
}
