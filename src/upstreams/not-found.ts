/**
 * When a not-found is the registry's own (issue 34). `deleted` means "an authoritative HTTP 404 was
 * read" (DESIGN §3), so a reader's not-found verdict stands only when the answer came from the host
 * the reader asked and in a shape that host serves. A redirect chain that leaves that host and ends
 * in a 404 is another host's word; a 404 whose body is an HTML page, from an API that never serves
 * HTML for its errors (npm, PyPI, GitHub, Docker Hub, Packagist answer JSON; nuget.org's blobs XML;
 * the crates index and rubygems.org plain text), is a proxy's or a captive portal's page. Either is
 * `not_observed`, keeping what was read: the status, the URL, the redirects and an excerpt.
 *
 * The shape check is deliberately loose: the registries' error bodies change and are not
 * promised, so JSON, XML, text and empty bodies all pass; only HTML is refused.
 */
import type { EvidenceValue } from '../domain/observation.js';
import { excerpt, redirectEvidence, type StatusAnswer, type Verdict } from './reading.js';
import { contentType } from './http/response-body.js';

const HTML_START = /^\s*<(?:!doctype\s+html|html[\s>])/i;

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Why this answer cannot be the registry's own not-found, or null when it is. */
export function whyNotTheRegistrys(answer: StatusAnswer): string | null {
  // Without redirects the answer is from the URL asked; with them, the chain must end where it began.
  const asked = answer.redirects[0]?.from;
  if (asked !== undefined) {
    const askedOrigin = originOf(asked);
    const answeredOrigin = originOf(answer.url);
    if (askedOrigin === null || askedOrigin !== answeredOrigin)
      return `the ${answer.status} came from ${answeredOrigin ?? answer.url}, not from ${askedOrigin ?? asked} that was asked: a redirect left the registry, so this is not its word`;
  }
  const type = contentType(answer.headers);
  if (/html/i.test(type) || HTML_START.test(answer.text))
    return `the ${answer.status} carries an HTML page (${type || 'no content type'}), which this registry's API never serves for its errors: a proxy's or another server's page, not the registry's not-found`;
  return null;
}

/**
 * The reader's verdict when it is no not-found, or when the not-found is the registry's own;
 * otherwise `not_observed` with the answer as evidence. Every reader's not-found passes here.
 */
export function registrysOwn(answer: StatusAnswer, verdict: Verdict): Verdict {
  if (!verdict.signals.notFound) return verdict;
  const why = whyNotTheRegistrys(answer);
  if (why === null) return verdict;
  const evidence: Record<string, EvidenceValue> = {
    http_status: answer.status,
    url: answer.url,
    content_type: contentType(answer.headers),
    message: excerpt(answer),
    unreachable: 'unparsable',
    not_authoritative: why,
    ...redirectEvidence(answer.redirects),
  };
  return { signals: { unreachable: 'unparsable' }, evidence };
}
