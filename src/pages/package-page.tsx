import type { Observation } from '../domain/observation.js';
import type { PackageRecord } from '../operations/read-package.js';
import { NOT_CHECKED } from '../domain/state.js';
import { Layout, LICENSE_URL, StateBadge, renderDocument } from './layout.js';
import { packagePath, pageRegistry, type PageRegistry } from './registries.js';
import {
  activityDate,
  Adoption,
  LatestActivity,
  latestDated,
  RetirementNotice,
  SourceRepository,
} from './page-facts.js';
import { StateTimeline } from './timeline.js';
import { BreakableText } from './breakable-text.js';

const noticeOf = (registry: PageRegistry, o: { evidence: Observation['evidence'] | null } | null): string | null =>
  o?.evidence ? registry.notice(o.evidence) : null;

/**
 * What a state means for a project that depends on the package: a reading of the record, not advice.
 * `observed` is the date of the observation it rests on: null when nothing was read ("not checked").
 */
function meaningFor(
  state: string,
  name: string,
  definition: string,
  registry: PageRegistry,
  observed: string | null,
): string {
  // No check was made, so nothing can have failed: say that, not what a failed check meets.
  if (observed === null)
    return `Nothing can be said: Tended holds no observation of ${name} on or before this date, so nothing was read and nothing is asserted (not checked, never "gone").`;
  switch (state) {
    case 'alive':
      return `The ${definition}: ${name} is active. The record says nothing about quality or security, only about maintenance activity.`;
    case 'dormant':
      return `The ${definition}. Dependent projects may want to watch whether activity on ${name} resumes.`;
    case 'abandoned':
      return `The ${definition}. Dependent projects carry whatever ${name} holds now, with no recent activity behind it.`;
    case 'archived':
      return `${definition[0]!.toUpperCase()}${definition.slice(1)}: the maintainers of ${name} have told its users to move away from it.`;
    case 'deleted':
      // Only what was read: the registry's answer on that date, not why, nor what an install would do later.
      return `${registry.name[0]!.toUpperCase()}${registry.name.slice(1)} answered on ${observed} that ${name} is not there (${definition}). The record holds that answer, not why, nor whether it will come back.`;
    case 'not_observed':
      return `The check of ${observed} could not read ${registry.name} (${definition}). Nothing is asserted about ${name} for that date.`;
    case 'unknown-stale':
      return `The last reading of ${name} is too old to vouch for this date, so no state is asserted (${definition}).`;
    default:
      return `${definition}.`;
  }
}

export interface PackagePageContext {
  /** Absolute base of this service's URLs (no trailing slash). */
  baseUrl: string;
  today: string;
  /** The as_of the reader asked for, or null for "as of today". */
  askedAsOf: string | null;
}

