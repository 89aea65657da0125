/**
 * Maven artifacts on Central (research upstreams-more §1, DESIGN §3): maven-metadata.xml names
 * the versions; the highest release's POM gives its publication time (Last-Modified) and any
 * <relocation> (archived: the artifact moved). Never deleted: a 404 is `not_observed`.
 */
import type { ComponentRef } from '../../domain/component.js';
import type { EvidenceValue } from '../../domain/observation.js';
import type { HttpClient } from '../http/client.js';
import { activityAsOf, factsOrReading, redirectEvidence, unreachableReading } from '../reading.js';
import type { Reading, UpstreamSource } from '../source.js';
import { classifyCentralResponse } from './classify-response.js';
import { METADATA_FACTS, POM_FACTS } from './facts.js';

export const MAVEN_METHOD =
  "Maven Central: maven-metadata.xml for the versions, the highest release's POM for its publication time (Last-Modified) and <relocation>";

const ACCEPT = 'application/xml, text/xml;q=0.9';

/** groupId:artifactId → the repository path `org/apache/commons/commons-lang3`. */
export function artifactPath(id: string): string {
  const colon = id.indexOf(':');
  const group = id.slice(0, colon).split('.').map(encodeURIComponent).join('/');
  return `${group}/${encodeURIComponent(id.slice(colon + 1))}`;
}

export function createMavenSource(client: HttpClient, base: string): UpstreamSource {
  return { read: (ref, today) => readMaven(client, base, ref, today) };
}

async function readMaven(client: HttpClient, base: string, ref: ComponentRef, today: string): Promise<Reading> {
  const path = artifactPath(ref.id);
  const metadata = factsOrReading(
    await client.get(`${base}/${path}/maven-metadata.xml`, {
      accept: ACCEPT,
      body: 'text',
      facts: METADATA_FACTS,
    }),
    MAVEN_METHOD,
    classifyCentralResponse,
  );
  if (metadata.kind === 'settled') return metadata.reading;
  const m = metadata.facts;
  const evidence: Record<string, EvidenceValue> = {
    http_status: metadata.status,
    latest_release: m.release,
    release_in_metadata: m.release_hint,
    versions: m.versions,
    metadata_last_updated: m.last_updated,
  };
  if (m.release === null) {
    return {
      signals: { lastActivity: null },
      source: metadata.url,
      evidence: { ...evidence, error: 'maven-metadata.xml lists no release' },
      method: MAVEN_METHOD,
    };
  }
  const artifact = ref.id.slice(ref.id.indexOf(':') + 1);
  const pomUrl = `${base}/${path}/${encodeURIComponent(m.release)}/${encodeURIComponent(`${artifact}-${m.release}.pom`)}`;
  const pom = await client.get(pomUrl, { accept: ACCEPT, body: 'text', facts: POM_FACTS });
  if (pom.kind === 'unreachable') return unreachableReading(pom, MAVEN_METHOD, evidence);
  const reading = (signals: Reading['signals'], more: Record<string, EvidenceValue>): Reading => ({
    signals,
    source: pom.url,
    evidence: { ...evidence, ...more, ...redirectEvidence(pom.redirects) },
    method: MAVEN_METHOD,
  });
  if (pom.kind === 'status') {
    // Some old artifacts lack the POM Central's metadata names; the metadata's own date stands in.
    const at = activityAsOf(m.last_updated, today);
    return reading(
      { lastActivity: at.lastActivity },
      { pom_http_status: pom.status, activity_from: 'maven-metadata.xml lastUpdated (no POM)', ...at.evidence },
    );
  }
  const p = pom.facts;
  if (p.relocation) {
    const to = [p.relocation.group_id, p.relocation.artifact_id, p.relocation.version].filter((x) => x !== null);
    return reading(
      { archived: true },
      { pom_http_status: pom.status, published: p.published, relocated: p.relocation, relocated_to: to.join(':') },
    );
  }
  const at = activityAsOf(p.published ?? m.last_updated, today);
  return reading(
    { lastActivity: at.lastActivity },
    {
      pom_http_status: pom.status,
      published: p.published,
      ...(p.published === null
        ? { activity_from: 'maven-metadata.xml lastUpdated (the POM has no Last-Modified)' }
        : {}),
      ...at.evidence,
    },
  );
}
