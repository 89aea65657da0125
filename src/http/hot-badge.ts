import type { DiscoveryDeps } from '../operations/discovery.js';
import { heldBadgeTarget } from '../operations/read-badge.js';
import { badgeExtraHeaders, renderedBadge, type BadgeCache, type BadgeFormat } from '../pages/badge-answer.js';
import type { Rendered } from '../pages/respond.js';
import { datedQuery, plainPath, type HotAnswer, type HotProvider } from './hot-path.js';

const BADGE_PREFIX = '/badge/';

/**
 * GET /badge/{kind}/{id}.svg and .json of a component the record holds, from the badge cache
 * (drawn and cached on a miss). To the framework: a component not held (its read queues
 * discovery), a bad kind, id or date (an error badge explains it), If-Modified-Since (which the
 * route answers from Last-Modified), and any path the router would read differently from this one.
 */
export function hotBadges(deps: DiscoveryDeps, badges: BadgeCache): HotProvider {
  return {
    prefix: BADGE_PREFIX,
    match(path, query, headers) {
      if (headers['if-modified-since'] !== undefined || !plainPath(path)) return undefined;
      const slash = path.indexOf('/');
      if (slash <= 0) return undefined;
      const format: BadgeFormat | undefined = path.endsWith('.svg')
        ? 'svg'
        : path.endsWith('.json')
          ? 'json'
          : undefined;
      if (format === undefined) return undefined;
      const dated = datedQuery(query, deps.clock.now());
      if (dated === undefined) return undefined;
      const kind = path.slice(0, slash);
      const id = path.slice(slash + 1, path.length - format.length - 1);
      return async () => {
        const target = await heldBadgeTarget(deps, kind, id, dated);
        if (target === undefined) return undefined;
        return hotBadge(await renderedBadge(deps, badges, target, format), format);
      };
    },
  };
}

function hotBadge(badge: Rendered, format: BadgeFormat): HotAnswer {
  const headers = ['cache-control', badge.cacheControl, 'last-modified', badge.lastModified];
  for (const [name, value] of Object.entries(badgeExtraHeaders(format) ?? {})) headers.push(name, value);
  return {
    body: badge.body,
    contentType: badge.contentType,
    etag: badge.etag,
    headers,
    licensed: true,
    route: '/badge/:kind/:file{.+}',
  };
}