export function renderPackagePage(record: PackageRecord, ctx: PackagePageContext): string {
  const { ref, result, series, census, observations } = record;
  const registry = pageRegistry(ref.kind);
  const name = ref.id;
  const title = `is ${name} still maintained?`;
  const latest = observations.at(-1) ?? null;
  // The latest reading that holds a date of activity: the same reading of evidence as the table's rows.
  const dated = latestDated(registry, observations);
  const observed = result.observation_date;
  const url = `${ctx.baseUrl}${packagePath(ref)}`;
  const asOfNote = ctx.askedAsOf ? ` as of ${result.as_of}` : '';
  const badgePath = `/badge/${ref.kind}/${ref.id}.svg`;
  // The page's own address as the link: a reader who clicks the badge sees the dated record behind it.
  const badgeMarkdown = `[![maintained? ${name}](${ctx.baseUrl}${badgePath})](${url})`;

  const qa: { q: string; a: string }[] = [
    {
      q: `When was ${name} ${registry.activityDone}?`,
      a: !observed
        ? `Tended holds no observation of ${name} on or before ${result.as_of}: ${NOT_CHECKED}.`
        : dated === null
          ? `No reading of ${registry.name} up to ${observed} carries a date of ${registry.activityLabel.toLowerCase()} for ${name}.`
          : `${registry.activityLabel} of ${name}: ${dated.date}, as read from ${registry.name} on ${dated.observation_date}` +
            (dated.observation_date === observed
              ? '.'
              : `; the latest reading (${observed}, ${result.state}) carries no such date.`),
    },
    {
      q: `What state does Tended record for ${name}?`,
      a: observed
        ? `${result.state}: ${result.state_definition}. Observed ${observed} (${result.censoring_status}${ctx.askedAsOf ? `, answering for ${result.as_of}` : ''}).`
        : `${NOT_CHECKED}: Tended holds no observation of ${name} on or before ${result.as_of}, and never guesses one.`,
    },
    {
      q: `What does the state mean for projects that depend on ${name}?`,
      a: meaningFor(result.state, name, result.state_definition, registry, observed),
    },
    {
      q: `What is the observation record for ${name}?`,
      a:
        `${series.observations_count} dated observation${series.observations_count === 1 ? '' : 's'}` +
        (series.first_observed ? ` from ${series.first_observed} to ${series.last_observed}` : '') +
        `, with ${series.state_changes} state change${series.state_changes === 1 ? '' : 's'}. Each observation is a leaf of Tended’s ` +
        'append-only Merkle log, whose signed checkpoint anyone can verify at /verify. A date with no observation is recorded as not observed. The data is CC-BY-4.0.',
    },
  ];

  const jsonLd = [
    {
      '@context': 'https://schema.org',
      '@type': 'FAQPage',
      mainEntity: qa.map(({ q, a }) => ({
        '@type': 'Question',
        name: q,
        acceptedAnswer: { '@type': 'Answer', text: a },
      })),
    },
    {
      '@context': 'https://schema.org',
      '@type': 'Dataset',
      name: `Maintenance observations of the ${registry.packageNoun} ${name}`,
      description: `Dated observations of whether the ${registry.packageNoun} ${name} is still maintained. ${registry.method} One row per observation date; a date with no observation is not observed.`,
      url,
      identifier: result.purl,
      license: LICENSE_URL,
      isAccessibleForFree: true,
      creator: { '@type': 'Organization', name: 'Tended', url: ctx.baseUrl },
      ...(series.first_observed ? { temporalCoverage: `${series.first_observed}/${series.last_observed}` } : {}),
      ...(observed ? { dateModified: observed } : {}),
      variableMeasured: ['observation_date', 'state', `${registry.activityLabel} (date)`, registry.noticeLabel],
    },
  ];

  const page = (
    <Layout
      title={`${title} — Tended`}
      description={`${name}: ${observed ? `${result.state} (${result.state_definition}), observed ${observed}` : NOT_CHECKED}. Dated observations from ${registry.name}, CC-BY-4.0.`}
      canonical={url}
      jsonLd={jsonLd}
    >
      <h1>{title}</h1>
      <p class="lede">
        {observed ? (
          <>
            Tended’s latest reading{asOfNote}: <StateBadge state={result.state} /> — {result.state_definition}.
          </>
        ) : (
          <>
            Not checked{asOfNote}: Tended holds no observation of {name} on or before {result.as_of}, so nothing was
            read.
          </>
        )}
      </p>
      {result.note ? <p class="note">{result.note}</p> : null}

      <dl class="facts">
        {/* A page as of a past date shows the state then, not the latest. */}
        <dt>{ctx.askedAsOf ? `State as of ${result.as_of}` : 'State (latest)'}</dt>
        <dd>
          <StateBadge state={result.state} /> {result.state_definition}
        </dd>
        <dt>{registry.activityLabel}</dt>
        <dd>
          <LatestActivity registry={registry} latest={result} dated={dated} />
        </dd>
        <dt>{registry.noticeLabel}</dt>
        <dd>
          <RetirementNotice registry={registry} evidence={result.evidence} successor={result.successor} />
        </dd>
        <dt>Dated observations</dt>
        <dd>
          {series.observations_count}
          {series.first_observed ? `, first ${series.first_observed}, last ${series.last_observed}` : ''}
        </dd>
        <dt>State changes</dt>
        <dd>{series.state_changes}</dd>
        <dt>Adoption</dt>
        <dd>
          <Adoption registry={registry} census={census} asOf={result.as_of} />
        </dd>
        <dt>Method</dt>
        <dd>{registry.method}</dd>
        <dt>Source / evidence</dt>
        <dd>
          {observed ? <a href={result.source}>{result.source}</a> : result.source}
          {registry.pageUrl(name) !== null ? (
            <>
              {' · '}
              <a href={registry.pageUrl(name)!}>registry page</a>
            </>
          ) : null}
          <SourceRepository registry={registry} evidence={result.evidence} />
          {result.leaf_index !== null ? <> · log leaf {result.leaf_index}</> : null}
        </dd>
        <dt>Observed as of</dt>
        <dd>{observed ?? `no observation on or before ${result.as_of} (${NOT_CHECKED})`}</dd>
        <dt>Censoring</dt>
        <dd>
          {result.censoring_status}, answering for {result.as_of}
        </dd>
        <dt>Registry</dt>
        <dd>{registry.description}</dd>
      </dl>

      <h2>Badge</h2>
      <p>
        {/* On a page as of a past date the badge answers for that date too; the Markdown stays current. */}
        <img
          src={ctx.askedAsOf ? `${badgePath}?as_of=${result.as_of}` : badgePath}
          alt={`maintained? ${name}: the state Tended records, with its date`}
        />{' '}
        The badge shows the latest state and the date of the observation it rests on, never a score. Markdown for a
        README:
      </p>
      <pre class="badge-markdown">
        <code>{badgeMarkdown}</code>
      </pre>

      <form class="as-of" action={packagePath(ref)} method="get">
        <label for="as_of">See the record as of</label>
        {/* Text, not type=date: a date picker writes the reader's locale (mm/dd/yyyy); the site writes YYYY-MM-DD. */}
        <input
          id="as_of"
          type="text"
          name="as_of"
          inputmode="numeric"
          placeholder="YYYY-MM-DD"
          pattern="[0-9]{4}-[0-9]{2}-[0-9]{2}"
          title={`a date written YYYY-MM-DD, on or before ${ctx.today}`}
          aria-describedby="as_of-hint"
          size={10}
          value={ctx.askedAsOf ?? ''}
        />
        <button type="submit">Show</button>
        <span id="as_of-hint" class="hint">
          YYYY-MM-DD, on or before {ctx.today}
        </span>
      </form>

      <h2>State timeline</h2>
      <StateTimeline name={name} observations={observations} />

      <h2>State changes</h2>
      {series.mutations.length === 0 ? (
        <p>No state change{series.observations_count > 0 ? ` in ${series.observations_count} observations` : ''}.</p>
      ) : (
        <ul class="changes">
          {series.mutations.map((m) => (
            <li>
              {m.from} → {m.to} observed {m.observed}
              <span class="mono">
                {' '}
                (changed after {m.interval.after}, on or before {m.interval.on_or_before})
              </span>
            </li>
          ))}
        </ul>
      )}

      <h2>Dated observations</h2>
      {/* An empty series is said in words, not drawn as a table of headers. */}
      {observations.length === 0 ? (
        <p>
          No observation of {name} on or before {result.as_of}: {NOT_CHECKED}.
        </p>
      ) : (
        <section class="table-scroll" tabindex={0} aria-labelledby="series-caption">
          <table>
            <caption id="series-caption">
              One row per observation date, newest first. Dates without a row were not observed.
            </caption>
            <thead>
              <tr>
                <th scope="col">Observation date</th>
                <th scope="col">State</th>
                <th scope="col">{registry.activityLabel.replace(' version', '')}</th>
                <th scope="col">{registry.noticeLabel}</th>
              </tr>
            </thead>
            <tbody>
              {/* Newest first: the row the page answers with is the one a reader meets first, on any screen. */}
              {observations.toReversed().map((o) => (
                <tr>
                  <td>
                    {o.observation_date}
                    {o.corrects !== null ? ' (corrected)' : ''}
                  </td>
                  <td>{o.state}</td>
                  <td>{activityDate(registry, o.evidence) ?? '—'}</td>
                  <td>
                    <BreakableText text={noticeOf(registry, o) ?? '—'} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}

      <h2>Questions and answers</h2>
      <dl class="qa">
        {qa.map(({ q, a }) => (
          <>
            <dt>{q}</dt>
            <dd>{a}</dd>
          </>
        ))}
      </dl>
      {latest === null ? null : (
        <p>
          The latest observation is leaf {latest.leaf_index} of the log:{' '}
          <a href={`/verify?index=${latest.leaf_index}`}>check its inclusion yourself</a>.
        </p>
      )}
    </Layout>
  );
  return renderDocument(page);
}
