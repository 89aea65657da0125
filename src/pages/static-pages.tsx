import {
  ALIVE_MAX_DAYS,
  DORMANT_MAX_DAYS,
  NOT_CHECKED,
  NOT_CHECKED_MEANING,
  STALE_AFTER_DAYS,
  STATE_DEFINITIONS,
  STATES,
} from '../domain/state.js';
import { Layout, LICENSE_URL, renderDocument } from './layout.js';

/** The pages whose text depends only on configuration: rendered once when the routes are registered. */

export interface SiteFacts {
  baseUrl: string;
  origin: string;
  verifierKey: string;
  minDependents: number;
  rateLimitFree: number;
  rateLimitKey: number;
}

/** The age states as ranges of whole days, d being the days from the last activity to the observation date. */
const WHOLE_DAYS: Partial<Record<(typeof STATES)[number], string>> = {
  alive: `d ≤ ${ALIVE_MAX_DAYS}`,
  dormant: `${ALIVE_MAX_DAYS + 1} ≤ d ≤ ${DORMANT_MAX_DAYS}`,
  abandoned: `d > ${DORMANT_MAX_DAYS}`,
  'unknown-stale': `reading more than ${STALE_AFTER_DAYS} days older than the date answered for`,
};

export function renderMethodology(site: SiteFacts): string {
  return renderDocument(
    <Layout
      title="Methodology — Tended"
      description="How Tended observes components: states, thresholds, sources, censoring and the notary."
      canonical={`${site.baseUrl}/methodology`}
    >
      <h1>Methodology</h1>
      <p class="lede">
        Tended reads public registry metadata once a day per watched component, classifies what it read into one state,
        and appends the observation to a signed log. It never guesses and never scores.
      </p>

      <h2>States</h2>
      <table>
        <caption>
          Every state an observation or an answer can carry; the last column gives the age states in whole days, which
          do not overlap.
        </caption>
        <thead>
          <tr>
            <th scope="col">State</th>
            <th scope="col">Meaning</th>
            <th scope="col">In whole days</th>
          </tr>
        </thead>
        <tbody>
          {STATES.map((s) => (
            <tr>
              <td>
                <code class="state-name">{s}</code>
              </td>
              <td>{STATE_DEFINITIONS[s]}</td>
              <td>{WHOLE_DAYS[s] ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        {/* Nothing read is not a failed read: the one state name covers both, the words do not. */}
        An answer for a date on or before which the record holds no observation carries <code>not_observed</code> with
        no observation date and says <em>{NOT_CHECKED}</em>: {NOT_CHECKED_MEANING}. A <code>not_observed</code> with an
        observation date is a read made that day that failed.
      </p>

      <h2>Thresholds</h2>
      <p>
        The age <em>d</em> is the number of whole days from the last activity to the observation date (UTC): <em>d</em>{' '}
        ≤ {ALIVE_MAX_DAYS} is <code>alive</code>, {ALIVE_MAX_DAYS + 1} ≤ <em>d</em> ≤ {DORMANT_MAX_DAYS} is{' '}
        <code>dormant</code>, <em>d</em> &gt; {DORMANT_MAX_DAYS} is <code>abandoned</code>. When several signals are
        read at once the strongest wins: deleted &gt; archived &gt; eol &gt; age. A failed read (403, 429, 5xx, a
        time-out, a network failure) is <code>not_observed</code>: it is never a death and never counts as a state
        change.
      </p>

      <h2>Sources, per kind</h2>
      {/* Four columns of prose are wider than a phone: the table scrolls sideways in its own box, the page does not. */}
      <section class="table-scroll" tabindex={0} aria-labelledby="sources-caption">
        <table>
          <caption id="sources-caption">What each kind’s states are read from.</caption>
          <thead>
            <tr>
              <th scope="col">Kind</th>
              <th scope="col">Last activity</th>
              <th scope="col">Archived</th>
              <th scope="col">Deleted</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>GitHub repository</td>
              <td>head commit date on the default branch</td>
              <td>the repository’s archived flag</td>
              <td>an authoritative 404 (a 301 is a rename, never a deletion)</td>
            </tr>
            <tr>
              <td>npm package</td>
              <td>latest publish time over the versions still present</td>
              <td>a deprecation notice on the latest version</td>
              <td>404, an unpublish, or a security holding package</td>
            </tr>
            <tr>
              <td>PyPI project</td>
              <td>latest upload time over non-yanked files</td>
              <td>PEP 792 archived/deprecated, or Development Status :: 7 - Inactive</td>
              <td>404</td>
            </tr>
            <tr>
              <td>Container base image</td>
              <td>when the tag was last pushed</td>
              <td>the image is deprecated upstream</td>
              <td>
                tag or repository not found; <code>eol</code> when the end-of-life listing says the product cycle has
                ended
              </td>
            </tr>
            <tr>
              <td>Maven artifact (Maven Central)</td>
              <td>the latest release’s POM publication time (Last-Modified)</td>
              <td>
                a <code>&lt;relocation&gt;</code> in the latest POM (the artifact moved)
              </td>
              <td>
                never: Central removes nothing, and an artifact may live in another repository; a 404 is{' '}
                <code>not_observed</code>
              </td>
            </tr>
            <tr>
              <td>Go module (the module proxy)</td>
              <td>
                the time of the version <code>@latest</code> names
              </td>
              <td>
                a <code>// Deprecated:</code> comment in its go.mod, or its GitHub repository archived
              </td>
              <td>
                never by the proxy (a module may be private); a GitHub-hosted module whose repository GitHub answers 404
              </td>
            </tr>
            <tr>
              <td>Crate (crates.io)</td>
              <td>publication time of the latest version not yanked</td>
              <td>every version yanked</td>
              <td>crates.io’s 404</td>
            </tr>
            <tr>
              <td>NuGet package (nuget.org)</td>
              <td>publication time of the latest listed version</td>
              <td>the latest listed version deprecated as Legacy, every listed version deprecated, or none listed</td>
              <td>nuget.org’s 404</td>
            </tr>
            <tr>
              <td>Gem (rubygems.org)</td>
              <td>publication time of the latest public version</td>
              <td>(rubygems.org has no deprecation flag)</td>
              <td>no public version: removed, or every version yanked</td>
            </tr>
            <tr>
              <td>Composer package (Packagist)</td>
              <td>publication time of the latest tagged release</td>
              <td>the abandoned flag</td>
              <td>Packagist’s 404</td>
            </tr>
            <tr>
              <td>OS package (deb, apk, rpm)</td>
              <td>
                none while endoflife.date marks its distribution release supported (<code>alive</code>); once no longer
                supported but not yet end-of-life, that release’s latest point release
              </td>
              <td>—</td>
              <td>
                <code>eol</code> once the distribution release’s end-of-life date has passed
              </td>
            </tr>
          </tbody>
        </table>
      </section>
      <p>
        For packages the state is read from the registry’s own metadata (its latest-published time and its deprecation,
        relocation or abandonment flag), which the registry serves to every installer: authoritative, not inferred.
      </p>

      <h2>Adoption and pages</h2>
      <p>
        A package of a registry whose dependents Tended counts (npm, PyPI, Maven Central, Go modules, crates.io,
        RubyGems, Packagist) gets a page when its latest census (the count of dependent packages listed by the
        dependents source) is at least {site.minDependents}. Each census read is dated, chained in the log, and shown on
        the page with its read date. A failed census read is recorded as unknown, never as zero.
      </p>
      <p>
        A component of a kind with no dependents count — a GitHub repository, a container image, a distribution release,
        a NuGet package — gets a page once the record holds an observation of it: there is no adoption signal to qualify
        it by, and its readings are public in the log anyway. A name Tended only queued, never read, has none.
      </p>

      <h2>Dates and censoring</h2>
      <ul>
        <li>
          A date with no observation is <em>not observed</em>; the record never fills it with the nearest value.
        </li>
        <li>
          An answer for a date (<code>as_of</code>) rests on the latest observation on or before it: an exact hit is{' '}
          <code>observed-on-date</code>, a carried-forward value <code>interval-censored</code> (with the real
          observation date), and a date before coverage <code>not-observed-at-date</code>.
        </li>
        <li>
          A carried-forward observation more than {STALE_AFTER_DAYS} days older than the date asserts nothing:{' '}
          <code>unknown-stale</code>.
        </li>
        <li>
          A state change is dated to the first observation that read the new state, and to the interval after the last
          reading of the old state: the change happened somewhere in that interval, not on a known day.
        </li>
        <li>A dispute re-reads the registry and appends a dated correction; history is never edited.</li>
      </ul>

      <h2>The notary</h2>
      <p>
        Every observation, correction and census read is a leaf of an append-only Merkle log (RFC 9162, the shape of
        Certificate Transparency). Leaf bytes are RFC 8785 canonical JSON; a leaf hashes as SHA-256(0x00 ‖ bytes). Each
        head is published as a C2SP checkpoint signed with Ed25519 under the origin <code>{site.origin}</code>, and
        commits to the head before it. The verifier key is:
      </p>
      <pre class="key">
        <code>{site.verifierKey}</code>
      </pre>
      <p>
        <a href="/verify">Verify the log in your browser</a>, or fetch <code>/api/chain/checkpoint</code>, an entry and
        its inclusion proof and check them with any RFC 9162 implementation.
      </p>
    </Layout>,
  );
}

export function renderTerms(site: SiteFacts): string {
  return renderDocument(
    <Layout
      title="Terms — Tended"
      description="Tended's data is CC-BY-4.0; it is a record, not advice; it holds no personal data."
      canonical={`${site.baseUrl}/terms`}
    >
      <h1>Terms</h1>
      <h2>Licence</h2>
      <p>
        The published data — observations, census reads, checkpoints and the pages built from them — is licensed under{' '}
        <a href={LICENSE_URL}>Creative Commons Attribution 4.0 International (CC-BY-4.0)</a>. Credit “Tended” and give
        the observation date. Every JSON answer says so in its body and in a <code>Link: rel="license"</code> header.
      </p>
      <h2>A record, not advice</h2>
      <p>
        Tended states what a public registry said on a date. It does not recommend, rank or score a component, and a
        state is not a judgement of quality or security. Decisions about what to depend on remain yours.
      </p>
      <h2>No personal data</h2>
      <p>
        Manifests and SBOMs you submit are parsed in memory and never stored or logged, and they never add anything to
        the record. Client addresses live only in the rate limiter’s memory, for a minute, never in the database or in
        logs. There are no cookies and no trackers on these pages.
      </p>
      <h2>Corrections</h2>
      <p>
        If a reading is wrong, a dispute makes Tended re-read the registry and append a dated correction beside the
        original; the original stays in the log.
      </p>
    </Layout>,
  );
}

export function renderSeparation(site: SiteFacts): string {
  return renderDocument(
    <Layout
      title="Separation — Tended"
      description="How Tended keeps the record apart from advice and from paid rate limits: paying buys rate, never a different record."
      canonical={`${site.baseUrl}/separation`}
    >
      <h1>Separation</h1>
      <p class="lede">The record is the same for everyone. Nothing anyone pays for, or asks for, changes it.</p>
      <h2>From payment</h2>
      <p>
        The free tier allows {site.rateLimitFree} requests a minute; an API key allows {site.rateLimitKey}. That is the
        whole difference: paying buys rate, never a different record, an earlier reading, a hidden observation or a
        removed one. The tiers are published at <a href="/prices.json">/prices.json</a>.
      </p>
      <h2>From advice</h2>
      <p>
        Tended publishes states and the dated facts they rest on. It offers no composite score, no ranking and no
        recommendation, so there is nothing to tune in anyone’s favour.
      </p>
      <h2>From the people it observes</h2>
      <p>
        A maintainer cannot edit a reading. A dispute makes Tended read the public registry again; the new reading is
        appended as a dated correction, and the old one stays in the log.
      </p>
      <h2>Checkable by anyone</h2>
      <p>
        Every observation is a leaf of a signed Merkle log. A reader can check that what a page shows is in the log
        everyone else sees: <a href="/verify">verify it</a>.
      </p>
    </Layout>,
  );
}

export type NotFoundReason =
  | { kind: 'not-watched'; name: string; noun: string }
  | { kind: 'no-census'; name: string; noun: string; factsPath: string }
  | { kind: 'not-qualified'; name: string; dependents: number | null; readDate: string; minDependents: number }
  | { kind: 'invalid-name'; name: string; noun: string; why: string }
  | { kind: 'invalid-date'; why: string }
  | { kind: 'no-page'; path: string };

/** A 404 page that says why there is no page, so a reader knows what "absent" means here (never "gone"). */
export function renderNotFound(reason: NotFoundReason): string {
  const [heading, body] = explainNotFound(reason);
  return renderDocument(
    <Layout title={`${heading} — Tended`} description={body}>
      <h1>{heading}</h1>
      <p>{body}</p>
      <p>
        Absence here means “not checked”, never “gone”. <a href="/methodology">Which components get a page</a>.
      </p>
    </Layout>,
  );
}

/** The heading and the sentence for a missing page; the sentence doubles as the JSON `detail`. */
export function explainNotFound(r: NotFoundReason): [string, string] {
  switch (r.kind) {
    case 'not-watched':
      return [
        `No page for ${r.name}`,
        `Tended holds no reading of the ${r.noun} ${r.name}: it was never observed and its dependents were never read, so it has no page. This says nothing about the package itself.`,
      ];
    case 'no-census':
      return [
        `No page yet for ${r.name}`,
        `Tended observes the ${r.noun} ${r.name} (its dated facts are at ${r.factsPath}), but its dependents have not been read yet, so it has no page: a page needs a census of its dependents first.`,
      ];
    case 'not-qualified':
      return [
        `No page for ${r.name}`,
        r.dependents === null
          ? `The latest census of ${r.name} (${r.readDate}) could not read its dependents, so it does not qualify for a page (pages need at least ${r.minDependents} dependent packages).`
          : `The latest census of ${r.name} (${r.readDate}) counted ${r.dependents} dependent packages; a page needs at least ${r.minDependents}.`,
      ];
    case 'invalid-name':
      return [
        `“${r.name}” is not a ${r.noun} name`,
        `${r.why}. Search by part of a name (rocket), an exact name (express, @babel/core), a registry and name (pypi:requests, cargo:serde), a GitHub owner/repo or its address, an image reference (node:18-alpine), a package URL (pkg:maven/org.slf4j/slf4j-api) or a registry page address.`,
      ];
    case 'invalid-date':
      return ['Not a date Tended can answer for', `${r.why}.`];
    case 'no-page':
      return [
        'Page not found',
        `There is no page at ${r.path}. Search for a component above by its name or part of it, or start from the home page.`,
      ];
  }
}
