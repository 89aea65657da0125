/**
 * Simulated Maven Central (research upstreams-more §1): maven-metadata.xml per artifact, and one
 * POM per version whose Last-Modified is the version's publication time. A <relocation> in the
 * POMs of a relocated artifact; Sonatype's 403 for excessive use.
 */
import { commonFailure, isCommonFail, notFound, text, type Ctx, type SimAnswer } from './answer.js';
import type { MavenPhase } from './scenario-phases.js';
import type { World } from './world.js';

const XML = 'text/xml';

function escapeXml(s: string): string {
  return s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function byTime(p: MavenPhase): string[] {
  const versions = p.versions ?? {};
  return Object.keys(versions).sort((a, b) => Date.parse(versions[a]!) - Date.parse(versions[b]!));
}

/** 2025-09-23T11:08:44Z → 20250923110844. */
function stamp(at: string): string {
  return new Date(at).toISOString().replace(/\D/g, '').slice(0, 14);
}

function metadata(group: string, artifact: string, p: MavenPhase): string {
  const versions = byTime(p);
  const last = versions.at(-1);
  const release = p.release ?? last;
  const times = Object.values(p.versions ?? {}).sort((a, b) => Date.parse(a) - Date.parse(b));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<metadata modelVersion="1.1.0">',
    `  <groupId>${escapeXml(group)}</groupId>`,
    `  <artifactId>${escapeXml(artifact)}</artifactId>`,
    '  <versioning>',
    ...(last ? [`    <latest>${escapeXml(last)}</latest>`] : []),
    ...(release ? [`    <release>${escapeXml(release)}</release>`] : []),
    '    <versions>',
    ...versions.map((v) => `      <version>${escapeXml(v)}</version>`),
    '    </versions>',
    ...(times.length > 0 ? [`    <lastUpdated>${stamp(times.at(-1)!)}</lastUpdated>`] : []),
    '  </versioning>',
    '</metadata>',
    '',
  ].join('\n');
}

function pom(group: string, artifact: string, version: string, p: MavenPhase): string {
  const r = p.relocation;
  const relocation = r
    ? [
        '  <distributionManagement>',
        '    <relocation>',
        ...(r.group_id ? [`      <groupId>${escapeXml(r.group_id)}</groupId>`] : []),
        ...(r.artifact_id ? [`      <artifactId>${escapeXml(r.artifact_id)}</artifactId>`] : []),
        ...(r.version ? [`      <version>${escapeXml(r.version)}</version>`] : []),
        ...(r.message ? [`      <message>${escapeXml(r.message)}</message>`] : []),
        '    </relocation>',
        '  </distributionManagement>',
      ]
    : [];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
    '  <modelVersion>4.0.0</modelVersion>',
    `  <groupId>${escapeXml(group)}</groupId>`,
    `  <artifactId>${escapeXml(artifact)}</artifactId>`,
    `  <version>${escapeXml(version)}</version>`,
    ...relocation,
    '</project>',
    '',
  ].join('\n');
}

export function answerMaven(ctx: Ctx, world: World): SimAnswer {
  // The simulated repository lives under /maven2, as Central's does: the base URL keeps a path.
  const parts = ctx.path
    .split('/')
    .filter((s) => s !== '')
    .map(decodeURIComponent);
  if (parts.shift() !== 'maven2') return notFound('maven', ctx);
  const file = parts.at(-1) ?? '';
  // …/{group path}/{artifact}/maven-metadata.xml, or …/{group path}/{artifact}/{version}/{artifact}-{version}.pom
  const isMetadata = file === 'maven-metadata.xml';
  const artifact = isMetadata ? parts.at(-2) : parts.at(-3);
  const groupParts = parts.slice(0, isMetadata ? -2 : -3);
  if (!artifact || groupParts.length === 0) return notFound('maven', ctx);
  const group = groupParts.join('.');
  const p = world.maven(`${group}:${artifact}`, ctx);
  if (!p) return notFound('maven', ctx);
  if (p.fail && isCommonFail(p.fail)) return commonFailure('maven', p.fail, ctx, p.status);
  if (p.fail === 'blocked')
    return text(
      403,
      "You've been blocked from this operation due to violation of the Central terms of service. See https://central.sonatype.org/blacklisted",
      'text/plain',
    );
  if (isMetadata) {
    const times = Object.values(p.versions ?? {}).sort((a, b) => Date.parse(a) - Date.parse(b));
    return {
      ...text(200, metadata(group, artifact, p), XML),
      ...(times.length > 0 ? { lastModified: new Date(times.at(-1)!).toUTCString() } : {}),
    };
  }
  const version = parts.at(-2) ?? '';
  const published = p.versions?.[version];
  if (!published || file !== `${artifact}-${version}.pom` || p.fail === 'pom_missing') return notFound('maven', ctx);
  const answer = text(200, pom(group, artifact, version, p), XML, {
    'last-modified': new Date(published).toUTCString(),
  });
  return { ...answer, lastModified: new Date(published).toUTCString() };
}
