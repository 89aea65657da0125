import type { ComponentRef } from '../domain/component.js';
import { Layout, SearchForm, renderDocument } from './layout.js';
import { packagePath, pageRegistry } from './registries.js';

/**
 * The search results: every held component whose name or id begins with what was typed, linked to
 * its page, with the query kept in the box so it can be refined.
 */
export function renderSearchResults(view: { query: string; results: ComponentRef[]; limit: number }): string {
  const { query, results } = view;
  const heading = results.length === 0 ? `Nothing held matches “${query}”` : `Components matching “${query}”`;
  return renderDocument(
    <Layout
      title={`${heading} — Tended`}
      description={`Components in Tended’s record whose name or id begins with ${query}.`}
      query={query}
      headerSearch={false}
    >
      <h1>{heading}</h1>
      <SearchForm id="results-search" label="Search again" query={query} />
      {results.length === 0 ? (
        <p>
          Tended’s record holds no component whose name or id begins with “{query}”. That means not checked, never gone:
          reading its facts from the API (<code>/v1/trust_score/KIND/ID</code>) or its badge queues it for observation.
          Search by part of a name (<code>rocket</code>), an exact name in any registry’s spelling (
          <code>pypi:requests</code>, <code>org.slf4j:slf4j-api</code>), a GitHub <code>owner/repo</code> or address, an
          image reference (<code>node:18-alpine</code>) or a package URL (<code>pkg:cargo/serde</code>).
        </p>
      ) : (
        <>
          <p>
            {results.length === view.limit ? `The first ${view.limit}` : results.length} held component
            {results.length === 1 ? '' : 's'} whose name or id begins with “{query}”, by name. A package of a registry
            whose dependents Tended counts has a page once enough packages depend on it; the others once observed.
          </p>
          <ul class="results">
            {results.map((r) => (
              <li>
                <a href={packagePath(r)}>{r.id}</a> <span class="kind">{pageRegistry(r.kind).packageNoun}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </Layout>,
  );
}
