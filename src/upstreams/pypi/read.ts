/**
 * PyPI projects: the JSON API for uploads and classifiers, the Simple API (JSON form) for the
 * PEP 792 project-status. Research §3, DESIGN §3.
 */
import { pep503, type ComponentRef } from '../../domain/component.js';
import type { EvidenceValue } from '../../domain/observation.js';
import type { HttpClient } from '../http/client.js';
import { activityAsOf, factsOrReading, redirectEvidence, unexpectedStatus, unreachableReading } from '../reading.js';
import type { Reading, UpstreamSource } from '../source.js';
import { classifyProjectResponse, simpleApiMissing } from './classify-response.js';
import { PROJECT_FACTS, SIMPLE_FACTS } from './facts.js';

export const PYPI_METHOD =
  "PyPI JSON API (the latest upload over files not yanked, the 'Development Status :: 7 - Inactive' classifier) and the Simple API's PEP 792 project-status";

const SIMPLE_ACCEPT = 'application/vnd.pypi.simple.v1+json';
const ARCHIVED_STATUSES = new Set(['archived', 'deprecated']);

export function createPypiSource(client: HttpClient, base: string): UpstreamSource {
  return { read: (ref, today) => readPypi(client, base, ref, today) };
}

async function readPypi(client: HttpClient, base: string, ref: ComponentRef, today: string): Promise<Reading> {
  // A name that is not the normalised one gets a 301 to it (Warehouse), which the client follows.
  const project = factsOrReading(
    await client.get(`${base}/pypi/${encodeURIComponent(ref.id)}/json`, {
      accept: 'application/json',
      facts: PROJECT_FACTS,
    }),
    PYPI_METHOD,
    classifyProjectResponse,
  );
  if (project.kind === 'settled') return project.reading;
  const f = project.facts;
  const evidence: Record<string, EvidenceValue> = {
    http_status: project.status,
    version: f.version,
    last_upload: f.last_upload,
    last_upload_version: f.last_upload_version,
    releases: f.releases,
    files: f.files,
    yanked_files: f.yanked_files,
    classifier_inactive: f.inactive_classifier,
    ...redirectEvidence(project.redirects),
  };
  const reading = (r: Pick<Reading, 'signals' | 'evidence'>, source = project.url): Reading => ({
    ...r,
    source,
    method: PYPI_METHOD,
  });

  // Nothing installable is left, which is no deletion: the project still answers 200 (DESIGN §3,
  // docs/methodology.md). Every file yanked is the maintainers' own declaration, as "every version
  // yanked" is for crates and Packagist; releases without files date nothing, so nothing is said.
  if (f.files === f.yanked_files) {
    if (f.files === 0)
      return reading({
        signals: { lastActivity: null },
        evidence: {
          ...evidence,
          no_files: true,
          no_date: 'PyPI lists releases without files: nothing dates the project',
        },
      });
    return reading({ signals: { archived: true }, evidence: { ...evidence, all_yanked: true } });
  }

  const simple = await client.get(`${base}/simple/${encodeURIComponent(pep503(f.name ?? ref.id))}/`, {
    accept: SIMPLE_ACCEPT,
    facts: SIMPLE_FACTS,
  });
  let status: string | null = null;
  if (simple.kind === 'facts') {
    status = simple.facts.project_status;
    evidence['project_status'] = status;
    if (simple.facts.project_status_reason) evidence['project_status_reason'] = simple.facts.project_status_reason;
    if (simple.facts.api_version) evidence['simple_api_version'] = simple.facts.api_version;
  } else if (simple.kind === 'status' && simpleApiMissing(simple.status)) {
    evidence['project_status'] = null;
    evidence['project_status_unread'] = `the index answered HTTP ${simple.status} to the Simple API's JSON form`;
  } else if (
    simple.kind === 'unreachable' &&
    simple.reason === 'unparsable' &&
    /html/i.test(typeof simple.evidence['content_type'] === 'string' ? simple.evidence['content_type'] : '')
  ) {
    evidence['project_status'] = null;
    evidence['project_status_unread'] = 'the index serves the Simple API as HTML only';
  } else if (simple.kind === 'unreachable') {
    // Without the status we cannot rule out "archived", which would beat any age.
    return { ...unreachableReading(simple, PYPI_METHOD, evidence), source: simple.url };
  } else {
    const v = unexpectedStatus(simple);
    return reading(
      {
        signals: v.signals,
        evidence: { ...evidence, ...v.evidence, http_status: project.status, simple_http_status: simple.status },
      },
      simple.url,
    );
  }

  if ((status !== null && ARCHIVED_STATUSES.has(status)) || f.inactive_classifier) {
    return reading(
      { signals: { archived: true }, evidence },
      status !== null && ARCHIVED_STATUSES.has(status) ? simple.url : project.url,
    );
  }
  const at = activityAsOf(f.last_upload, today);
  return reading({ signals: { lastActivity: at.lastActivity }, evidence: { ...evidence, ...at.evidence } });
}
