/**
 * What the Maven reader keeps from Central's files (research upstreams-more §1): from
 * maven-metadata.xml the versions and the release they point at; from the release's POM its
 * publication time (the file's Last-Modified, as Renovate reads it) and any relocation.
 */
import { XMLParser } from 'fast-xml-parser';
import type { FactsSpec } from '../http/facts-spec.js';
import { highestRelease } from './version-order.js';
import { asJsonObject } from '../../domain/json-object.js';

export type MetadataFacts = {
  release_hint: string | null;
  /** Our pick: the highest release in <versions> (or <release> when none is listed). */
  release: string | null;
  versions: number;
  /** <lastUpdated> (yyyyMMddHHmmss, UTC) as an RFC 3339 instant: when the file last changed. */
  last_updated: string | null;
};

export type Relocation = {
  group_id: string | null;
  artifact_id: string | null;
  version: string | null;
  message: string | null;
};

export type PomFacts = {
  /** The POM's Last-Modified: when this release reached Central. */
  published: string | null;
  relocation: Relocation | null;
};

const MAX_VERSIONS = 100_000;

const xml = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  // Entities are never expanded (a hostile body must not cost memory); values stay strings ("1.10").
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  isArray: (name) => name === 'version',
});

function text(v: unknown, max = 200): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, max) : null;
}

function parse(body: unknown): Record<string, unknown> | string {
  if (typeof body !== 'string') return 'the body is not text';
  if (!body.trimStart().startsWith('<')) return 'the body is not XML';
  try {
    return asJsonObject(xml.parse(body)) ?? 'the body is not an XML document';
  } catch (error) {
    return `the body is not well-formed XML (${error instanceof Error ? error.message.slice(0, 100) : 'unreadable'})`;
  }
}

/** 20250923110844 → 2025-09-23T11:08:44Z. */
function lastUpdated(v: unknown): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(text(v) ?? '');
  if (!m) return null;
  const iso = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`;
  return Number.isNaN(Date.parse(iso)) ? null : iso;
}

export const METADATA_FACTS: FactsSpec<MetadataFacts> = {
  version: 'maven-metadata/1',
  from: import.meta.url,
  extract(body) {
    const doc = parse(body);
    if (typeof doc === 'string') return doc;
    const metadata = asJsonObject(doc['metadata']);
    if (!metadata) return 'the document has no <metadata> element';
    const versioning = asJsonObject(metadata['versioning']) ?? {};
    const listed = (asJsonObject(versioning['versions'])?.['version'] ?? []) as unknown[];
    const versions = listed
      .slice(0, MAX_VERSIONS)
      .map((v) => text(v, 100))
      .filter((v): v is string => v !== null);
    const hint = text(versioning['release'], 100);
    return {
      release_hint: hint,
      release: highestRelease(versions) ?? hint,
      versions: versions.length,
      last_updated: lastUpdated(versioning['lastUpdated']),
    };
  },
};

export const POM_FACTS: FactsSpec<PomFacts> = {
  version: 'maven-pom/1',
  from: import.meta.url,
  extract(body, headers) {
    const doc = parse(body);
    if (typeof doc === 'string') return doc;
    const project = asJsonObject(doc['project']);
    if (!project) return 'the document has no <project> element';
    const modified = Date.parse(headers.get('last-modified') ?? '');
    const relocation = asJsonObject(asJsonObject(project['distributionManagement'])?.['relocation']);
    return {
      published: Number.isNaN(modified) ? null : new Date(modified).toISOString().replace('.000Z', 'Z'),
      relocation:
        relocation === null && asJsonObject(project['distributionManagement'])?.['relocation'] === undefined
          ? null
          : {
              group_id: text(relocation?.['groupId']),
              artifact_id: text(relocation?.['artifactId']),
              version: text(relocation?.['version'], 100),
              message: text(relocation?.['message'], 500),
            },
    };
  },
};
