/**
 * Rust crates (research upstreams-more §3, DESIGN §3): the sparse index file, which crates.io asks
 * readers to prefer (no rate limit). Activity is the latest `pubtime` over versions not yanked;
 * when the index has none (versions older than that field), the crates API's `created_at` of the
 * newest offered version. Every version yanked is archived; the index's not-found is a deletion.
 */
import type { ComponentRef } from '../../domain/component.js';
import type { HttpClient } from '../http.js';
import { activityAsOf, redirectEvidence, unreachableReading } from '../reading.js';
import type { Reading, UpstreamSource } from '../source.js';
import { classifyIndexResponse } from './classify-response.js';
import { INDEX_FACTS, VERSION_FACTS } from './facts.js';

export const CARGO_METHOD =
  "crates.io sparse index: the latest pubtime over versions not yanked (else the crates API's created_at of the newest), and whether every version is yanked";

/** The index path of a (lower-cased) name: `1/a`, `2/ab`, `3/a/abc`, `se/rd/serde`. */
export function indexPath(name: string): string {
  if (name.length <= 2) return `${name.length}/${name}`;
  if (name.length === 3) return `3/${name[0]}/${name}`;
  return `${name.slice(0, 2)}/${name.slice(2, 4)}/${name}`;
}

export function createCargoSource(
  index: HttpClient,
  indexBase: string,
  api: HttpClient,
  apiBase: string,
): UpstreamSource {
  return { read: (ref, today) => readCargo(index, indexBase, api, apiBase, ref, today) };
}

async function readCargo(
  index: HttpClient,
  indexBase: string,
  api: HttpClient,
  apiBase: string,
  ref: ComponentRef,
  today: string,
): Promise<Reading> {
  const answer = await index.get(`${indexBase}/${indexPath(ref.id)}`, {
    accept: 'text/plain',
    body: 'text',
    facts: INDEX_FACTS,
  });
  if (answer.kind === 'unreachable') return unreachableReading(answer, CARGO_METHOD);
  if (answer.kind === 'status') {
    const v = classifyIndexResponse(answer);
    return {
      signals: v.signals,
      source: answer.url,
      evidence: { ...v.evidence, ...redirectEvidence(answer.redirects) },
      method: CARGO_METHOD,
    };
  }
  const f = answer.facts;
  const evidence = {
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
