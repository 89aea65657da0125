import { makeBadge } from 'badge-maker';
import type { BadgeReading } from '../operations/read-badge.js';
import type { State } from '../domain/state.js';
import { excerpt } from '../domain/text.js';

/**
 * What a badge shows (issue 18): a question for the label, the state and the date of the
 * observation it rests on for the message. Never a score. The SVG is drawn by badge-maker (the
 * shields.io renderer: Verdana 11px width table, XML escaping, `role="img"`, `aria-label` and
 * `<title>`), so no text reaching it can open an element.
 */
export const BADGE_LABEL = 'maintained?';

/** The site's state colours (site-css.ts), light scheme: each carries white text at AA contrast. */
const STATE_COLOURS: Record<State, string> = {
  alive: '166534',
  dormant: '854d0e',
  abandoned: '9a3412',
  archived: '5b21b6',
  deleted: '991b1b',
  eol: '7c2d12',
  'unknown-stale': '374151',
  not_observed: '374151',
};
/** Not checked is not a state of the component, only of the record: grey, never a "dead" red. */
const NOT_CHECKED_COLOUR = '4b5563';
/** A badge for a request that names nothing: a neutral grey that no state uses. */
const ERROR_COLOUR = '57534e';
const LABEL_COLOUR = '555';

/** The most characters of a reason an error badge shows; the badge stays a badge, not a paragraph. */
const MAX_ERROR_CHARS = 120;

export interface BadgeFace {
  label: string;
  message: string;
  /** Hex without "#", as the shields.io endpoint schema and badge-maker both read it. */
  color: string;
}

/** The face of a reading: `archived · 2025-08-01`, or `not checked` when the record holds no observation. */
export function badgeFace(reading: BadgeReading): BadgeFace {
  if (reading.state === null || reading.observation_date === null) {
    // A past date says which date was asked about, so "not checked" is not read as "not checked ever".
    const message = reading.past ? `not checked by ${reading.as_of}` : 'not checked';
    return { label: BADGE_LABEL, message, color: NOT_CHECKED_COLOUR };
  }
  return {
    label: BADGE_LABEL,
    message: `${stateWords(reading.state)} · ${reading.observation_date}`,
    color: STATE_COLOURS[reading.state],
  };
}

/** The face of a request that names no component: the reason, cut to a badge's length. */
export function errorFace(reason: string): BadgeFace {
  const message = excerpt(reason, MAX_ERROR_CHARS);
  return { label: BADGE_LABEL, message, color: ERROR_COLOUR };
}

/** The two states that say what the record lacks are written as words; the others by their names. */
function stateWords(state: State): string {
  if (state === 'not_observed') return 'not observed';
  if (state === 'unknown-stale') return 'unknown (stale)';
  return state;
}

export function badgeSvg(face: BadgeFace): string {
  return makeBadge({
    label: face.label,
    message: face.message,
    color: face.color,
    labelColor: LABEL_COLOUR,
    style: 'flat',
  });
}

/** A shields.io endpoint document (https://shields.io/badges/endpoint-badge); its schema admits no other keys. */
export function badgeEndpointJson(face: BadgeFace, cacheSeconds: number, isError = false): string {
  return JSON.stringify({
    schemaVersion: 1,
    label: face.label,
    message: face.message,
    color: face.color,
    labelColor: LABEL_COLOUR,
    ...(isError ? { isError: true } : {}),
    cacheSeconds,
  });
}
