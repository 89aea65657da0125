import { daysBetween } from '../domain/calendar.js';
import type { Observation } from '../domain/observation.js';
import type { State } from '../domain/state.js';
import { StateBadge } from './layout.js';

const WIDTH = 800;
const HEIGHT = 48;
// Pattern tiles in viewBox units: the drawing scales with the page, so a tile must stay visible at a
// phone's width (about 0.45 of these units per pixel) and not crowd at a desktop's.
const TILE = 20;
const LATEST = 24;

/**
 * Each state's fill: its colour and a shape of its own (solid, stripes one way or the other, dots,
 * cross-hatching), so dormant, abandoned, deleted and eol — close in hue — stay apart for every
 * reader, and the legend shows the same tile beside each name.
 */
const SHAPES: Record<State, string> = {
  alive: `M0 0H${TILE}V${TILE}H0Z`,
  dormant: `M0 ${TILE}L${TILE} 0M-5 5L5 -5M15 25L25 15`,
  abandoned: `M5 5m-3 0a3 3 0 1 0 6 0a3 3 0 1 0 -6 0M15 15m-3 0a3 3 0 1 0 6 0a3 3 0 1 0 -6 0`,
  archived: `M0 5H${TILE}M0 15H${TILE}`,
  deleted: `M0 0L${TILE} ${TILE}M${TILE} 0L0 ${TILE}`,
  eol: `M5 0V${TILE}M15 0V${TILE}`,
  'unknown-stale': `M10 10m-2 0a2 2 0 1 0 4 0a2 2 0 1 0 -4 0`,
  not_observed: `M10 10m-2 0a2 2 0 1 0 4 0a2 2 0 1 0 -4 0`,
};

const patternId = (state: string) => `timeline-${state.replace(/[^a-z-]/g, '-')}`;

function StatePattern(props: { state: State }) {
  const { state } = props;
  return (
    <pattern id={patternId(state)} class="timeline-pattern" patternUnits="userSpaceOnUse" width={TILE} height={TILE}>
      <rect class="ground" width={TILE} height={TILE} />
      <path class={`ink-${state}`} d={SHAPES[state]} stroke-width="5" />
    </pattern>
  );
}

/**
 * The series drawn as one bar: each observation fills the span up to the next one with its state's
 * pattern. The drawing repeats the table for sighted readers; its text alternative and the legend
 * name every state, so neither colour nor shape carries meaning alone. The dates are text beside
 * the drawing, not inside it, so they keep the page's type size at any width.
 */
export function StateTimeline(props: { name: string; observations: Observation[] }) {
  const rows = props.observations;
  // Also an as_of page before the first observation: the record may hold later ones.
  if (rows.length === 0) return <p>Nothing to draw: no observation on or before this date.</p>;
  const first = rows[0]!.observation_date;
  const last = rows.at(-1)!.observation_date;
  const days = daysBetween(first, last);
  // The latest reading's own span would be one day of the series, a sliver on a phone: it keeps at
  // least LATEST units, so the state the page answers with is always visible in the drawing.
  const latestWidth = Math.max(WIDTH / (days + 1), LATEST);
  const x = (date: string) => (days === 0 ? 0 : ((WIDTH - latestWidth) * daysBetween(first, date)) / days);
  const states = [...new Set(rows.map((o) => o.state))];
  const summary = `State of ${props.name} from ${first} to ${last}: ${rows.length} observations, states read: ${states.join(', ')}.`;
  return (
    <figure>
      <svg
        class="timeline"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby="timeline-title"
        xmlns="http://www.w3.org/2000/svg"
      >
        <title id="timeline-title">{summary}</title>
        <defs>
          {states.map((s) => (
            <StatePattern state={s} />
          ))}
        </defs>
        {rows.map((o, i) => {
          const start = x(o.observation_date);
          const end = i + 1 < rows.length ? x(rows[i + 1]!.observation_date) : WIDTH;
          return (
            <rect
              class={`seg-${o.state}`}
              fill={`url(#${patternId(o.state)})`}
              x={start.toFixed(2)}
              y="0"
              width={Math.max(end - start, 1).toFixed(2)}
              height={HEIGHT}
            />
          );
        })}
      </svg>
      <p class="timeline-dates">
        <span>{first}</span>
        <span>{last}</span>
      </p>
      <figcaption>
        <ul class="legend">
          {states.map((s) => (
            <li>
              <svg viewBox={`0 0 ${TILE * 2} ${TILE}`} aria-hidden="true">
                <rect width={TILE * 2} height={TILE} fill={`url(#${patternId(s)})`} />
              </svg>
              <StateBadge state={s} />
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
