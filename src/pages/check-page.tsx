/**
 * /check (issue 37): a person with a manifest, lockfile or SBOM and a browser pastes or chooses it
 * and reads one dated result per component, as `POST /api/v1/manifest` and `/api/v1/sbom` answer
 * it. A plain form post: no script is needed. The file is read in memory and never kept; the
 * result page holds it in a form that posts it again for the SARIF or the enriched SBOM.
 */
import { successorInWords } from '../domain/successor.js';
import type { CheckAnswer, ComponentCheck } from '../operations/check-components.js';
import { pathInWords, scopeInWords, versionInWords } from '../operations/tree-words.js';
import { Layout, StateBadge, renderDocument } from './layout.js';
import { BreakableText } from './breakable-text.js';

export const CHECK_PATH = '/check';
export const CHECK_SARIF_PATH = '/check/sarif';
export const CHECK_SBOM_PATH = '/check/sbom';

const TITLE = 'Check a manifest, lockfile or SBOM — Tended';
const DESCRIPTION =
  'Paste or choose a manifest, lockfile or SBOM: one dated, sourced maintenance result per component. Nothing is kept.';

/** What the person sent, given back so the result page can post it again for a download. */
export interface CheckedFile {
  text: string;
  filename?: string;
  /** An SBOM Tended can write back (CycloneDX 1.3+ JSON, SPDX 2.2/2.3 JSON): the enriched SBOM is offered. */
  writable: boolean;
}

/** The form alone, or the form with a refusal (too large, unreadable) said above it. */
export function renderCheckForm(problem?: { heading: string; sentences: string[] }): string {
  return renderDocument(
    <Layout title={problem ? `${problem.heading} — Tended` : TITLE} description={DESCRIPTION} robots="noindex">
      <h1>Check a file</h1>
      {problem ? (
        <div class="note check-problem" role="alert">
          <h2>{problem.heading}</h2>
          {problem.sentences.map((s) => (
            <p>{s}</p>
          ))}
        </div>
      ) : null}
      <CheckForm />
    </Layout>,
  );
}

function CheckForm() {
  return (
    <>
      <p class="lede">
        Paste a manifest, a lockfile or an SBOM, or choose the file: each component it names gets what the record holds
        for it today — a state, the date it was observed and the source. The file is read in memory and not kept.
      </p>
      <form class="check-form" action={CHECK_PATH} method="post" enctype="multipart/form-data">
        <label for="check-content">Paste the file’s text</label>
        <textarea id="check-content" name="content" rows={10} spellcheck={false} autocomplete="off" />
        <label for="check-file">or choose the file (up to 4 MB)</label>
        <input id="check-file" type="file" name="file" />
        <p class="hint">
          Read: package.json, package-lock.json, yarn.lock, pnpm-lock.yaml, bun.lock, requirements.txt, Pipfile.lock,
          poetry.lock, uv.lock, go.mod, go.sum, Cargo.toml, Cargo.lock, composer.json, composer.lock, Gemfile,
          Gemfile.lock, pom.xml, gradle.lockfile, .csproj, packages.lock.json, Dockerfiles, GitHub Actions workflows,
          CycloneDX and SPDX SBOMs. A chosen file is read instead of the pasted text. For a larger file, run{' '}
          <code>tended check FILE</code> on your machine.
        </p>
        <button type="submit">Check</button>
      </form>
    </>
  );
}

/** The results of one file: the table, the entries that name no component, and the downloads. */
export function renderCheckResults(answer: CheckAnswer, file: CheckedFile): string {
  const named = file.filename
    ? `${file.filename} (${answer.variant ?? answer.format})`
    : (answer.variant ?? answer.format);
  return renderDocument(
    <Layout title={`Results: ${named} — Tended`} description={DESCRIPTION} robots="noindex">
      <h1>Results</h1>
      <p class="lede">
        {named}: {answer.results_count} component{answer.results_count === 1 ? '' : 's'}, as the record stood on{' '}
        {answer.as_of}. {answer.note}
      </p>
      <StateCounts answer={answer} />
      <Downloads file={file} />
      <ResultsTable answer={answer} />
      {answer.results_omitted ? (
        <p class="note">
          {answer.results_omitted} more entries were not checked: one answer holds at most 10,000 results. Run{' '}
          <code>tended check FILE</code> for all of them.
        </p>
      ) : null}
      {answer.discovery ? <p class="note">{answer.discovery.note}</p> : null}
      <Unresolved answer={answer} />
      <h2>Check another file</h2>
      <CheckForm />
    </Layout>,
  );
}

