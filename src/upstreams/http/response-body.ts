/**
 * What an upstream's answer says, read within bounds: its body up to a cap (never downloaded past
 * it, domain/capped-stream.ts), as JSON when it is JSON, its content type, and the message an
 * error answer carries.
 */

/** The parsed body, or undefined when it is not JSON (endoflife's 404 is HTML, for one). */
export function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function messageOf(body: unknown, text: string): string {
  // Packagist's 404 is a JSON string.
  if (typeof body === 'string') return body.slice(0, 300);
  if (typeof body === 'object' && body !== null) {
    const b = body as { message?: unknown; error?: unknown };
    if (typeof b.message === 'string') return b.message.slice(0, 300);
    if (typeof b.error === 'string') return b.error.slice(0, 300);
  }
  return text.slice(0, 300).replace(/\s+/g, ' ').trim();
}

export function contentType(headers: Headers): string {
  return (headers.get('content-type') ?? '').slice(0, 100);
}
