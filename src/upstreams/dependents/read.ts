/**
 * The dependents count of a package, from the ecosyste.ms packages API (DESIGN §3 "Adoption",
 * §7): `GET {base}/api/v1/registries/{registry}/packages/{name}` → `dependent_packages_count`,
 * where `{registry}` is ecosyste.ms's name for the package's registry (its domain). A count that
 * could not be read is null, never zero.
 */
import { CENSUS_KINDS } from '../../domain/census.js';
import type { ComponentKind, ComponentRef } from '../../domain/component.js';
import type { HttpClient } from '../http/client.js';
import { redirectEvidence } from '../reading.js';
import type { DependentsReading, DependentsSource } from '../source.js';
import { classifyPackageResponse } from './classify-response.js';
import { PACKAGE_FACTS } from './facts.js';
import { readListingPage } from './listing.js';

export const DEPENDENTS_METHOD =
  'ecosyste.ms packages API: dependent_packages_count (packages in the registry that depend on this one)';

/**
 * ecosyste.ms's registry names, one per kind with a census. Its names match Tended's ids: Maven's
 * `group:artifact`, Go module paths as given, PyPI's normalised names (it looks those up by their
 * normalised form), and lower-case crates, gems and Packagist names as published.
 */
export const DEPENDENTS_REGISTRIES: Readonly<Partial<Record<ComponentKind, string>>> = {
  npm: 'npmjs.org',
  pypi: 'pypi.org',
  maven: 'repo1.maven.org',
  golang: 'proxy.golang.org',
  cargo: 'crates.io',
  gem: 'rubygems.org',
  composer: 'packagist.org',
};

/** `npmRegistry` is TENDED_DEPENDENTS_REGISTRY: the source's name for the npm registry it counts. */
export function createDependentsSource(client: HttpClient, base: string, npmRegistry: string): DependentsSource {
  const registries: Partial<Record<ComponentKind, string>> = { ...DEPENDENTS_REGISTRIES, npm: npmRegistry };
  return {
    read: (ref) => readDependents(client, base, registries[ref.kind] ?? null, ref),
    list: async (kind, page, perPage) => {
      const registry = CENSUS_KINDS.has(kind) ? registries[kind] : undefined;
      return registry === undefined ? null : readListingPage(client, base, registry, page, perPage);
    },
  };
}

async function readDependents(
  client: HttpClient,
  base: string,
  registry: string | null,
  ref: ComponentRef,
): Promise<DependentsReading> {
  if (registry === null || !CENSUS_KINDS.has(ref.kind)) {
    return {
      dependents: null,
      source: base,
      evidence: { not_read: `the dependents source counts no dependents for ${ref.kind} components` },
      method: DEPENDENTS_METHOD,
    };
  }
  const url = `${base}/api/v1/registries/${encodeURIComponent(registry)}/packages/${encodeURIComponent(ref.id)}`;
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
