/**
 * `tended check FILE --url URL`: the file sent to a running service's manifest or SBOM route, and
 * what its answer (or its silence) means for the exit code (service-fetch.ts).
 */
import { trimTrailing } from '../domain/text.js';
import type { CheckAnswer } from '../operations/check-components.js';
import { EXIT } from './exit-codes.js';
import { fetchService, refusal, ServiceError } from './service-fetch.js';

/** How long the service may take over one check: generous, since a large SBOM is read and answered whole. */
const REMOTE_TIMEOUT_MS = 120_000;

export async function remoteCheck(
  url: string,
  text: string,
  filename: string,
  isSbom: boolean,
  asOf: string | undefined,
  queue: boolean,
): Promise<CheckAnswer> {
  const base = trimTrailing(url, '/');
  let parsedUrl: URL | null = null;
  try {
    parsedUrl = new URL(base);
  } catch {
    // reported below
  }
  if (!parsedUrl || (parsedUrl.protocol !== 'http:' && parsedUrl.protocol !== 'https:')) {
    throw new ServiceError(
      `--url ${url} is not an http:// or https:// address of a Tended service, e.g. https://tended.example`,
      EXIT.usage,
    );
  }
  const params = new URLSearchParams();
  if (asOf) params.set('as_of', asOf);
  if (queue) params.set('queue', 'true');
  const query = params.size > 0 ? `?${params.toString()}` : '';
  const request = isSbom
    ? { path: '/api/v1/sbom', type: 'text/plain', body: text }
    : { path: '/api/v1/manifest', type: 'application/json', body: JSON.stringify({ filename, content: text }) };
  const target = `${base}${request.path}`;
  const response = await fetchService(
    `${target}${query}`,
    { method: 'POST', headers: { 'content-type': request.type, accept: 'application/json' }, body: request.body },
    REMOTE_TIMEOUT_MS,
    'checked',
  );
  const reply = await response.text().catch(() => null);
  let body: unknown;
  try {
    body = reply === null ? undefined : JSON.parse(reply);
  } catch {
    body = undefined;
  }
  if (!response.ok) throw refusal(target, response, detailOf(body), 'checked');
  if (!isCheckAnswer(body)) {
    const type = response.headers.get('content-type') ?? 'no content type';
    throw new ServiceError(
      `${target} answered ${response.status} with something other than a Tended check answer (${type.slice(0, 60)}); is --url the address of a Tended service?`,
      EXIT.usage,
    );
  }
  return inCliWords(body, queue);
}

/**
 * The service's note on components it does not hold is written for HTTP clients ("send the same
 * request with ?queue=true"); a CLI user's way to ask is --queue.
 */
function inCliWords(answer: CheckAnswer, queue: boolean): CheckAnswer {
  const d = answer.discovery;
  if (!d || queue || d.queued > 0 || !d.note.includes('?queue=true')) return answer;
  const n = d.unheld.toLocaleString('en');
  return {
    ...answer,
    discovery: {
      ...d,
      note: `The service holds no observation of ${n} of these components on or before ${answer.as_of}. Run the same check with --queue to have it queue them for observation: each is read within a day, and answered from then on once its upstream shows it public.`,
    },
  };
}

/** The service's own explanation: `detail` as a sentence, or the 422 list's messages. */
function detailOf(body: unknown): string | null {
  const detail = (body as { detail?: unknown } | null | undefined)?.detail;
  if (typeof detail === 'string') return detail.slice(0, 500);
  if (Array.isArray(detail)) {
    const msgs = (detail as unknown[]).map((item) => {
      const d = item as { msg?: unknown; loc?: unknown } | null;
      if (typeof d?.msg !== 'string') return JSON.stringify(d);
      return Array.isArray(d.loc) ? `${d.loc.map(String).join('.')}: ${d.msg}` : d.msg;
    });
    return msgs.join('; ').slice(0, 500);
  }
  return null;
}

function isCheckAnswer(body: unknown): body is CheckAnswer {
  const b = body as Partial<CheckAnswer> | null | undefined;
  return (
    typeof b === 'object' &&
    b !== null &&
    Array.isArray(b.results) &&
    Array.isArray(b.unresolved) &&
    typeof b.as_of === 'string'
  );
}
