/**
 * Composer packages on Packagist (research upstreams-more §6, DESIGN §3): the p2 file of tagged
 * releases, one request. Archived when the package is marked abandoned (the suggested replacement
 * kept as evidence); deleted on Packagist's 404; otherwise the age of the latest release.
 */
import type { ComponentRef } from '../../domain/component.js';
import type { HttpClient } from '../http/client.js';
import { activityAsOf, factsOrReading, redirectEvidence } from '../reading.js';
import type { Reading, UpstreamSource } from '../source.js';
import { classifyP2Response } from './classify-response.js';
import { P2_FACTS } from './facts.js';

export const COMPOSER_METHOD =
  'Packagist p2 metadata: the latest publication over tagged releases, and the abandoned flag';

export function createComposerSource(client: HttpClient, base: string): UpstreamSource {
  return { read: (ref, today) => readComposer(client, base, ref, today) };
}

async function readComposer(client: HttpClient, base: string, ref: ComponentRef, today: string): Promise<Reading> {
  const [vendor = '', name = ''] = ref.id.split('/');
  const answer = factsOrReading(
    await client.get(`${base}/p2/${encodeURIComponent(vendor)}/${encodeURIComponent(name)}.json`, {
      accept: 'application/json',
      facts: P2_FACTS,
    }),
    COMPOSER_METHOD,
    classifyP2Response,
  );
  if (answer.kind === 'settled') return answer.reading;
  const f = answer.facts;
  const at = activityAsOf(f.last_published, today);
  return {
    signals: f.abandoned !== false ? { archived: true } : { lastActivity: at.lastActivity },
    source: answer.url,
    evidence: {
      http_status: answer.status,
      versions: f.versions,
      latest_version: f.latest_version,
      last_published: f.last_published,
      abandoned: f.abandoned,
      ...at.evidence,
      ...redirectEvidence(answer.redirects),
    },
    method: COMPOSER_METHOD,
  };
}
