/**
 * What an observer pass does for names it discovered rather than was given: lists the owners org
 * reads queued, and keeps back the readings of discovered names no read has shown public yet.
 */
import { addDays, utcDateOf } from '../domain/calendar.js';
import { normaliseComponent, type ComponentRef } from '../domain/component.js';
import type { NewObservation } from '../domain/observation.js';
import type { Sources } from '../upstreams/source.js';
import type { RecordDeps } from './deps.js';
import { UNCONFIRMED_DAYS } from './discovery.js';

/** What these steps need of the observer's deps (ObserverDeps). */
type DiscoveryDeps = RecordDeps & { readonly sources: Sources };

/** The counts of a pass's report these steps add to (PassReport). */
interface DiscoveryTally {
  dropped: number;
  unconfirmed: number;
}

/** A component's reading, as these steps look at it. */
interface NamedReading {
  ref: ComponentRef;
  observation: NewObservation;
}

/** Whether a reading fails to show its component public: a not-found (or a registry's "not listed"), or a failed read. */
export function notShownPublic(r: NamedReading): 'not_found' | 'failed' | null {
  // A registry that proves no deletion (Maven Central, the Go proxy) says `not_listed`: as private a sign.
  if (r.observation.state === 'deleted' || r.observation.evidence['unreachable'] === 'not_listed') return 'not_found';
  if (r.observation.state === 'not_observed') return 'failed';
  return null;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Owners listed a pass: each is one GitHub request. */
const OWNERS_PER_PASS = 20;

/**
 * Lists the public repositories of the owners org reads queued, and queues those repositories as
 * discovered (due now, so this pass reads them). An owner GitHub does not show (404) is forgotten
 * with no trace; a failed listing is tried again when GitHub's hold ends, or tomorrow.
 */
export async function listQueuedOwners(deps: DiscoveryDeps, dailyCap: number, report: DiscoveryTally): Promise<void> {
  const now = deps.clock.now().toISOString();
  for (const owner of await deps.store.dueOwners(now, OWNERS_PER_PASS)) {
    const listing = await deps.sources.githubOwners.list(owner);
    if (listing.kind === 'repositories') {
      const refs = listing.names.flatMap((name) => {
        try {
          return [normaliseComponent('github', name)];
        } catch {
          return [];
        }
      });
      await deps.store.queueDiscovered(refs, now, { add: true, dailyCap });
      await deps.store.finishOwner(owner, null);
    } else if (listing.kind === 'not_found') {
      await deps.store.finishOwner(owner, null);
      report.dropped++;
    } else {
      await deps.store.finishOwner(
        owner,
        listing.retryAt ?? `${addDays(utcDateOf(deps.clock.now()), 1)}T00:00:00.000Z`,
      );
    }
  }
}

/**
 * The readings to record, without those of discovered names no read has shown public yet unless
 * this one does (DESIGN §3 "Discovery"): a not-found, or a registry's "not listed", drops the name with no trace (a private
 * package must never become a public "deleted" entry), and a failed read records nothing (the
 * name would be in the log); the name is read again tomorrow, until UNCONFIRMED_DAYS after it was
 * queued, when a failed read drops it too. Operator-watched components keep the usual rule: an
 * authoritative not-found is `deleted`.
 */
export async function withoutUnconfirmed<R extends NamedReading>(
  deps: DiscoveryDeps,
  readings: R[],
  report: DiscoveryTally,
): Promise<R[]> {
  if (readings.length === 0) return readings;
  const unconfirmed = await deps.store.unconfirmedDiscoveries(readings.map((r) => r.ref));
  if (unconfirmed.size === 0) return readings;
  const expired = new Date(deps.clock.now().getTime() - UNCONFIRMED_DAYS * DAY_MS).toISOString();
  const keep: R[] = [];
  const notShown: R[] = [];
  for (const r of readings) {
    const queuedAt = unconfirmed.get(`${r.ref.kind}:${r.ref.id}`);
    if (queuedAt === undefined) keep.push(r);
    else if (notShownPublic(r) === 'not_found') notShown.push(r);
    // Never shown public in a week of daily reads (an image on a registry Tended cannot read, a
    // host that never answers): forgotten like a not-found, rather than read, and answered for, for ever.
    else if (r.observation.state === 'not_observed' && queuedAt <= expired) notShown.push(r);
    else if (r.observation.state === 'not_observed') report.unconfirmed++;
    else keep.push(r);
  }
  if (notShown.length > 0) {
    // The URLs read (after and before redirects) may sit in the conditional-request cache.
    const urls = notShown.flatMap((r) => [r.observation.source, ...redirectUrls(r.observation.evidence)]);
    report.dropped += await deps.store.dropDiscovered(
      notShown.map((r) => r.ref),
      urls,
    );
  }
  return keep;
}

function redirectUrls(evidence: NewObservation['evidence']): string[] {
  const redirects = evidence.redirects;
  if (!Array.isArray(redirects)) return [];
  return redirects.flatMap((r) =>
    r !== null && typeof r === 'object' && !Array.isArray(r)
      ? [r.from, r.to].filter((u): u is string => typeof u === 'string')
      : [],
  );
}
