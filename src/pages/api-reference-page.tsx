import { Layout, renderDocument } from './layout.js';

export const API_REFERENCE_PATH = '/api/v1/reference';

/**
 * The parts of an OpenAPI 3.1 document this page reads, as plain data: the page is written from
 * the very document GET /api/v1/docs serves, so the two cannot disagree.
 */
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
}
interface Operation {
  summary?: string;
  description?: string;
  parameters?: unknown[];
  requestBody?: { description?: string; content?: Record<string, unknown> };
  responses?: Record<string, { description?: string } | undefined>;
}
export interface ApiDocument {
  info: { title: string; version: string; description?: string };
  paths?: Record<string, object | undefined>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Every operation, in the document's path order, methods in the order above. */
function operationsOf(document: ApiDocument): { method: string; path: string; op: Operation }[] {
  const out: { method: string; path: string; op: Operation }[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const op = (item as Partial<Record<string, Operation>> | undefined)?.[method];
      if (op !== undefined) out.push({ method: method.toUpperCase(), path, op });
    }
  }
  return out;
}

// A parameter given as a $ref would need the components; the routes declare theirs inline.
const isParameter = (p: unknown): p is Parameter => typeof p === 'object' && p !== null && 'name' in p && 'in' in p;

/** `GET /v1/trust_score/{kind}/{id}` → `get-v1-trust-score-kind-id`: an address a reader can link to. */
const anchorOf = (method: string, path: string) =>
  `${method}-${path}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/-$/, '');

/**
 * A readable API reference, rendered on the server from the OpenAPI document: no script, no
 * third-party bundle (a Redoc or Scalar bundle injects inline styles this site's CSP refuses, and
 * weighs a megabyte), so it reads on a phone and offline, and the JSON stays at /api/v1/docs.
 */
export function renderApiReference(document: ApiDocument, baseUrl: string): string {
  const operations = operationsOf(document);
  return renderDocument(
    <Layout
      title={`API reference — ${document.info.title}`}
      description="Every operation of Tended's HTTP API: its parameters and its answers, from the OpenAPI document."
      canonical={`${baseUrl}${API_REFERENCE_PATH}`}
    >
      <h1>API reference</h1>
      <p class="lede">{document.info.description}</p>
      <p>
        Version {document.info.version}. {operations.length} operations. The same description as OpenAPI 3.1 JSON, for
        tools: <a href="/api/v1/docs">/api/v1/docs</a>. Examples and the error table: docs/api.md in the repository.
      </p>
      <nav aria-labelledby="operations-heading">
        <h2 id="operations-heading">Operations</h2>
        <ul class="operations">
          {operations.map(({ method, path, op }) => (
            <li>
              <a href={`#${anchorOf(method, path)}`}>
                <code>
                  {method} {path}
                </code>
              </a>
              {op.summary ? ` — ${op.summary}` : ''}
            </li>
          ))}
        </ul>
      </nav>
      {operations.map(({ method, path, op }) => {
        const parameters = (op.parameters ?? []).filter(isParameter);
        return (
          <section class="operation" id={anchorOf(method, path)} aria-labelledby={`${anchorOf(method, path)}-h`}>
            <h2 id={`${anchorOf(method, path)}-h`}>
              <code>
                {method} {path}
              </code>
            </h2>
            {op.summary ? <p>{op.summary}</p> : null}
            {op.description && op.description !== op.summary ? <p>{op.description}</p> : null}
            {parameters.length === 0 ? null : (
              <>
                <h3>Parameters</h3>
                <dl class="facts">
                  {parameters.map((p) => (
                    <>
                      <dt>
                        <code>{p.name}</code> ({p.in}
                        {p.required ? ', required' : ''})
                      </dt>
                      <dd>{p.description ?? '—'}</dd>
                    </>
                  ))}
                </dl>
              </>
            )}
            {op.requestBody === undefined ? null : (
              <>
                <h3>Body</h3>
                <p>
                  {op.requestBody.description ? `${op.requestBody.description} ` : ''}
                  As {Object.keys(op.requestBody.content ?? {}).join(', ')}.
                </p>
              </>
            )}
            <h3>Answers</h3>
            <dl class="facts">
              {Object.entries(op.responses ?? {}).map(([status, answer]) => (
                <>
                  <dt>{status}</dt>
                  <dd>{answer?.description ?? '—'}</dd>
                </>
              ))}
            </dl>
          </section>
        );
      })}
    </Layout>,
  );
}
