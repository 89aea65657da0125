/**
 * Go modules (research upstreams-more §2, DESIGN §3): the proxy's `@latest` dates the latest
 * version; the go.mod of that version may declare the module deprecated (archived) and lists its
 * retractions (evidence only). The proxy proves no deletion, so for a module at
 * github.com/owner/repo the repository's own reading is taken too: deleted or archived there wins,
 * and the evidence says which fact came from which upstream.
 */
import { normaliseComponent, type ComponentRef } from '../../domain/component.js';
import type { EvidenceValue } from '../../domain/observation.js';
import type { HttpClient } from '../http/client.js';
import { activityAsOf, factsOrReading, unreachableReading } from '../reading.js';
import type { Reading, UpstreamSource } from '../source.js';
import { classifyProxyResponse } from './classify-response.js';
import { GO_MOD_FACTS, LATEST_FACTS } from './facts.js';

export const GOLANG_METHOD =
  "Go module proxy: @latest for the latest version and its time, that version's go.mod for a Deprecated: notice and retractions; for github.com modules, the repository's own reading";

/** The proxy's case encoding (go.dev/ref/mod "GOPROXY protocol"): each capital becomes "!" and its lower case. */
export function escapeModulePath(path: string): string {
  return path.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
}

/** github.com/owner/repo[/…] → the repository, or null for a module hosted elsewhere. */
export function githubRepositoryOf(modulePath: string): ComponentRef | null {
  const [host, owner, repo] = modulePath.split('/');
  if (host !== 'github.com' || !owner || !repo) return null;
  try {
    return normaliseComponent('github', `${owner}/${repo}`);
  } catch {
    return null;
  }
}

export function createGolangSource(client: HttpClient, base: string, github: UpstreamSource): UpstreamSource {
  return { read: (ref, today) => readGolang(client, base, github, ref, today) };
}

async function readGolang(
  client: HttpClient,
  base: string,
  github: UpstreamSource,
  ref: ComponentRef,
  today: string,
): Promise<Reading> {
  const module = `${base}/${escapeModulePath(ref.id)}`;
  const latest = factsOrReading(
    await client.get(`${module}/@latest`, { accept: 'application/json', facts: LATEST_FACTS }),
    GOLANG_METHOD,
    classifyProxyResponse,
  );
  if (latest.kind === 'settled') return latest.reading;
  const l = latest.facts;
  const evidence: Record<string, EvidenceValue> = {
    http_status: latest.status,
    latest_version: l.version,
    latest_time: l.time,
    origin_url: l.origin_url,
  };
  const mod = await client.get(`${module}/@v/${escapeModulePath(l.version ?? '')}.mod`, {
    accept: 'text/plain',
    body: 'text',
    facts: GO_MOD_FACTS,
  });
  if (mod.kind === 'unreachable') return unreachableReading(mod, GOLANG_METHOD, evidence);
  if (mod.kind === 'facts') {
    evidence['deprecated'] = mod.facts.deprecated;
    evidence['retracted'] = mod.facts.retracted;
  } else evidence['go_mod_http_status'] = mod.status;

  const repository = githubRepositoryOf(ref.id);
  const fromGithub = repository ? await github.read(repository, today) : null;
  if (fromGithub)
    evidence['github'] = {
      repository: repository!.id,
      source: fromGithub.source,
      ...(fromGithub.signals.notFound ? { deleted: true } : {}),
      ...(fromGithub.signals.archived ? { archived: true } : {}),
      ...(fromGithub.signals.unreachable ? { unreachable: fromGithub.signals.unreachable } : {}),
      ...(fromGithub.signals.lastActivity ? { last_commit: fromGithub.signals.lastActivity } : {}),
    };
  const reading = (signals: Reading['signals'], source: string, more: Record<string, EvidenceValue> = {}): Reading => ({
    signals,
    source,
    evidence: { ...evidence, ...more },
    method: GOLANG_METHOD,
  });
  // The proxy keeps serving a module whose repository is gone; only GitHub can say it is.
  if (fromGithub?.signals.notFound) return reading({ notFound: true }, fromGithub.source, { deleted_by: 'github' });
  if (fromGithub?.signals.archived) return reading({ archived: true }, fromGithub.source, { archived_by: 'github' });
  if (mod.kind === 'facts' && mod.facts.deprecated !== null)
    return reading({ archived: true }, mod.url, { archived_by: 'go.mod Deprecated:' });
  const at = activityAsOf(l.time, today);
  return reading({ lastActivity: at.lastActivity }, latest.url, at.evidence);
}
