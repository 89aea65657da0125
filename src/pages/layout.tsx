import type { Child } from 'hono/jsx';
import { SITE_CSS } from './site-css.js';
import { shortHash } from './respond.js';

export const SITE_CSS_PATH = `/assets/site.css?v=${shortHash(SITE_CSS).slice(0, 10)}`;
export const LICENSE_URL = 'https://creativecommons.org/licenses/by/4.0/';

export interface LayoutProps {
  title: string;
  description: string;
  /** Absolute URL of this page, when known (sitemap and canonical link agree on it). */
  canonical?: string;
  /** schema.org objects, each written as its own JSON-LD data block (the only script a page inlines). */
  jsonLd?: object[];
  /** Scripts loaded from same-origin files; pages never inline executable script (CSP). */
  scripts?: string[];
  /** What the reader searched for, kept in the search box. */
  query?: string;
  /** false on a page with its own search box: two stacked boxes on a phone are one too many. */
  headerSearch?: boolean;
  /** `noindex` on an answer that is not a page for search engines (held-answer.tsx). */
  robots?: string;
  children?: Child;
}

/** The shared frame of every page: header with the package search, main, and the licence footer. */
export function Layout(props: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title}</title>
        <meta name="description" content={props.description} />
        {props.robots ? <meta name="robots" content={props.robots} /> : null}
        {props.canonical ? <link rel="canonical" href={props.canonical} /> : null}
        <link rel="stylesheet" href={SITE_CSS_PATH} />
        <link rel="license" href={LICENSE_URL} />
        {(props.jsonLd ?? []).map((data) => (
          <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdText(data) }} />
        ))}
        {(props.scripts ?? []).map((src) => (
          <script src={src} defer />
        ))}
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to the content
        </a>
        <header class="site-header">
          <a class="brand" href="/">
            Tended
          </a>
          <nav aria-label="Site">
            <ul>
              <li>
                <a href="/check">Check a file</a>
              </li>
              <li>
                <a href="/methodology">Methodology</a>
              </li>
              <li>
                <a href="/verify">Verify</a>
              </li>
              <li>
                <a href="/separation">Separation</a>
              </li>
              <li>
                <a href="/terms">Terms</a>
              </li>
            </ul>
          </nav>
          {props.headerSearch === false ? null : (
            <SearchForm id="site-search" label="Search the site" query={props.query} />
          )}
        </header>
        <main id="main">{props.children}</main>
        <footer class="site-footer">
          <p>
            Tended is a record, not advice: dated observations of public registry metadata, each a leaf of a signed,
            verifiable log. The data is published under <a href={LICENSE_URL}>CC-BY-4.0</a>; cite “Tended” and the
            observation date. No personal data is kept.
          </p>
        </footer>
      </body>
    </html>
  );
}

/** A GET form: it works without JavaScript; /search sends the reader to the page, or lists what matches. */
export function SearchForm(props: { id: string; label: string; query?: string }) {
  return (
    <form class="search" action="/search" method="get" role="search" aria-label={props.label}>
      <label class="visually-hidden" for={props.id}>
        name or part of one, registry:name, owner/repo, image reference, package URL or address
      </label>
      <input
        id={props.id}
        type="search"
        name="q"
        placeholder="e.g. rocket, pypi:requests, acme/rocket"
        value={props.query}
        required
        autocomplete="off"
        spellcheck={false}
      />
      <button type="submit">Look up</button>
    </form>
  );
}

export function StateBadge(props: { state: string }) {
  return <span class={`state state-${props.state}`}>{props.state}</span>;
}

/** `<` is escaped so no string in the data can end the script element early. */
function jsonLdText(data: object): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}

export function renderDocument(node: unknown): string {
  return `<!DOCTYPE html>${String(node)}`;
}
