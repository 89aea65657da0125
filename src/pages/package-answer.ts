import { AnswerCache } from '../operations/answer-cache.js';
import type { RecordDeps } from '../operations/deps.js';
import { readPackage, type PackageRefusal, type PackageVersion } from '../operations/read-package.js';
import { renderPackagePage } from './package-page.js';
import { PAGE_CACHE, rendered, type Rendered } from './respond.js';

export const HTML = 'text/html; charset=utf-8';
// A page per recently read package and date: about the entity cache's size.
const PACKAGE_PAGE_ENTRIES = 2000;

/** Rendered package pages by the versions of the record they were rendered from (PackageVersion). */
export type PackagePageCache = AnswerCache<Rendered>;

/** One cache for the package pages' routes and the hot path in front of them (serve.ts makes it). */
export function packagePageCache(): PackagePageCache {
  return new AnswerCache<Rendered>(PACKAGE_PAGE_ENTRIES);
}

/** TENDED_PAGE_MIN_DEPENDENTS as the routes and the hot path both read it: one page rule for both. */
export function pageMinDependents(deps: { readonly pageMinDependents?: number }): number {
  return deps.pageMinDependents ?? 1;
}

/**
 * A package's page, rendered once per version of what it shows and per base URL (the canonical
 * link is in its body), or why it has none. Reads only: a package with no page queues nothing.
 */
export async function renderedPackagePage(
  deps: RecordDeps,
  pages: PackagePageCache,
  v: PackageVersion,
  minDependents: number,
  baseUrl: string,
): Promise<Rendered | PackageRefusal> {
  const key = `${v.ref.kind}:${v.ref.id}|${v.asOf ?? `today ${v.today}`}|${v.observationsVersion ?? 'none'}|${v.censusVersion ?? 'none'}|${minDependents}|${baseUrl}`;
  const cached = pages.get(key);
  if (cached) return cached;
  const record = await readPackage(deps, v, minDependents);
  if ('reason' in record) return record;
  const lastModified = [record.result.observed_at ?? '', record.census?.read_at ?? ''].sort().at(-1)!;
  const page = rendered(renderPackagePage(record, { baseUrl, today: v.today, askedAsOf: v.asOf }), {
    contentType: HTML,
    cacheControl: PAGE_CACHE,
    lastModified,
    versionKey: key,
  });
  pages.set(key, page);
  return page;
}
