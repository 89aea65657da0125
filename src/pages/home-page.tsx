import type { RecentChange } from '../operations/read-adoption.js';
import { Layout, SearchForm, StateBadge, renderDocument } from './layout.js';
import { packagePath, pageRegistry } from './registries.js';
import type { SiteFacts } from './static-pages.js';

export function renderHome(
  site: SiteFacts,
  view: { pages: number; changes: RecentChange[]; treeSize: number; recordAt: string },
): string {
  return renderDocument(
    <Layout
      title="Tended — is it still maintained?"
      description="A dated, verifiable record of whether software components are still maintained. No scores; a date with no observation is not observed."
      canonical={`${site.baseUrl}/`}
      headerSearch={false}
      jsonLd={[
        {
          '@context': 'https://schema.org',
          '@type': 'WebSite',
          name: 'Tended',
          url: `${site.baseUrl}/`,
          potentialAction: {
            '@type': 'SearchAction',
            target: `${site.baseUrl}/search?q={q}`,
            'query-input': 'required name=q',
          },
        },
      ]}
    >
      <h1>Is it still maintained?</h1>
      <p class="lede">
        Tended keeps a dated record of whether software components — GitHub repositories; npm, PyPI, Maven, Go, Cargo,
        NuGet, RubyGems and Composer packages; container base images and the OS releases under them — are still
        maintained. Every observation has a date, a state and the evidence it rests on, and is a leaf of a signed log
        anyone can verify. It never guesses and never scores.
      </p>
      <SearchForm id="home-search" label="Find a component" />
      <p class="check-link">
        Or <a href="/check">check a manifest, lockfile or SBOM</a> in one go.
      </p>

      <h2>Recently changed states</h2>
      <p>
        The latest state changes among the packages with a page, as the log stood at its head of {view.recordAt} (
        {view.treeSize} leaves); this list is recomputed at most once an hour.
      </p>
      {view.changes.length === 0 ? (
        <p>No state change is on record yet among the {view.pages} packages with a page.</p>
      ) : (
        <ul class="changes">
          {view.changes.map((c) => (
            <li>
              <a href={packagePath(c.ref)}>{c.ref.id}</a> ({pageRegistry(c.ref.kind)?.packageNoun ?? c.ref.kind}):{' '}
              <StateBadge state={c.mutation.from} /> → <StateBadge state={c.mutation.to} /> observed{' '}
              {c.mutation.observed} <span class="mono">(after {c.mutation.interval.after})</span>
            </li>
          ))}
        </ul>
      )}

      <h2>What the record holds</h2>
      <ul>
        <li>
          {view.pages} package{view.pages === 1 ? '' : 's'} with a page (at least {site.minDependents} dependent package
          {site.minDependents === 1 ? '' : 's'} by the latest census); every one is listed in the{' '}
          <a href="/sitemap.xml">sitemap</a>. GitHub repositories, container images, distribution releases and NuGet
          packages, which have no dependents count, have a page once observed: search for them above.
        </li>
        <li>
          {view.treeSize} leaves in the log.{' '}
          <a href="/verify">Verify the latest checkpoint and a leaf in your browser.</a>
        </li>
        <li>
          A JSON API for repositories, organisations, manifests and SBOMs, with point-in-time reads (<code>as_of</code>
          ): <a href="/api/v1/reference">the API reference</a> (as OpenAPI JSON: <a href="/api/v1/docs">/api/v1/docs</a>
          ).
        </li>
      </ul>
      <h2>Not on record yet?</h2>
      <p>
        A component this record has never read answers “not checked” (<code>not_observed</code>), never “gone”. On your
        own Tended, <code>npm start</code>, then <code>npx tended observe npm express</code> reads a package now and{' '}
        <code>/v1/trust_score/npm/express</code> answers it; or send a manifest with <code>?queue=true</code> and the
        next observer pass, within a minute, reads what the record lacks (
        <a href="/api/v1/reference">the API reference</a>).
      </p>
      <p>
        States are defined in the <a href="/methodology">methodology</a>. The record is kept apart from payment and
        advice: <a href="/separation">separation</a>.
      </p>
    </Layout>,
  );
}
