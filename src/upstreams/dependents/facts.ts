/** What the reader keeps from the ecosyste.ms packages API (research §2.2). */
import type { FactsSpec } from '../http/facts-spec.js';

export type PackageFacts = {
  name: string | null;
  dependent_packages_count: number | null;
  dependent_repos_count: number | null;
  /** ecosyste.ms's own status: null = active; also removed, unpublished, deprecated. */
  status: string | null;
};

function count(v: unknown): number | null {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null;
}

export const PACKAGE_FACTS: FactsSpec<PackageFacts> = {
  version: 'ecosystems-package/1',
  from: import.meta.url,
  extract(body) {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'not an ecosyste.ms package object';
    const p = body as Record<string, unknown>;
    return {
      name: typeof p['name'] === 'string' ? p['name'].slice(0, 214) : null,
      dependent_packages_count: count(p['dependent_packages_count']),
      dependent_repos_count: count(p['dependent_repos_count']),
      status: typeof p['status'] === 'string' ? p['status'].slice(0, 40) : null,
    };
  },
};
