import { AnswerCache } from '../operations/answer-cache.js';
import type { DiscoveryDeps } from '../operations/discovery.js';
import { readBadge, type BadgeTarget } from '../operations/read-badge.js';
import { badgeEndpointJson, badgeFace, badgeSvg } from './badge.js';
import { rendered, type Rendered } from './respond.js';

export const SVG = 'image/svg+xml; charset=utf-8';
export const JSON_TYPE = 'application/json';
/**
 * Today's answer moves with the next observation (at most daily), so caches keep it five minutes,
 * shields.io's own floor. A past date's answer is settled; only a dispute's dated correction could
 * still change it, so it is kept a day (as the data answers are) and revalidated by its tag, not
 * marked immutable.
 */
export const CURRENT_SECONDS = 300;
const PAST_SECONDS = 86_400;
/** An SVG opened on its own is a document of this origin: it may draw, never fetch or run anything. */
export const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'";
// A badge is a few hundred bytes: the badges of a busy day's READMEs fit in a few MB.
const BADGE_CACHE_ENTRIES = 4000;

export type BadgeFormat = 'svg' | 'json';

/** Rendered badges by the version of the record they were drawn from (BadgeTarget.version). */
export type BadgeCache = AnswerCache<Rendered>;

/** One cache for the badge route and the hot path in front of it (serve.ts makes it). */
export function badgeCache(): BadgeCache {
  return new AnswerCache<Rendered>(BADGE_CACHE_ENTRIES);
}

/** The 200 answer's headers beyond Rendered's own: an SVG carries its policy, a document nothing more. */
export function badgeExtraHeaders(format: BadgeFormat): Record<string, string> | undefined {
  return format === 'svg' ? { 'content-security-policy': SVG_POLICY } : undefined;
}

/** The badge for a target, drawn once per version of the record it reads. */
export async function renderedBadge(
  deps: DiscoveryDeps,
  badges: BadgeCache,
  target: BadgeTarget,
  format: BadgeFormat,
): Promise<Rendered> {
  const seconds = target.past ? PAST_SECONDS : CURRENT_SECONDS;
  // Whether the date is past is part of the key: yesterday's badge made yesterday was "current".
  const key = `${format}|${target.past ? 'past' : 'current'}|${target.version}`;
  let badge = badges.get(key);
  if (!badge) {
    const reading = await readBadge(deps, target);
    const face = badgeFace(reading);
    badge = rendered(format === 'svg' ? badgeSvg(face) : badgeEndpointJson(face, seconds), {
      contentType: format === 'svg' ? SVG : JSON_TYPE,
      cacheControl: `public, max-age=${seconds}`,
      lastModified: `${reading.observation_date ?? reading.as_of}T00:00:00Z`,
      versionKey: key,
    });
    badges.set(key, badge);
  }
  return badge;
}
