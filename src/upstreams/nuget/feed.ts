/**
 * nuget.org's catalog, parsed (research §1.5; NuGet docs catalog-resource.md@1d1406764c6a): the
 * index `{commitTimeStamp, items: [{@id, commitTimeStamp, count}]}` naming pages, each page's
 * `items: [{@id, @type, commitTimeStamp, nuget:id, nuget:version}]`.
 *
 * Timestamps are compared as instants with seven fractional digits (NuGet writes up to seven, not
 * always all of them), never as the strings they arrive as.
 */
import { parsedBy } from '../following/feed-client.js';
import { asJsonObject } from '../../domain/json-object.js';
export type CatalogIndex = { commit: string; pages: { url: string; commit: string }[] };
export type CatalogItem = { id: string; version: string; deleted: boolean; commit: string };

/** `2015-02-01T06:22:45.8488496Z` → a sortable key with seven fractional digits; null when it is no instant. */
export function commitKey(ts: unknown): string | null {
  if (typeof ts !== 'string') return null;
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,7}))?(?:Z|\+00:00)$/.exec(ts);
  return m ? `${m[1]}.${(m[2] ?? '').padEnd(7, '0')}Z` : null;
}

export function parseCatalogIndex(body: unknown): CatalogIndex | string {
  const doc = asJsonObject(body);
  const commit = commitKey(doc?.['commitTimeStamp']);
  const items = doc?.['items'];
  if (commit === null || !Array.isArray(items)) return 'not a catalog index (commitTimeStamp, items)';
  const pages: CatalogIndex['pages'] = [];
  for (const it of items) {
    const url = asJsonObject(it)?.['@id'];
    const c = commitKey(asJsonObject(it)?.['commitTimeStamp']);
    if (typeof url !== 'string' || c === null) return 'a catalog page entry without @id or commitTimeStamp';
    pages.push({ url, commit: c });
  }
  // The index's order "is not defined": pages are taken in commit order.
  pages.sort((a, b) => (a.commit < b.commit ? -1 : a.commit > b.commit ? 1 : 0));
  return { commit, pages };
}

export function parseCatalogPage(body: unknown): CatalogItem[] | string {
  const items = asJsonObject(body)?.['items'];
  if (!Array.isArray(items)) return 'not a catalog page (items)';
  const out: CatalogItem[] = [];
  for (const it of items) {
    const r = asJsonObject(it);
    const id = r?.['nuget:id'];
    const version = r?.['nuget:version'];
    const commit = commitKey(r?.['commitTimeStamp']);
    const type = r?.['@type'];
    if (typeof id !== 'string' || typeof version !== 'string' || commit === null)
      return 'a catalog item without nuget:id, nuget:version or commitTimeStamp';
    out.push({ id, version, commit, deleted: type === 'nuget:PackageDelete' });
  }
  return out;
}

/** The feed's answers as the HTTP client's facts, reachable by the thread that reads big bodies. */
export const CATALOG_INDEX_FACTS = parsedBy('nuget-catalog-index/1', parseCatalogIndex, import.meta.url);
export const CATALOG_PAGE_FACTS = parsedBy('nuget-catalog-page/1', parseCatalogPage, import.meta.url);
