import { utcDateOf } from '../domain/calendar.js';
import { CENSUS_KINDS, type Census, type NewCensus } from '../domain/census.js';
import type { ComponentRef } from '../domain/component.js';
import type { ObserverDeps } from './observe.js';

/**
 * `tended census`: reads the dependents count of every watched package the dependents source
 * covers and appends each read, dated when it was read. A failed read is recorded as such
 * (dependents null, with its evidence), never as zero.
 */
export async function takeCensus(
  deps: ObserverDeps,
  refs?: ComponentRef[],
  onStart?: (targets: number) => { read(): void },
): Promise<Census[]> {
  // A discovered name no read has shown public is not counted: its census leaf would publish it.
  const watched = async () => (await deps.store.watchList()).filter((w) => !w.unconfirmed).map((w) => w.component);
  const targets = (refs ?? (await watched())).filter((r) => CENSUS_KINDS.has(r.kind));
  if (targets.length === 0) return [];
  const progress = onStart?.(targets.length);
  const reads: NewCensus[] = [];
  for (const ref of targets) {
    const readAt = deps.clock.now();
    const reading = await deps.sources.dependents.read(ref);
    reads.push({
      component: ref,
      read_at: readAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      read_date: utcDateOf(readAt),
      dependents: reading.dependents,
      source: reading.source,
      evidence: reading.evidence,
      method: reading.method,
    });
    progress?.read();
  }
  return (await deps.store.appendCensus(reads, deps.notary.seal)).census;
}
