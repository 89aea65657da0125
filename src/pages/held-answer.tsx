import type { EntityResult } from '../operations/entity-answer.js';
import type { PackageRefusal } from '../operations/read-package.js';
import { Layout, StateBadge, renderDocument } from './layout.js';
import { answerPath } from '../api/answer-path.js';
import { badgePath, pageRegistry } from './registries.js';
import { explainNotFound } from './static-pages.js';

/**
 * The one answer for a component the record holds but the page rule gives no page: 200, because
 * what was asked (what the record holds of it) exists, and a 404 would make it look absent. It
 * states the state and its date, links the JSON answer and the badge, and says why there is no
 * full page; `noindex`, since rule 2 keeps pages of unadopted packages out of search engines.
 */

/** A refusal of a component the record holds observations of: what its short answer is made from. */
export type HeldRefusal = Extract<PackageRefusal, { held: unknown }> & { held: EntityResult };

/** The refusals that still name a held component: those must never read as absent. */
export function heldRefusal(refusal: PackageRefusal): HeldRefusal | null {
  return 'held' in refusal && refusal.held !== null ? (refusal as HeldRefusal) : null;
}

/** Why a held component has no full page, in one sentence (spec §2.2 rule 2: pages need adoption). */
export function whyNoPage(r: HeldRefusal): string {
  const noun = pageRegistry(r.ref.kind).packageNoun;
  return r.reason === 'no-census'
    ? `It has no full page yet: a ${noun}'s page needs a census of its dependents, and Tended has not read them yet.`
    : `It has no full page: ${
        explainNotFound({
          kind: 'not-qualified',
          name: r.ref.id,
          dependents: r.census.dependents,
          readDate: r.census.read_date,
          minDependents: r.minDependents,
        })[1]
      }`;
}

/** The same answer for a program (no text/html in Accept). */
export function heldAnswerJson(r: HeldRefusal) {
  const { held } = r;
  return {
    kind: r.ref.kind,
    id: r.ref.id,
    state: held.state,
    state_definition: held.state_definition,
    observation_date: held.observation_date,
    as_of: held.as_of,
    answer: answerPath(r.ref),
    badge: badgePath(r.ref),
    page: null,
    detail: whyNoPage(r),
  };
}

export function renderHeldAnswer(r: HeldRefusal): string {
  const { held, ref } = r;
  const name = ref.id;
  const noun = pageRegistry(ref.kind).packageNoun;
  const observed = held.observation_date;
  const answer = answerPath(ref);
  const badge = badgePath(ref);
  const summary = observed
    ? `${held.state} (${held.state_definition}), observed ${observed}`
    : `not checked on or before ${held.as_of}`;
  return renderDocument(
    <Layout
      title={`${name}: ${held.state} — Tended`}
      description={`The ${noun} ${name} is in Tended's record: ${summary}. ${whyNoPage(r)}`}
      robots="noindex"
    >
      <h1>
        {name}: <StateBadge state={held.state} />
      </h1>
      <p class="lede">
        Tended holds the {noun} {name}:{' '}
        {observed ? (
          <>
            {held.state_definition}, as observed {observed}
            {held.as_of !== observed ? ` (answering for ${held.as_of})` : ''}.
          </>
        ) : (
          <>no observation on or before {held.as_of}, so nothing is asserted for that date.</>
        )}
      </p>
      {held.note ? <p class="note">{held.note}</p> : null}
      <p>{whyNoPage(r)}</p>
      <dl class="facts">
        <dt>State</dt>
        <dd>
          <StateBadge state={held.state} /> {held.state_definition}
        </dd>
        <dt>Observed as of</dt>
        <dd>{observed ?? `no observation on or before ${held.as_of}`}</dd>
        <dt>Its dated answer (JSON)</dt>
        <dd>
          <a href={answer}>{answer}</a>
        </dd>
        <dt>Its badge</dt>
        <dd>
          <img src={badge} alt={`maintained? ${name}: the state Tended records, with its date`} />{' '}
          <a href={badge}>{badge}</a>
        </dd>
        {held.leaf_index !== null ? (
          <>
            <dt>In the log</dt>
            <dd>
              leaf {held.leaf_index}: <a href={`/verify?index=${held.leaf_index}`}>check its inclusion yourself</a>
            </dd>
          </>
        ) : null}
      </dl>
    </Layout>,
  );
}
