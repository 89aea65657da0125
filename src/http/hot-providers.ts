import type { AnswerCache } from '../operations/answer-cache.js';
import type { HeadAnswers } from '../operations/read-chain.js';
import type { EntityJson } from '../operations/read-entity.js';
import type { BadgeCache } from '../pages/badge-answer.js';
import type { PackagePageCache } from '../pages/package-answer.js';
import type { PageDeps } from '../pages/routes.js';
import { hotBadges } from './hot-badge.js';
import { hotEntityAnswers } from './hot-entity.js';
import { hotLogHead } from './hot-log-head.js';
import { hotPackagePages } from './hot-page.js';
import type { HotProvider } from './hot-path.js';

/** The caches each route shares with the hot path in front of it. */
export interface HotCaches {
  entityAnswers: AnswerCache<EntityJson>;
  badgeAnswers: BadgeCache;
  headAnswers: HeadAnswers;
  packagePages: PackagePageCache;
}

/**
 * The hot path's providers, in the order `serve` puts them in front of the framework (the bench and
 * the tests take the same list). Signed entity answers are signed per head, which the hot path
 * does not read: with verdicts on, the route answers them; badges, the head and pages carry none.
 */
export function hotProviders(deps: PageDeps, caches: HotCaches, options: { signed: boolean }): HotProvider[] {
  return [
    ...(options.signed ? [] : [hotEntityAnswers(deps, caches.entityAnswers)]),
    hotBadges(deps, caches.badgeAnswers),
    hotLogHead(deps, caches.headAnswers),
    ...hotPackagePages(deps, caches.packagePages),
  ];
}
