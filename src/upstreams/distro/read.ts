/**
 * Distribution releases (`debian/12`, `alpine-linux/3.19`), which answer for the OS packages of
 * an SBOM (research upstreams-more §7, DESIGN §3): `eol` once the end-of-life listing says the
 * release's support has ended; `alive` while it says the release is supported, whatever the age
 * of its latest point release (RHEL 8 ships one a year or so and is supported to 2029); aged by
 * that point release only when the listing no longer marks it supported but not yet end-of-life.
 * A release the listing does not know is `not_observed`, never a deletion.
 */
import type { ComponentRef } from '../../domain/component.js';
import type { EvidenceValue } from '../../domain/observation.js';
import type { EndoflifeReader } from '../endoflife/read.js';
import { isEolOn, isSupportedOn, type ReleaseFacts } from '../endoflife/facts.js';
import { activityAsOf } from '../reading.js';
import type { Reading, UpstreamSource } from '../source.js';

export const DISTRO_METHOD =
  "endoflife.date: the distribution release's end-of-life date and support status (a supported release is alive); for a release no longer marked supported but not yet end-of-life, the date of its latest point release";

export function createDistroSource(eol: EndoflifeReader): UpstreamSource {
  return { read: (ref, today) => readDistro(eol, ref, today) };
}

/** The release named exactly, else by its leading numbers (RHEL 8 for 8.10). */
function findRelease(releases: readonly ReleaseFacts[], name: string): ReleaseFacts | null {
  const parts = name.split('.');
  for (let n = parts.length; n >= 1; n--) {
    const hit = releases.find((r) => r.name.toLowerCase() === parts.slice(0, n).join('.'));
    if (hit) return hit;
  }
  return null;
}

async function readDistro(eol: EndoflifeReader, ref: ComponentRef, today: string): Promise<Reading> {
  const slash = ref.id.indexOf('/');
  const product = ref.id.slice(0, slash);
  const name = ref.id.slice(slash + 1);
  const answer = await eol.product(product);
  if (answer.kind === 'unreachable')
    return { signals: answer.signals, source: answer.url, evidence: answer.evidence, method: DISTRO_METHOD };
  const notListed = (why: string, more: Record<string, EvidenceValue> = {}): Reading => ({
    signals: { unreachable: 'not_listed' },
    source: answer.url,
    evidence: { ...answer.evidence, ...more, unreachable: 'not_listed', not_listed: why },
    method: DISTRO_METHOD,
  });
  if (answer.kind === 'unknown') return notListed(`endoflife.date lists no product ${product}`);
  const release = findRelease(answer.product.releases, name);
  if (!release)
    return notListed(`endoflife.date lists no release ${name} of ${answer.product.name}`, {
      http_status: answer.status,
    });
  const isEol = isEolOn(release, today);
  const supported = isSupportedOn(release, today);
  const at = activityAsOf(release.latest_date === null ? null : `${release.latest_date}T00:00:00Z`, today);
  return {
    signals: { eol: isEol, supported, lastActivity: at.lastActivity },
    source: answer.url,
    evidence: {
      http_status: answer.status,
      product: answer.product.name,
      release: release.name,
      codename: release.codename,
      eol: isEol,
      supported,
      is_eol: release.is_eol,
      eol_from: release.eol_from,
      is_maintained: release.is_maintained,
      eoes_from: release.eoes_from,
      latest: release.latest,
      latest_date: release.latest_date,
      ...at.evidence,
    },
    method: DISTRO_METHOD,
  };
}
