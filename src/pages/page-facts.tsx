import type { Census } from '../domain/census.js';
import type { Observation } from '../domain/observation.js';
import { successorInWords, type Successor } from '../domain/successor.js';
import { githubRepositoryAt, packagePath, pageRegistry, type PageRegistry } from './registries.js';

/**
 * The facts of a component's page that name what the evidence holds beyond a date: the version
 * the latest activity is, the component a retirement notice sends readers to, the source
 * repository, and adoption where the kind has none to show.
 */

type Evidence = Observation['evidence'] | null | undefined;

const dateOf = (instant: string | null): string | null =>
  instant !== null && /^\d{4}-\d{2}-\d{2}/.test(instant) ? instant.slice(0, 10) : null;

/** The date of the latest activity one reading's evidence holds: the one reading of it, for the facts and the rows. */
export function activityDate(registry: PageRegistry, evidence: Evidence): string | null {
  return evidence ? dateOf(registry.published(evidence)) : null;
}

/** The latest observation whose evidence holds a date of activity, with that date, or null. */
export function latestDated(
  registry: PageRegistry,
  observations: readonly Observation[],
): { date: string; observation_date: string; evidence: Observation['evidence'] } | null {
  for (let i = observations.length - 1; i >= 0; i--) {
    const o = observations[i]!;
    const date = activityDate(registry, o.evidence);
    if (date !== null) return { date, observation_date: o.observation_date, evidence: o.evidence };
  }
  return null;
}

/**
 * "1.1.0 (2024-12-01)": the version and its date, as much of them as the evidence holds. When the
 * latest reading holds none (a deleted repository) but an earlier one does, that one, with its date.
 */
export function LatestActivity(props: {
  registry: PageRegistry;
  latest: { evidence: Evidence; observation_date: string | null };
  dated: ReturnType<typeof latestDated>;
}) {
  const { registry, latest, dated } = props;
  const fromLatest = dated !== null && dated.observation_date === latest.observation_date;
  const evidence = fromLatest ? dated.evidence : latest.evidence;
  const version = evidence ? registry.version(evidence) : null;
  if (dated === null || !fromLatest) {
    const now =
      version === null ? (
        'not on record'
      ) : (
        <>
          <span class="version">{version}</span> (undated)
        </>
      );
    if (dated === null) return <>{now}</>;
    const earlier = registry.version(dated.evidence);
    return (
      <>
        {earlier !== null ? (
          <>
            <span class="version">{earlier}</span>{' '}
          </>
        ) : null}
        ({dated.date}), as read {dated.observation_date}; the latest reading
        {latest.observation_date ? ` (${latest.observation_date})` : ''} holds none
      </>
    );
  }
  if (version === null) return <>{dated.date}</>;
  return (
    <>
      <span class="version">{version}</span> ({dated.date})
    </>
  );
}

/** The notice, and the successor the answer reads out of it (methodology: successors), linked to its page. */
export function RetirementNotice(props: { registry: PageRegistry; evidence: Evidence; successor?: Successor }) {
  const e = props.evidence;
  const notice = e ? props.registry.notice(e) : null;
  if (notice === null) return <>none on record</>;
  const s = props.successor;
  return (
    <>
      {notice}
      {s ? (
        <>
          . The registry names a successor:{' '}
          <a href={packagePath({ kind: s.kind, id: s.name })}>{successorInWords(s)}</a>
          {s.kind === 'maven' ? (
            <>
              {' '}
              (<a href={pageRegistry('maven').pageUrl(s.name)!}>on Maven Central</a>)
            </>
          ) : null}
        </>
      ) : null}
    </>
  );
}

/** The source repository the metadata names, and Tended's record of it when it is on GitHub. */
export function SourceRepository(props: { registry: PageRegistry; evidence: Evidence }) {
  const address = props.evidence ? props.registry.repository(props.evidence) : null;
  if (address === null) return null;
  const github = githubRepositoryAt(address);
  return (
    <>
      {' · '}
      <a href={address}>source repository</a>
      {github !== null ? (
        <>
          {' '}
          (<a href={packagePath(github)}>its record</a>)
        </>
      ) : null}
    </>
  );
}

/** Adoption: the latest census, or why a kind without one has a page anyway. */
export function Adoption(props: { registry: PageRegistry; census: Census | null; asOf: string }) {
  const { census } = props;
  if (census === null)
    return (
      <>
        not counted: Tended reads no dependents count for a {props.registry.packageNoun}, so its page needs none (it has
        one once observed)
      </>
    );
  return (
    <>
      {census.dependents} dependent packages, read {census.read_date} (<a href={census.source}>dependents source</a>)
      {census.read_date > props.asOf
        ? `: the latest census, read after ${props.asOf}, the date this page answers for`
        : ''}
    </>
  );
}
