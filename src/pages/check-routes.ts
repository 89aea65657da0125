/**
 * The routes of /check (check-page.tsx). A form post is read as the submission API reads a body:
 * the same 4 MB bound while it streams in (readBody), the same parse pool off the main thread, the
 * same rate limit (the edge's, on every request); what it refuses is said on a page with the API's
 * own sentence and status. The file lives only in its request: nothing is stored or logged.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { datedRead } from '../domain/as-of.js';
import { ValidationError } from '../domain/errors.js';
import { checkComponents, type CheckAnswer } from '../operations/check-components.js';
import type { DiscoveryDeps } from '../operations/discovery.js';
import { MalformedJsonError } from '../operations/json-manifest.js';
import { ParseBusyError, type ParseJob, type ParsePool } from '../operations/parse-pool.js';
import { sarifReport } from '../operations/sarif-report.js';
import { enrichedSbom, isSbomFormat, writableSbom } from '../operations/sbom-enrichment.js';
import type { SubmittedComponents } from '../operations/submitted-components.js';
import type { VerdictService } from '../operations/verdict.js';
import { clientOf } from '../limits/client.js';
import { looksCycloneDx } from '../parsers/cyclonedx/detect.js';
import { decodeText } from '../parsers/decode-text.js';
import { InputError } from '../parsers/reference.js';
import { looksSpdx } from '../parsers/spdx/detect.js';
import { BodyTooLargeError, mediaType, readBody, UnsupportedMediaTypeError } from '../api/body.js';
import { CHECK_PATH, CHECK_SARIF_PATH, CHECK_SBOM_PATH, renderCheckForm, renderCheckResults } from './check-page.js';

export type CheckPageDeps = DiscoveryDeps & { verdicts?: VerdictService | null; parsing: ParsePool };

const FORM_TYPES = ['multipart/form-data', 'application/x-www-form-urlencoded'];
const HTML = 'text/html; charset=utf-8';
/** A page made from the person's own file: never kept by a cache, shared or private. */
const NO_STORE = { 'content-type': HTML, 'cache-control': 'no-store' };

interface Submission {
  text: string;
  filename?: string;
  submitted: SubmittedComponents;
}

export function registerCheckPageRoutes(app: OpenAPIHono, deps: CheckPageDeps): void {
  app.get(CHECK_PATH, (c) =>
    c.body(renderCheckForm(), 200, { 'content-type': HTML, 'cache-control': 'public, max-age=300' }),
  );

  app.post(CHECK_PATH, (c) =>
    refusedOnPage(c, async () => {
      const { text, filename, submitted } = await submission(c, deps);
      const answer = await check(c, deps, submitted);
      const writable = sbomFormatOf(submitted) !== null && canWriteBack(text, submitted);
      return c.body(renderCheckResults(answer, { text, filename, writable }), 200, NO_STORE);
    }),
  );

  app.post(CHECK_SARIF_PATH, (c) =>
    refusedOnPage(c, async () => {
      const { filename, submitted } = await submission(c, deps);
      const answer = await check(c, deps, submitted);
      const sarif = sarifReport(answer, { file: filename ?? 'submitted-file', lines: new Map() });
      return c.body(`${JSON.stringify(sarif, null, 2)}\n`, 200, {
        'content-type': 'application/sarif+json',
        'content-disposition': `attachment; filename="${downloadName(filename, 'tended.sarif')}"`,
        'cache-control': 'no-store',
      });
    }),
  );

  app.post(CHECK_SBOM_PATH, (c) =>
    refusedOnPage(c, async () => {
      const { text, filename, submitted } = await submission(c, deps);
      const format = sbomFormatOf(submitted);
      if (format === null)
        throw new ValidationError([
          {
            loc: ['body'],
            msg: `This is a ${submitted.variant ?? submitted.format}, not an SBOM: only an SBOM can be returned with the results written in. Download the SARIF instead.`,
            type: 'value_error.format',
          },
        ]);
      // Refused before any result is looked up when the SBOM cannot be written back.
      const writable = writableSbom(text, submitted, format);
      const answer = await check(c, deps, submitted);
      const suffix = format === 'cyclonedx' ? 'tended.cdx.json' : 'tended.spdx.json';
      return c.body(enrichedSbom(writable, answer.results), 200, {
        'content-type': writable.mediaType,
        'content-disposition': `attachment; filename="${downloadName(filename, suffix)}"`,
        'cache-control': 'no-store',
      });
    }),
  );
}

