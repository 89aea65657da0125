/**
 * Ruby gems on rubygems.org (research upstreams-more §4, DESIGN §3): the public versions and
 * their publication times, in one request. Activity is the latest publish; a gem without a public
 * version is deleted (a yank of every version looks the same, and is as final for its users).
 * The registry has no deprecation flag, so a gem is never archived by it.
 */
import type { ComponentRef } from '../../domain/component.js';
import type { HttpClient } from '../http/client.js';
import { activityAsOf, factsOrReading, redirectEvidence } from '../reading.js';
import type { Reading, UpstreamSource } from '../source.js';
import { classifyVersionsResponse } from './classify-response.js';
import { VERSIONS_FACTS } from './facts.js';

export const GEM_METHOD =
  'rubygems.org versions API: the latest publish over the public versions (yanked ones are not listed)';

export function createGemSource(client: HttpClient, base: string): UpstreamSource {
  return { read: (ref, today) => readGem(client, base, ref, today) };
}

async function readGem(client: HttpClient, base: string, ref: ComponentRef, today: string): Promise<Reading> {
  const answer = factsOrReading(
    await client.get(`${base}/api/v1/versions/${encodeURIComponent(ref.id)}.json`, {
      accept: 'application/json',
      facts: VERSIONS_FACTS,
    }),
    GEM_METHOD,
    classifyVersionsResponse,
  );
  if (answer.kind === 'settled') return answer.reading;
  const f = answer.facts;
  const at = activityAsOf(f.last_published, today);
  return {
    // rubygems.org answers 404 for a gem with no public version; an empty list at 200 dates
    // nothing, and only the registry's own not-found is a deletion (docs/methodology.md).
    signals: { lastActivity: f.versions === 0 ? null : at.lastActivity },
    source: answer.url,
    evidence: {
      http_status: answer.status,
      versions: f.versions,
      last_published: f.last_published,
      last_published_version: f.last_published_version,
      ...at.evidence,
      ...redirectEvidence(answer.redirects),
    },
    method: GEM_METHOD,
  };
}
