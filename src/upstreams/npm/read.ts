/**
 * npm packages: the full packument (the abbreviated one has no publish times). Research §2,
 * DESIGN §3: deleted on 404, unpublish or security holding; archived when the latest version
 * is deprecated; otherwise the age of the latest publish.
 */
import type { ComponentRef } from '../../domain/component.js';
import type { EvidenceValue } from '../../domain/observation.js';
import type { HttpClient } from '../http/client.js';
import { activityAsOf, factsOrReading, redirectEvidence } from '../reading.js';
import type { Reading, UpstreamSource } from '../source.js';
import { classifyPackumentResponse } from './classify-response.js';
import { PACKUMENT_FACTS } from './facts.js';

export const NPM_METHOD =
  'npm registry full packument: the latest publish time over the versions still present, the deprecation of dist-tags.latest, time.unpublished and security holding packages';

// The full document: the abbreviated ("corgi") one carries no `time`.
const ACCEPT = 'application/json';

/** `@scope/name` → `@scope%2fname`, the form npm's own client requests (npm-package-arg's escapedName). */
export function packumentPath(name: string): string {
  return name.startsWith('@') ? name.replace('/', '%2f') : encodeURIComponent(name);
}

export function createNpmSource(client: HttpClient, base: string): UpstreamSource {
  return { read: (ref, today) => readNpm(client, base, ref, today) };
}

async function readNpm(client: HttpClient, base: string, ref: ComponentRef, today: string): Promise<Reading> {
  const answer = factsOrReading(
    await client.get(`${base}/${packumentPath(ref.id)}`, { accept: ACCEPT, facts: PACKUMENT_FACTS }),
    NPM_METHOD,
    classifyPackumentResponse,
  );
  if (answer.kind === 'settled') return answer.reading;
  const f = answer.facts;
  const evidence: Record<string, EvidenceValue> = {
    http_status: answer.status,
    latest_version: f.latest,
    last_published: f.last_published,
    last_published_version: f.last_published_version,
    versions: f.versions,
    deprecated: f.latest_deprecated,
    all_versions_deprecated: f.all_deprecated,
    repository_url: f.repository_url,
    // What schema_history and dependency_risk report: read here, kept in the leaf, never re-derived.
    ...(f.latest_interface ? { interface: { ...f.latest_interface, deprecated: f.latest_deprecated } } : {}),
    ...(f.latest_dependencies ? { dependencies: f.latest_dependencies } : {}),
    ...redirectEvidence(answer.redirects),
  };
  const reading = (r: Pick<Reading, 'signals' | 'evidence'>): Reading => ({
    ...r,
    source: answer.url,
    method: NPM_METHOD,
  });
  // An unpublished package still answers 200; versions left present mean it was published again.
  if (f.unpublished_at !== null && f.versions === 0) {
    return reading({
      signals: { notFound: true },
      evidence: { ...evidence, unpublished_at: f.unpublished_at, unpublished_versions: f.unpublished_versions },
    });
  }
  if (f.security_holding)
    return reading({ signals: { notFound: true }, evidence: { ...evidence, security_holding: true } });
  if (f.latest_deprecated !== null) return reading({ signals: { archived: true }, evidence });
  const at = activityAsOf(f.last_published, today);
  return reading({ signals: { lastActivity: at.lastActivity }, evidence: { ...evidence, ...at.evidence } });
}
