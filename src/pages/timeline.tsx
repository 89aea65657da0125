import { daysBetween } from '../domain/calendar.js';
import type { Observation } from '../domain/observation.js';
import { StateBadge } from './layout.js';

const WIDTH = 800;
const LEFT = 8;
const BAR = WIDTH - 2 * LEFT;

/**
 * The series drawn as one bar: each observation colours the span up to the next one. The drawing
 * repeats the table for sighted readers; its text alternative and the legend name every state, so
 * colour never carries meaning alone. Presentation comes from classes in site.css, not inline style.
 */
export function StateTimeline(props: { name: string; observations: Observation[] }) {
  const rows = props.observations;
  // Also an as_of page before the first observation: the record may hold later ones.
  if (rows.length === 0) return <p>Nothing to draw: no observation on or before this date.</p>;
  const first = rows[0]!.observation_date;
  const last = rows.at(-1)!.observation_date;
  const span = daysBetween(first, last) + 1;
  const x = (date: string) => LEFT + (BAR * daysBetween(first, date)) / span;
  const states = [...new Set(rows.map((o) => o.state))];
  const summary = `State of ${props.name} from ${first} to ${last}: ${rows.length} observations, states read: ${states.join(', ')}.`;
  return (
    <figure>
      <svg
        class="timeline"
        viewBox={`0 0 ${WIDTH} 64`}
        role="img"
        aria-labelledby="timeline-title"
        xmlns="http://www.w3.org/2000/svg"
      >
        <title id="timeline-title">{summary}</title>
        {rows.map((o, i) => {
          const start = x(o.observation_date);
          const end = i + 1 < rows.length ? x(rows[i + 1]!.observation_date) : LEFT + BAR;
          return (
            <rect
              class={`seg-${o.state}`}
              x={start.toFixed(2)}
              y="8"
              width={Math.max(end - start, 1).toFixed(2)}
              height="28"
            />
          );
        })}
        <text x={LEFT} y="56">
          {first}
        </text>
        <text x={LEFT + BAR} y="56" text-anchor="end">
          {last}
        </text>
      </svg>
      <figcaption>
        <ul class="legend">
          {states.map((s) => (
            <li>
              <StateBadge state={s} />
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
