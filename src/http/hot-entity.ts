import type { AnswerCache } from '../operations/answer-cache.js';
import type { DiscoveryDeps } from '../operations/discovery.js';
import { heldEntityJson, type EntityJson } from '../operations/read-entity.js';
import { answerCacheControl } from './http-caching.js';
import { datedQuery, type HotProvider } from './hot-path.js';

const ENTITY_PREFIX = '/api/v1/entity/';

/**
 * GET /api/v1/entity/{owner}/{repo}[?as_of=YYYY-MM-DD] of a repository the record holds, from the
 * entity answers cache (computed and cached on a miss). An unheld repository goes to the
 * framework, whose read queues it; so does a malformed name or date, which it explains.
 */
export function hotEntityAnswers(deps: DiscoveryDeps, answers: AnswerCache<EntityJson>): HotProvider {
  return {
    prefix: ENTITY_PREFIX,
    match(path, query) {
      const slash = path.indexOf('/');
      // Encoded or odd paths and other queries are the router's to read (and to explain).
      if (slash <= 0 || slash !== path.lastIndexOf('/') || slash === path.length - 1 || path.includes('%'))
        return undefined;
      const dated = datedQuery(query, deps.clock.now());
      if (dated === undefined) return undefined;
      return async () => {
        const cached = await heldEntityJson(deps, answers, path.slice(0, slash), path.slice(slash + 1), dated);
        if (!cached) return undefined;
        return {
          body: cached.json,
          contentType: 'application/json',
          etag: cached.etag,
          headers: ['cache-control', answerCacheControl(dated.asOf ?? undefined, deps.clock.now())],
          licensed: true,
          route: '/api/v1/entity/:owner/:repo',
        };
      };
    },
  };
}
