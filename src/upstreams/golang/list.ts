/**
 * Listing Go: the module index read from its first row (2019-04-10), 2,000 rows a page, each
 * module listed with the version the row names (a module appears once per version). Resumable at
 * any page; the listing ends at the index's head, which is where following starts.
 */
import type { HttpClient } from '../http/client.js';
import { unreachableOf, type Unreachable } from '../following/feed-client.js';
import type { ListedPackage } from '../following/follower.js';
import { componentOf, type ListPage, type PageCount } from '../following/registry-follower.js';
import { afterPosition, type GoPosition, INDEX_PAGE_FACTS } from './feed.js';

/** The index's page ("Default = 2000, Max = 2000"; golang/go#59320 says 1,000: the page's own length decides). */
export const INDEX_PAGE = 2_000;
/** The index's first day (its oldest row is 2019-04-10T19:08:52.997264Z): every row is at or after it. */
export const INDEX_OPENED: GoPosition = { since: '2019-04-10T00:00:00Z', at_since: [] };

export function indexUrl(base: string, p: GoPosition): string {
  return `${base}/index?since=${encodeURIComponent(p.since)}&limit=${INDEX_PAGE}`;
}

export async function readIndex(
  client: HttpClient,
  base: string,
  p: GoPosition,
): Promise<(ReturnType<typeof afterPosition> & { full: boolean; page: PageCount }) | Unreachable> {
  const answer = await client.get(indexUrl(base, p), {
    accept: 'application/json',
    body: 'text',
    facts: INDEX_PAGE_FACTS,
  });
  if (answer.kind !== 'facts') return unreachableOf(answer);
  return {
    ...afterPosition(p, answer.facts),
    full: answer.facts.length >= INDEX_PAGE,
    page: { asked: INDEX_PAGE, rows: answer.facts.length },
  };
}

export async function listGo(
  client: HttpClient,
  base: string,
  at: GoPosition | null,
): Promise<ListPage<GoPosition, GoPosition> | Unreachable> {
  const page = await readIndex(client, base, at ?? INDEX_OPENED);
  if ('unreachable' in page) return page;
  if (page.full && page.fresh.length === 0)
    return { unreachable: `${page.next.since} holds a whole page of rows: the index cannot be paged past it` };
  const listed: ListedPackage[] = [];
  for (const row of page.fresh) {
    const component = componentOf('golang', row.path);
    if (component) listed.push({ component, marker: row.version });
  }
  return page.full
    ? { listed, hints: [], next: page.next, page: page.page }
    : { listed, hints: [], next: null, followFrom: page.next, page: page.page };
}
