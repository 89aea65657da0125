/**
 * What an upstream's answer says, read within bounds: its body up to a cap (never downloaded past
 * it), as JSON when it is JSON, its content type, and the message an error answer carries. The
 * request bodies of the API are read by the same capped reader (api/body.ts).
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

/**
 * A body's bytes, or null once it passes `cap` (a declared length over it is refused before
 * anything is read, and the rest is never downloaded). Shared with the API's request bodies.
 */
export async function readCappedBody(
  body: ReadableStream<Uint8Array> | null,
  declaredLength: string | null | undefined,
  cap: number,
): Promise<Uint8Array | null> {
  const chunks = await readCappedChunks(body, declaredLength, cap);
  return chunks && Buffer.concat(chunks, byteLengthOf(chunks));
}

export function byteLengthOf(chunks: readonly Uint8Array[]): number {
  let total = 0;
  for (const chunk of chunks) total += chunk.byteLength;
  return total;
}

/**
 * readCappedBody's bytes as they arrived, not joined: joining 80 MB is itself a copy that holds
 * the event loop for a moment, so a big upstream body is joined on the thread that reads it.
 */
export async function readCappedChunks(
  body: ReadableStream<Uint8Array> | null,
  declaredLength: string | null | undefined,
  cap: number,
): Promise<Uint8Array[] | null> {
  const declared = Number(declaredLength);
  if (Number.isFinite(declared) && declared > cap) {
    await body?.cancel().catch(() => undefined);
    return null;
  }
  if (!body) return [];
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return chunks;
}
