/**
 * The dependents count of an npm package, from the ecosyste.ms packages API (DESIGN §3
 * "Adoption", §7): `GET {base}/api/v1/registries/{registry}/packages/{name}` →
 * `dependent_packages_count`. A count that could not be read is null, never zero.
 */
import type { ComponentRef } from '../../domain/component.js';
import type { HttpClient } from '../http.js';
import { redirectEvidence } from '../reading.js';
import type { DependentsReading, DependentsSource } from '../source.js';
import { classifyPackageResponse } from './classify-response.js';
import { PACKAGE_FACTS } from './facts.js';

export const DEPENDENTS_METHOD =
  'ecosyste.ms packages API: dependent_packages_count (packages in the registry that depend on this one)';

export function createDependentsSource(client: HttpClient, base: string, registry: string): DependentsSource {
  return { read: (ref) => readDependents(client, base, registry, ref) };
}

async function readDependents(
  client: HttpClient,
  base: string,
  registry: string,
  ref: ComponentRef,
): Promise<DependentsReading> {
  const url = `${base}/api/v1/registries/${encodeURIComponent(registry)}/packages/${encodeURIComponent(ref.id)}`;
  if (ref.kind !== 'npm') {
    return {
      dependents: null,
      source: url,
      evidence: { not_read: `the dependents source is configured for the npm registry (${registry}), not ${ref.kind}` },
      method: DEPENDENTS_METHOD,
    };
  }
  const answer = await client.get(url, { accept: 'application/json', facts: PACKAGE_FACTS });
  if (answer.kind === 'unreachable') {
    return {
      dependents: null,
      source: answer.url,
      evidence: { ...answer.evidence, unreachable: answer.reason, registry, ...redirectEvidence(answer.redirects) },
      method: DEPENDENTS_METHOD,
    };
  }
  if (answer.kind === 'status') {
    return {
      dependents: null,
      source: answer.url,
      evidence: { ...classifyPackageResponse(answer), registry, ...redirectEvidence(answer.redirects) },
      method: DEPENDENTS_METHOD,
    };
  }
  const f = answer.facts;
  return {
    dependents: f.dependent_packages_count,
    source: answer.url,
    evidence: {
      http_status: answer.status,
      registry,
      dependent_packages_count: f.dependent_packages_count,
      dependent_repos_count: f.dependent_repos_count,
      package_status: f.status,
      ...(f.dependent_packages_count === null ? { not_read: 'the answer has no whole dependent_packages_count' } : {}),
      ...redirectEvidence(answer.redirects),
    },
    method: DEPENDENTS_METHOD,
  };
}
