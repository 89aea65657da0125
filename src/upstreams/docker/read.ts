/**
 * Container images on Docker Hub: the tag's last push, the deprecated-images list, and the
 * end-of-life state of the release cycles the tag runs on. Research §4.3, §5; DESIGN §3.
 */
import type { ComponentRef } from '../../domain/component.js';
import { DOCKER_HUB, parseDockerReference } from '../../domain/docker-reference.js';
import type { EvidenceValue } from '../../domain/observation.js';
import type { EndoflifeReader } from '../endoflife/read.js';
import { isEolOn } from '../endoflife/facts.js';
import type { HttpClient } from '../http/client.js';
import { activityAsOf, factsOrReading, redirectEvidence } from '../reading.js';
import type { Reading, UpstreamSource } from '../source.js';
import { classifyTagResponse } from './classify-response.js';
import { DEPRECATED_IMAGES } from './deprecated.js';
import { TAG_FACTS } from './facts.js';
import { findCycle, planEolChecks } from './tag-cycle.js';

export const DOCKER_METHOD =
  "Docker Hub tag metadata (tag_last_pushed), Tended's list of deprecated official images, and the endoflife.date release cycles the tag runs on";

/**
 * Not one of the domain's transport reasons: nothing was asked, because no public metadata
 * we can read honestly answers for this reference. Still not_observed, never a death.
 */
export const UNSUPPORTED = 'unsupported';

function unsupported(ref: ComponentRef, why: string, evidence: Record<string, EvidenceValue> = {}): Reading {
  return {
    signals: { unreachable: UNSUPPORTED },
    source: ref.id,
    evidence: { ...evidence, unreachable: UNSUPPORTED, not_read: why },
    method: DOCKER_METHOD,
  };
}

export function createDockerSource(hub: HttpClient, hubBase: string, eol: EndoflifeReader): UpstreamSource {
  return { read: (ref, today) => readDocker(hub, hubBase, eol, ref, today) };
}

async function readDocker(
  hub: HttpClient,
  hubBase: string,
  eol: EndoflifeReader,
  ref: ComponentRef,
  today: string,
): Promise<Reading> {
  const r = parseDockerReference(ref.id);
  if (typeof r === 'string') return unsupported(ref, `not an image reference (${r})`);
  if (r.domain !== DOCKER_HUB) {
    return unsupported(
      ref,
      `only Docker Hub images are read; ${r.domain} offers no public tag metadata this reader can read honestly`,
      { registry: r.domain },
    );
  }
  if (!r.tag)
    return unsupported(ref, 'a reference pinned by digest alone names no tag whose push date could be read', {
      digest: r.digest,
    });
  const [namespace = '', repository = '', ...deeper] = r.path.split('/');
  if (deeper.length > 0) return unsupported(ref, 'Docker Hub repositories are namespace/name; this path is deeper');

  const url = `${hubBase}/v2/namespaces/${encodeURIComponent(namespace)}/repositories/${encodeURIComponent(repository)}/tags/${encodeURIComponent(r.tag)}`;
  const answer = factsOrReading(
    await hub.get(url, { accept: 'application/json', facts: TAG_FACTS }),
    DOCKER_METHOD,
    classifyTagResponse,
  );
  if (answer.kind === 'settled') return answer.reading;
  const f = answer.facts;
  const evidence: Record<string, EvidenceValue> = {
    http_status: answer.status,
    tag_last_pushed: f.tag_last_pushed,
    last_updated: f.last_updated,
    tag_status: f.tag_status,
    digest: f.digest,
    ...(r.digest ? { pinned_digest: r.digest } : {}),
    ...redirectEvidence(answer.redirects),
  };
  // The legacy field stands in when a tag predates tag_last_pushed.
  const at = activityAsOf(f.tag_last_pushed ?? f.last_updated, today);
  Object.assign(evidence, at.evidence);

  const deprecation = DEPRECATED_IMAGES[r.path];
  if (deprecation) {
    // archived beats eol, so the listing is not asked.
    return {
      signals: { archived: true, lastActivity: at.lastActivity },
      source: answer.url,
      evidence: { ...evidence, deprecated: deprecation },
      method: DOCKER_METHOD,
    };
  }

  const plan = planEolChecks(r.path, r.tag);
  const checks: EvidenceValue[] = [];
  const unchecked = [...plan.unchecked];
  let eolSource: string | null = null;
  for (const lookup of plan.lookups) {
    const product = await eol.product(lookup.product);
    if (product.kind === 'unreachable') {
      // Without the listing we cannot rule out end-of-life, which would beat any push date.
      return {
        signals: product.signals,
        source: product.url,
        evidence: { ...evidence, ...product.evidence, eol_product: lookup.product },
        method: DOCKER_METHOD,
      };
    }
    if (product.kind === 'unknown') {
      unchecked.push(`endoflife.date has no product ${lookup.product} (HTTP 404)`);
      continue;
    }
    const cycle = findCycle(product.product.releases, lookup);
    if (!cycle) {
      unchecked.push(`${product.product.name} lists no release cycle for ${lookup.from}`);
      continue;
    }
    const isEol = isEolOn(cycle, today);
    if (isEol && eolSource === null) eolSource = product.url;
    checks.push({
      product: product.product.name,
      cycle: cycle.name,
      matched: lookup.from,
      eol: isEol,
      is_eol: cycle.is_eol,
      eol_from: cycle.eol_from,
      is_maintained: cycle.is_maintained,
      http_status: product.status,
      source: product.url,
    });
  }
  evidence['eol_checks'] = checks;
  if (unchecked.length > 0) evidence['eol_unchecked'] = unchecked;
  return {
    signals: { eol: eolSource !== null, lastActivity: at.lastActivity },
    source: eolSource ?? answer.url,
    evidence,
    method: DOCKER_METHOD,
  };
}
