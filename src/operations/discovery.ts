import type { ComponentRef } from '../domain/component.js';
import type { RecordDeps } from './deps.js';

/**
 * Discovery (DESIGN §3): the record learns what its users ask about. A read naming one component
 * queues it when the record holds no observation of it; a submission queues its unheld components
 * only when it asks. The watch list keeps the name and nothing about the request.
 *
 * Fair and blind (DESIGN §8c). Every unheld name a request asks to queue spends one of its
 * client's daily share (TENDED_DISCOVERY_SHARE) and one of the deployment's daily bound
 * (TENDED_DISCOVERY_DAILY), whether or not someone queued it before: so no client spends the day,
 * and whether an answer says "queued" depends only on how many names were asked today, never on
 * which, and never tells one client what another asked about.
 */
export interface DiscoverySettings {
  /** TENDED_DISCOVERY. */
  readonly enabled: boolean;
  /** TENDED_DISCOVERY_DAILY: names a deployment queues per UTC day. */
  readonly dailyCap: number;
  /** TENDED_DISCOVERY_SHARE: names one client (API key, or address) may ask to queue per UTC day. */
  readonly clientShare: number;
}

/**
 * The client a request was admitted for, as discovery sees it: a share to spend and nothing else
 * (limits/client.ts keeps the identity). Absent when no rate limit runs: then only the daily bound holds.
 */
export interface DiscoveryAsker {
  /** Up to `wanted` of what is left of the client's `share` on the UTC `day`; answers how many. */
  takeShare(day: string, wanted: number, share: number): Promise<number>;
}

export type DiscoveryDeps = RecordDeps & {
  readonly discovery?: DiscoverySettings | null;
  /** The request's client (limits/client.ts clientOf); routes set it per request. */
  readonly asker?: DiscoveryAsker | null;
};

/**
 * Days a discovered name may stay queued without a read showing it public: past them, its next
 * failed read forgets it as a not-found would (operations/observe.ts). A name is read once a day,
 * so that is about seven failed confirmations; asked about again, it is queued afresh.
 */
export const UNCONFIRMED_DAYS = 7;

/** New names one request may queue: a 4 MB SBOM names tens of thousands. */
export const MAX_QUEUED_PER_REQUEST = 1_000;

/** What a submission's answer says about the components the record holds no observation of. */
export interface DiscoveryReport {
  /** Components of the answer the record holds no observation of. */
  unheld: number;
  /**
   * Of those, how many this request's bounds let it queue (each is on the list now, put there by
   * this request or before it; which, the answer does not say).
   */
  queued: number;
  /** Of those, how many are not queued; `note` says why and what to do. */
  not_queued: number;
  note: string;
}

const count = (n: number) => n.toLocaleString('en');
const ASK =
  'Send the same request with ?queue=true (MCP: the argument queue: true) to queue them for observation: each is read within a day, and answered from then on once its upstream shows it public. Nothing about the request is kept with the names.';

/**
 * How many of `wanted` names the request's client may still ask to queue today. Without a client
 * (no rate limit runs) the daily bound alone holds.
 */
async function shareOf(deps: DiscoveryDeps, settings: DiscoverySettings, wanted: number): Promise<number> {
  if (!deps.asker) return wanted;
  return deps.asker.takeShare(utcDay(deps), wanted, settings.clientShare);
}

const utcDay = (deps: DiscoveryDeps) => deps.clock.now().toISOString().slice(0, 10);

/**
 * Queues the unheld components of a submission when it asks (`ask`), within the per-request
 * bound, the client's share and the daily bound. Without asking, nothing is looked up or written:
 * the answer only counts them. Asking, the first names the bounds allow are answered queued and
 * the rest not, whoever asked for them before.
 */