function StateCounts(props: { answer: CheckAnswer }) {
  const counted = Object.entries(props.answer.states);
  if (counted.length === 0) return null;
  return (
    <ul class="legend" aria-label="Results by state">
      {counted.map(([state, count]) => (
        <li>
          <StateBadge state={state} /> {count}
        </li>
      ))}
    </ul>
  );
}

/**
 * The file goes back as a hidden field of a multipart form: posted again only when a download is
 * asked for, so nothing is kept between the two requests and the page carries the file once.
 */
function Downloads(props: { file: CheckedFile }) {
  return (
    <form class="downloads" action={CHECK_SARIF_PATH} method="post" enctype="multipart/form-data">
      <input type="hidden" name="content" value={props.file.text} />
      {props.file.filename ? <input type="hidden" name="filename" value={props.file.filename} /> : null}
      <button type="submit">Download SARIF</button>
      {props.file.writable ? (
        <button type="submit" formaction={CHECK_SBOM_PATH}>
          Download the SBOM with the results written in
        </button>
      ) : null}
    </form>
  );
}

function ResultsTable(props: { answer: CheckAnswer }) {
  const results = props.answer.results;
  if (results.length === 0) return <p>The file names no component Tended can look up.</p>;
  const tree = results.some((r) => r.scope !== undefined || r.resolved_version !== undefined);
  return (
    <table class="check-results">
      <caption>One result per component, in the order the file first names them.</caption>
      <thead>
        <tr>
          <th scope="col">Component</th>
          <th scope="col">State</th>
          <th scope="col">Observed</th>
          <th scope="col">Censoring</th>
          <th scope="col">Source</th>
          <th scope="col">Successor</th>
          {tree ? <th scope="col">In the tree</th> : null}
        </tr>
      </thead>
      <tbody>
        {results.map((r) => (
          <ResultRow r={r} tree={tree} />
        ))}
      </tbody>
    </table>
  );
}

function ResultRow(props: { r: ComponentCheck; tree: boolean }) {
  const r = props.r;
  const place = [scopeInWords(r), pathInWords(r)].filter((s) => s !== '').join(' ');
  const version = versionInWords(r);
  return (
    <tr>
      <th scope="row" data-label="Component">
        <span class="mono">{r.input.name}</span> <span class="kind">{r.kind}</span>
      </th>
      <td data-label="State">
        <StateBadge state={r.state} />
      </td>
      <td data-label="Observed">{r.observation_date ?? 'not checked'}</td>
      <td data-label="Censoring">{r.censoring_status}</td>
      <td data-label="Source">
        {/* Nothing read: the Observed cell already says "not checked", and the sentence the answer
            gives as its source would only repeat it on every such row. */}
        {r.observation_date === null ? (
          '—'
        ) : /^https:\/\//.test(r.source) ? (
          <a class="mono" href={r.source} rel="nofollow noopener">
            {r.source}
          </a>
        ) : (
          <BreakableText text={r.source} />
        )}
      </td>
      <td data-label="Successor">{r.successor ? <span class="mono">{successorInWords(r.successor)}</span> : '—'}</td>
      {props.tree ? (
        <td data-label="In the tree">
          {version === '' ? null : <span class="version">{version}</span>} {place}
        </td>
      ) : null}
    </tr>
  );
}

function Unresolved(props: { answer: CheckAnswer }) {
  const answer = props.answer;
  if (answer.unresolved_count === 0) return null;
  return (
    <>
      <h2>Entries that name no component Tended reads</h2>
      <p>
        {answer.unresolved_count} entr{answer.unresolved_count === 1 ? 'y' : 'ies'}
        {answer.unresolved_omitted ? `, the first ${answer.unresolved.length} listed` : ''}:
      </p>
      <ul class="results">
        {answer.unresolved.map((u) => (
          <li>
            <span class="mono">{u.input}</span> <span class="kind">{u.location}</span>: {u.reason}
          </li>
        ))}
      </ul>
    </>
  );
}
