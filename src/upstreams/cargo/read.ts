/**
 * Rust crates (research upstreams-more §3, DESIGN §3): the sparse index file, which crates.io asks
 * readers to prefer (no rate limit). Activity is the latest `pubtime` over versions not yanked;
 * when the index has none (versions older than that field), the crates API's `created_at` of the
 * newest offered version. Every version yanked is archived; the index's not-found is a deletion.
 * A crate the index offers is also looked up in OSV: a RustSec advisory in force declaring it
 * unmaintained archives it, like a registry's deprecation flag (advisories.ts has the rule).
 */
import type { ComponentRef } from '../../domain/component.js';
import type { HttpClient } from '../http/client.js';
import type { EvidenceValue } from '../../domain/observation.js';
import { activityAsOf, factsOrReading, unexpectedStatus, unreachableReading } from '../reading.js';
import type { Reading, UpstreamSource } from '../source.js';
import { crateDeclarations, OSV_QUERY_FACTS, type OsvAdvisory } from './advisories.js';
import { classifyIndexResponse } from './classify-response.js';
import { INDEX_FACTS, VERSION_FACTS } from './facts.js';

export const CARGO_METHOD =
  'crates.io sparse index: the latest pubtime over versions not yanked (else the crates API\'s created_at of the newest), and whether every version is yanked; OSV\'s RustSec advisories for the crate (informational "unmaintained", not withdrawn)';

/** The index path of a (lower-cased) name: `1/a`, `2/ab`, `3/a/abc`, `se/rd/serde`. */
export function indexPath(name: string): string {
  if (name.length <= 2) return `${name.length}/${name}`;
  if (name.length === 3) return `3/${name[0]}/${name}`;
  return `${name.slice(0, 2)}/${name.slice(2, 4)}/${name}`;
}

/** A host and the client that spends its budget. */
export interface CargoHost {
  client: HttpClient;
  base: string;
}

export function createCargoSource(index: CargoHost, api: CargoHost, osv: CargoHost): UpstreamSource {
  return { read: (ref, today) => readCargo(index, api, osv, ref, today) };
}

async function readCargo(
  { client: index, base: indexBase }: CargoHost,
  { client: api, base: apiBase }: CargoHost,
  osv: CargoHost,
  ref: ComponentRef,
  today: string,
): Promise<Reading> {
  const answer = factsOrReading(
    await index.get(`${indexBase}/${indexPath(ref.id)}`, {
      accept: 'text/plain',
      body: 'text',
      facts: INDEX_FACTS,
    }),
    CARGO_METHOD,
    classifyIndexResponse,
  );
  if (answer.kind === 'settled') return answer.reading;
  const f = answer.facts;
  const evidence: Record<string, EvidenceValue> = {
    http_status: answer.status,
    versions: f.versions,
    yanked: f.yanked,
    latest_version: f.latest_version,
    last_published: f.last_published,
  };
  if (f.latest_version === null)
    return {
      signals: { archived: true },
      source: answer.url,
      evidence: { ...evidence, all_yanked: true },
      method: CARGO_METHOD,
    };
  const declared = await readDeclarations(osv, ref, evidence);
  if ('signals' in declared) return declared;
  Object.assign(evidence, declared.evidence);
  let published = f.last_published;
  let source = answer.url;
  if (published === null) {
    // Versions published before the index carried pubtime: the API dates the newest one.
    const version = await api.get(
      `${apiBase}/api/v1/crates/${encodeURIComponent(ref.id)}/${encodeURIComponent(f.latest_version)}`,
      { accept: 'application/json', facts: VERSION_FACTS },
    );
    if (version.kind === 'unreachable') return unreachableReading(version, CARGO_METHOD, evidence);
    if (version.kind === 'status') {
      const v = classifyIndexResponse(version);
      // The index lists the crate: a not-found from the API is no deletion, only no date.
      return {
        signals: v.signals.notFound ? { lastActivity: null } : v.signals,
        source: version.url,
        evidence: { ...evidence, ...v.evidence, api_http_status: version.status },
        method: CARGO_METHOD,
      };
    }
    published = version.facts.created_at;
    source = version.url;
  }
  const at = activityAsOf(published, today);
  return {
    signals: { lastActivity: at.lastActivity },
    source,
    evidence: { ...evidence, published, ...at.evidence },
    method: CARGO_METHOD,
  };
}

/** The advisory as the evidence keeps it: what a person needs to find and date it. */
function advisoryEvidence(a: OsvAdvisory): Record<string, EvidenceValue> {
  return { advisory: a.id, published: a.published, modified: a.modified, url: a.url, summary: a.summary };
}

/**
 * OSV's advisories for the crate: an archived reading when one in force declares it unmaintained,
 * a failed one when OSV could not be read (without it "archived", which beats any age, cannot be
 * ruled out), else the evidence to add to the age reading.
 */
async function readDeclarations(
  { client, base }: CargoHost,
  ref: ComponentRef,
  evidence: Record<string, EvidenceValue>,
): Promise<Reading | { evidence: Record<string, EvidenceValue> }> {
  const url = `${base}/v1/query`;
  const answer = await client.get(url, {
    accept: 'application/json',
    facts: OSV_QUERY_FACTS,
    post: {
      contentType: 'application/json',
      body: JSON.stringify({ package: { name: ref.id, ecosystem: 'crates.io' } }),
    },
  });
  if (answer.kind === 'unreachable') {
    const failed = unreachableReading(answer, CARGO_METHOD);
    return { ...failed, evidence: { ...evidence, ...osvFailure(failed.evidence) } };
  }
  if (answer.kind === 'status') {
    const v = unexpectedStatus(answer);
    return {
      signals: v.signals,
      source: answer.url,
      evidence: { ...evidence, ...osvFailure(v.evidence) },
      method: CARGO_METHOD,
    };
  }
  const d = crateDeclarations(answer.facts, ref.id);
  const read: Record<string, EvidenceValue> = {
    osv_advisories: answer.facts.advisories.length,
    ...(answer.facts.more_pages ? { osv_more_pages: true } : {}),
    ...(d.withdrawn.length > 0 ? { withdrawn_advisories: d.withdrawn.map(advisoryEvidence) } : {}),
  };
  const first = d.unmaintained[0];
  if (!first) return { evidence: read };
  return {
    signals: { archived: true },
    source: `${base}/v1/vulns/${encodeURIComponent(first.id)}`,
    evidence: {
      ...evidence,
      ...read,
      archived_because: 'a RustSec advisory declares the crate unmaintained',
      declaration: advisoryEvidence(first),
      ...(d.unmaintained.length > 1 ? { unmaintained_advisories: d.unmaintained.map((a) => a.id) } : {}),
    },
    method: CARGO_METHOD,
  };
}

/** A failed OSV read, named as OSV's so it is not taken for the index's. */
function osvFailure(e: Record<string, EvidenceValue>): Record<string, EvidenceValue> {
  const { http_status, ...rest } = e;
  return { ...rest, ...(http_status !== undefined ? { osv_http_status: http_status } : {}) };
}