/** The form's file, else its pasted text, parsed in the pool as the API route for its kind would. */
async function submission(c: Context, deps: CheckPageDeps): Promise<Submission> {
  const type = mediaType(c);
  if (!FORM_TYPES.includes(type)) throw new UnsupportedMediaTypeError(type, FORM_TYPES);
  const body = await readBody(c);
  let form: FormData;
  try {
    // readBody's bytes are always over an ArrayBuffer of their own (never shared memory).
    form = await new Response(body as Uint8Array<ArrayBuffer>, {
      headers: { 'content-type': c.req.header('content-type')! },
    }).formData();
  } catch {
    throw new ValidationError([
      { loc: ['body'], msg: 'The form could not be read; send it again from the page.', type: 'value_error.form' },
    ]);
  }
  const file = form.get('file');
  const chosen = typeof file === 'object' && file !== null && file.size > 0 ? file : null;
  const pasted = form.get('content');
  const text = chosen
    ? decodeText(new Uint8Array(await chosen.arrayBuffer()))
    : typeof pasted === 'string'
      ? pasted
      : '';
  const named = chosen ? chosen.name : form.get('filename');
  const filename = typeof named === 'string' && named.trim() !== '' ? named.slice(0, 200) : undefined;
  if (text.trim() === '')
    throw new ValidationError([
      { loc: ['body'], msg: 'Nothing was sent: paste the file’s text or choose the file.', type: 'value_error.empty' },
    ]);
  // The detectors look at the head of the text only; the parse itself runs in the pool.
  const job: ParseJob =
    looksCycloneDx(text) || looksSpdx(text)
      ? { route: 'sbom', body: text }
      : { route: 'manifest', body: text, ...(filename ? { filename } : {}) };
  const submitted = await deps.parsing.parse(job, clientOf(c)?.parseKey);
  return { text, filename, submitted };
}

function check(c: Context, deps: CheckPageDeps, submitted: SubmittedComponents): Promise<CheckAnswer> {
  return checkComponents(
    { ...deps, asker: clientOf(c) },
    submitted,
    datedRead(undefined, deps.clock.now()),
    deps.verdicts,
  );
}

function sbomFormatOf(submitted: SubmittedComponents): 'cyclonedx' | 'spdx' | null {
  return isSbomFormat(submitted.format) ? submitted.format : null;
}

function canWriteBack(text: string, submitted: SubmittedComponents): boolean {
  try {
    writableSbom(text, submitted, sbomFormatOf(submitted)!);
    return true;
  } catch {
    return false;
  }
}

/** `package-lock.json.sarif`: the person's own file name, kept to safe characters for the header. */
function downloadName(filename: string | undefined, suffix: string): string {
  const base = (filename ?? '')
    .split(/[\\/]/)
    .pop()!
    .replace(/[^\w.-]/g, '_');
  return base === '' ? suffix : `${base}.${suffix}`;
}

/** What the API answers as 413, 415, 422 and 503 is said on the form page, with the same sentence and status. */
async function refusedOnPage(c: Context, answer: () => Promise<Response>): Promise<Response> {
  try {
    return await answer();
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal === null) throw error;
    const headers = refusal.status === 503 ? { ...NO_STORE, 'retry-after': '2' } : NO_STORE;
    return c.body(renderCheckForm(refusal), refusal.status, headers);
  }
}

function refusalOf(error: unknown): { status: 413 | 415 | 422 | 503; heading: string; sentences: string[] } | null {
  if (error instanceof BodyTooLargeError)
    return { status: 413, heading: 'The file is too large to check here', sentences: [error.message] };
  if (error instanceof UnsupportedMediaTypeError)
    return { status: 415, heading: 'The form was not sent as a form', sentences: [error.message] };
  if (error instanceof ValidationError)
    return { status: 422, heading: 'Tended could not read this file', sentences: error.issues.map((i) => i.msg) };
  if (error instanceof InputError || error instanceof MalformedJsonError)
    return { status: 422, heading: 'Tended could not read this file', sentences: [error.message] };
  if (error instanceof ParseBusyError) return { status: 503, heading: 'Busy', sentences: [error.message] };
  return null;
}

/** The edge's 413 for /check, before the body is read: the same sentence on the page. */
export function checkTooLargePage(c: Context, limit: number): Response {
  return c.body(
    renderCheckForm({
      heading: 'The file is too large to check here',
      sentences: [new BodyTooLargeError(limit).message],
    }),
    413,
    NO_STORE,
  );
}
