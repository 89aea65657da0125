/**
 * Listing RubyGems: the whole `/versions` file (22 MB at full size, 2019), every gem listed with
 * the MD5 of its /info file as marker (a gem's later lines in the file replace its earlier ones;
 * one whose every version is yanked is not listed). Its length is where following starts.
 */
import type { HttpClient } from '../http/client.js';
import { unreachableOf, type Unreachable } from '../following/feed-client.js';
import type { ListedPackage } from '../following/follower.js';
import { componentOf, type ListPage } from '../following/registry-follower.js';
import { type GemPosition, VERSIONS_FILE_FACTS } from './feed.js';

export const LIST_PAGE = 1_000;

export function createGemListing(client: HttpClient, base: string) {
  let held: { gems: [string, string][]; end: GemPosition } | null = null;
  return async function listGems(at: string | null): Promise<ListPage<string, GemPosition> | Unreachable> {
    if (at === null || held === null) {
      const answer = await client.get(`${base}/versions`, {
        accept: 'text/plain',
        body: 'text',
        facts: VERSIONS_FILE_FACTS,
      });
      if (answer.kind !== 'facts') return unreachableOf(answer);
      const file = answer.facts;
      // Folded: what each gem has after every line (yanks taken out), in name order.
      const gems = new Map<string, { versions: Set<string>; md5: string }>();
      for (const line of file.lines) {
        const g = gems.get(line.name) ?? { versions: new Set<string>(), md5: line.md5 };
        for (const v of line.versions) g.versions.add(v);
        for (const v of line.yanked) g.versions.delete(v);
        g.md5 = line.md5;
        gems.set(line.name, g);
      }
      const live = [...gems].filter(([, g]) => g.versions.size > 0).map(([name, g]): [string, string] => [name, g.md5]);
      live.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      held = { gems: live, end: file.end };
    }
    const { gems, end } = held;
    let from = 0;
    if (at !== null) while (from < gems.length && gems[from]![0] <= at) from++;
    const slice = gems.slice(from, from + LIST_PAGE);
    const listed: ListedPackage[] = [];
    for (const [name, md5] of slice) {
      const component = componentOf('gem', name);
      if (component) listed.push({ component, marker: md5 });
    }
    const done = from + LIST_PAGE >= gems.length;
    if (done) held = null;
    return done ? { listed, hints: [], next: null, followFrom: end } : { listed, hints: [], next: slice.at(-1)![0] };
  };
}
