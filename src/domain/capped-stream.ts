/**
 * A stream's bytes read within a cap: never downloaded past it, a declared length over it refused
 * before a byte is read. One bound for what comes in from anywhere: an upstream's answer
 * (upstreams/http/client.ts) and a request body of the API (api/body.ts).
 */

/**
 * A body's bytes, or null once it passes `cap` (a declared length over it is refused before
 * anything is read, and the rest is never downloaded).
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
