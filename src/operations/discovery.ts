import type { ComponentRef } from '../domain/component.js';
import type { RecordDeps } from './deps.js';

/**
 * Discovery (DESIGN §3): the record learns what its users ask about. A read naming one component
 * queues it when the record holds no observation of it; a submission queues its unheld components
 * only when it asks. The watch list keeps the name and nothing about the request.
 */
export interface DiscoverySettings {
  /** TENDED_DISCOVERY. */
  readonly enabled: boolean;
  /** TENDED_DISCOVERY_DAILY: new names a deployment queues per UTC day. */
  readonly dailyCap: number;
}

export type DiscoveryDeps = RecordDeps & { readonly discovery?: DiscoverySettings | null };

/** New names one request may queue: a 4 MB SBOM names tens of thousands. */
export const MAX_QUEUED_PER_REQUEST = 1_000;

/** What a submission's answer says about the components the record holds no observation of. */
export interface DiscoveryReport {
  /** Components of the answer the record holds no observation of. */
  unheld: number;
  /** Of those, how many are now queued for observation (by this request or before it). */
  queued: number;
  /** Of those, how many are not queued; `note` says why and what to do. */
  not_queued: number;
  note: string;
}

const count = (n: number) => n.toLocaleString('en');
const ASK =
  'Send the same request with ?queue=true (MCP: the argument queue: true) to queue them for observation: each is read within a day, and answered from then on once its upstream shows it public. Nothing about the request is kept with the names.';

/**
 * Queues the unheld components of a submission when it asks (`ask`), within the per-request and
 * daily bounds. Without asking, nothing is looked up or written: the answer only counts them, so a
 * submission's answer never reveals what anyone else asked about.
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
  if (!deps.discovery?.enabled)
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
  const outcome = await deps.store.queueDiscovered(asked, deps.clock.now().toISOString(), {
    add: true,
    dailyCap: deps.discovery.dailyCap,
  });
  const queued = outcome.listed.size;
  const parts = [
    `${what} ${count(queued)} of them are queued for observation: each is read within a day, and answered from then on once its upstream shows it public. Until then each answers "not checked yet" (not_observed).`,
  ];
  if (n > asked.length)
    parts.push(
      `One request queues at most ${count(MAX_QUEUED_PER_REQUEST)} names; ${count(n - asked.length)} were not queued: send them in another request.`,
    );
  if (outcome.over_cap > 0)
    parts.push(
      `This deployment's daily bound on newly queued names (${count(deps.discovery.dailyCap)}) is reached; ${count(outcome.over_cap)} were not queued: ask again after midnight UTC.`,
    );
  return { listed: outcome.listed, report: { unheld: n, queued, not_queued: n - queued, note: parts.join(' ') } };
}

/** How a read naming one unheld component left it. */
export type SingleQueueStatus = 'queued' | 'over-cap' | 'off';

/** Queues one component a read named, when the record holds no observation of it. */
export async function queueNamed(deps: DiscoveryDeps, ref: ComponentRef): Promise<SingleQueueStatus> {
  if (!deps.discovery?.enabled) return 'off';
  const outcome = await deps.store.queueDiscovered([ref], deps.clock.now().toISOString(), {
    add: true,
    dailyCap: deps.discovery.dailyCap,
  });
  return outcome.listed.size > 0 ? 'queued' : 'over-cap';
}

const OVER_CAP =
  ': this is "not checked", never "gone". It was not queued for observation: this deployment\'s daily bound on newly queued names is reached; ask again after midnight UTC.';

/** Queues a GitHub owner an org read named, when the record holds nothing under it. */
export async function queueOwnerNamed(deps: DiscoveryDeps, owner: string): Promise<SingleQueueStatus> {
  if (!deps.discovery?.enabled) return 'off';
  const outcome = await deps.store.queueOwner(owner, deps.clock.now().toISOString(), deps.discovery.dailyCap);
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
