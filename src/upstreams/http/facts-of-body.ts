/**
 * A 200 body to the facts its spec reads, the same on either thread: the main thread reads small
 * bodies this way, the big-body worker (big-body-worker.ts) the big ones, so where a body is read
 * never changes what it says or how it fails.
 */
import type { EvidenceValue } from '../../domain/observation.js';
import type { FactsSpec } from './facts-spec.js';
import { parseJson } from './response-body.js';

/** What a 200's body is handed to its extractor as (RequestSpec.body). */
export type BodyKind = 'json' | 'text' | 'bytes';

/** The facts, a sentence saying why the body cannot be read, or "this is no JSON" (its own evidence). */
export type BodyReading = { facts: EvidenceValue } | { error: string } | { notJson: true };

/** The extractor's facts or sentence; a throw is a sentence too, never a crash of the pass. */
export function extractFacts<F extends EvidenceValue>(
  spec: FactsSpec<F>,
  input: unknown,
  headers: Headers,
): F | string {
  try {
    return spec.extract(input, headers);
  } catch (error) {
    // An extractor bug met by an odd body is still an odd body, not a crash of the pass.
    return `the body could not be read: ${error instanceof Error ? error.message : String(error)}`;
  }
}

export function decodeBody(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** Decodes, parses and extracts a 200 body as its request asked. */
export function readBody(
  spec: FactsSpec<EvidenceValue>,
  kind: BodyKind,
  bytes: Uint8Array,
  headers: Headers,
): BodyReading {
  let input: unknown;
  if (kind === 'bytes') input = bytes;
  else if (kind === 'text') input = decodeBody(bytes);
  else {
    input = parseJson(decodeBody(bytes));
    if (input === undefined) return { notJson: true };
  }
  const facts = extractFacts(spec, input, headers);
  return typeof facts === 'string' ? { error: facts } : { facts };
}