export async function queueSubmitted(
  deps: DiscoveryDeps,
  unheld: ComponentRef[],
  ask: boolean,
): Promise<{ listed: Set<string>; report: DiscoveryReport | null }> {
  const listed = new Set<string>();
  // No settings at all: not a service (the CLI's local check), which says its own thing.
  if (unheld.length === 0 || deps.discovery === undefined) return { listed, report: null };
  const n = unheld.length;
  const what = `Tended holds no observation of ${count(n)} of these components.`;
  const settings = deps.discovery;
  if (!settings?.enabled)
    return {
      listed,
      report: {
        unheld: n,
        queued: 0,
        not_queued: n,
        note: `${what} This deployment does not queue components for observation (TENDED_DISCOVERY=off)${ask ? ': nothing was queued' : ''}.`,
      },
    };
  if (!ask) return { listed, report: { unheld: n, queued: 0, not_queued: n, note: `${what} ${ASK}` } };
  const asked = unheld.slice(0, MAX_QUEUED_PER_REQUEST);
  const granted = await shareOf(deps, settings, asked.length);
  const outcome =
    granted > 0
      ? await deps.store.queueDiscovered(asked.slice(0, granted), deps.clock.now().toISOString(), {
          add: true,
          dailyCap: settings.dailyCap,
          countAsked: true,
        })
      : { listed, over_cap: 0 };
  const queued = outcome.listed.size;
  const parts = [
    `${what} ${count(queued)} of them are queued for observation: each is read within a day, and answered from then on once its upstream shows it public. Until then each answers "not checked yet" (not_observed).`,
  ];
  if (n > asked.length)
    parts.push(
      `One request queues at most ${count(MAX_QUEUED_PER_REQUEST)} names; ${count(n - asked.length)} were not queued: send them in another request.`,
    );
  if (asked.length > granted)
    parts.push(
      `One client (an API key, or an address without one) may ask to queue ${count(settings.clientShare)} names a UTC day, and this one has used its share; ${count(asked.length - granted)} were not queued: ask again after midnight UTC.`,
    );
  if (outcome.over_cap > 0)
    parts.push(
      `This deployment's daily bound on queued names (${count(settings.dailyCap)}) is reached; ${count(outcome.over_cap)} were not queued: ask again after midnight UTC.`,
    );
  return { listed: outcome.listed, report: { unheld: n, queued, not_queued: n - queued, note: parts.join(' ') } };
}

/**
 * How a read naming one unheld component left it. `over-cap`: a bound stopped it, the client's
 * share or the deployment's (one sentence for both: either way the client asks again tomorrow).
 */
export type SingleQueueStatus = 'queued' | 'over-cap' | 'off';

/** Queues one component a read named, when the record holds no observation of it. */
export async function queueNamed(deps: DiscoveryDeps, ref: ComponentRef): Promise<SingleQueueStatus> {
  const settings = deps.discovery;
  if (!settings?.enabled) return 'off';
  if ((await shareOf(deps, settings, 1)) === 0) return 'over-cap';
  const outcome = await deps.store.queueDiscovered([ref], deps.clock.now().toISOString(), {
    add: true,
    dailyCap: settings.dailyCap,
    countAsked: true,
  });
  return outcome.listed.size > 0 ? 'queued' : 'over-cap';
}

const OVER_CAP =
  ': this is "not checked", never "gone". This read did not queue it for observation: today\'s bound on names queued (this deployment\'s, or this client\'s share of it) is reached; ask again after midnight UTC.';

/** Queues a GitHub owner an org read named, when the record holds nothing under it. */
export async function queueOwnerNamed(deps: DiscoveryDeps, owner: string): Promise<SingleQueueStatus> {
  const settings = deps.discovery;
  if (!settings?.enabled) return 'off';
  if ((await shareOf(deps, settings, 1)) === 0) return 'over-cap';
  const outcome = await deps.store.queueOwner(owner, deps.clock.now().toISOString(), settings.dailyCap);
  return outcome === 'over_cap' ? 'over-cap' : 'queued';
}

/** The sentence an org answer holding nothing carries, by how discovery left the owner. */
export function ownerNote(owner: string, asOf: string, status: SingleQueueStatus): string {
  const none = `Tended holds no observation under ${owner} on or before ${asOf}`;
  switch (status) {
    case 'queued':
      return `Not checked yet; queued for observation. ${none}: its public repositories are listed and read within a day, and answered from then on. Not checked is never "gone".`;
    case 'over-cap':
      return `${none}${OVER_CAP}`;
    case 'off':
      return `${none}: not checked, never "gone".`;
  }
}

/** The sentence an answer for one unheld component carries, by how discovery left it. */
export function unheldNote(ref: ComponentRef, asOf: string, status: SingleQueueStatus): string {
  const none = `Tended holds no observation of ${ref.id} on or before ${asOf}`;
  switch (status) {
    case 'queued':
      return `Not checked yet; queued for observation. ${none}: it is read within a day, and answered from then on once its upstream shows it public. Not checked is never "gone".`;
    case 'over-cap':
      return `${none}${OVER_CAP}`;
    case 'off':
      return `No observation of ${ref.id} on or before ${asOf}: this is "not checked", never "gone".`;
  }
}
