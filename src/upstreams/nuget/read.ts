/**
 * NuGet packages (research upstreams-more §5, DESIGN §3): the registration index, and its last
 * page when the leaves are not inlined (the page that holds the highest versions). Archived when
 * the latest listed version is deprecated as Legacy ("no longer maintained"), when every listed
 * version is deprecated, or when no version is listed any more; deleted on nuget.org's 404;
 * otherwise aged by the latest publication over listed versions.
 */
import type { ComponentRef } from '../../domain/component.js';
import type { EvidenceValue } from '../../domain/observation.js';
import type { HttpClient } from '../http/client.js';
import { activityAsOf, factsOrReading, unreachableReading } from '../reading.js';
import type { Reading, UpstreamSource } from '../source.js';
import { classifyRegistrationResponse } from './classify-response.js';
import { PAGE_FACTS, REGISTRATION_FACTS, summarise, type Leaf } from './facts.js';

export const NUGET_METHOD =
  'NuGet registration index: the latest publication over listed versions, and the deprecation of the latest listed one';

export function createNugetSource(client: HttpClient, base: string): UpstreamSource {
  return { read: (ref, today) => readNuget(client, base, ref, today) };
}

async function readNuget(client: HttpClient, base: string, ref: ComponentRef, today: string): Promise<Reading> {
  const index = factsOrReading(
    await client.get(`${base}/v3/registration5-gz-semver2/${encodeURIComponent(ref.id)}/index.json`, {
      accept: 'application/json',
      facts: REGISTRATION_FACTS,
    }),
    NUGET_METHOD,
    classifyRegistrationResponse,
  );
  if (index.kind === 'settled') return index.reading;
  const facts = index.facts;
  let leaves: Leaf[] = facts.leaves;
  let source = index.url;
  if (facts.last_page !== null) {
    const page = await client.get(facts.last_page, { accept: 'application/json', facts: PAGE_FACTS });
    if (page.kind === 'unreachable') return unreachableReading(page, NUGET_METHOD, { http_status: index.status });
    if (page.kind === 'status')
      return unreachableReading(
        {
          kind: 'unreachable',
          url: page.url,
          reason: 'unparsable',
          evidence: { page_http_status: page.status },
          redirects: page.redirects,
        },
        NUGET_METHOD,
      );
    leaves = [...leaves, ...page.facts.leaves];
    source = page.url;
  }
  const s = summarise(leaves);
  const evidence = {
    http_status: index.status,
    versions: s.versions,
    listed: s.listed,
    latest_listed: s.latest_listed,
    last_published: s.last_published,
    deprecation: s.latest_deprecation,
    // Kept only when named, so leaves without a deprecation keep their form.
    ...(s.latest_alternate !== null ? { alternate_package: s.latest_alternate } : {}),
    all_listed_deprecated: s.all_listed_deprecated,
  };
  const reading = (signals: Reading['signals'], more: Record<string, EvidenceValue> = {}): Reading => ({
    signals,
    source,
    evidence: { ...evidence, ...more },
    method: NUGET_METHOD,
  });
  if (s.listed === 0) return reading({ archived: true }, { archived_because: 'no version is listed' });
  if (s.latest_deprecation?.some((r) => r.toLowerCase() === 'legacy'))
    return reading({ archived: true }, { archived_because: 'the latest listed version is deprecated as Legacy' });
  if (s.all_listed_deprecated)
    return reading({ archived: true }, { archived_because: 'every listed version is deprecated' });
  const at = activityAsOf(s.last_published, today);
  return reading({ lastActivity: at.lastActivity }, at.evidence);
}
