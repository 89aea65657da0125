/**
 * The big-body worker's entry (a `node:worker_threads` thread of big-body-reader.ts): decodes,
 * parses and extracts one upstream or feed body at a time, off the main thread, and answers with
 * the facts alone. The extractor is found by reference: the module its spec names (`from`) is
 * imported here and the export with the spec's version is the one used.
 *
 * Long arrays in the facts (a listing's names, a feed page's rows) are sent in pieces, each its
 * own message, and at most PIECES_AHEAD of them before the main thread says it has taken one: it
 * takes every message waiting in one go, so unpaced pieces would rebuild a million objects in one
 * turn of its event loop (1.8 s for a million rows), paced ones a few milliseconds at a time.
 */
import { parentPort } from 'node:worker_threads';
import type { EvidenceValue } from '../../domain/observation.js';
import { readBody, type BodyKind, type BodyReading } from './facts-of-body.js';
import type { FactsSpec } from './facts-spec.js';

export interface BigBodyJob {
  id: number;
  from: string;
  version: string;
  kind: BodyKind;
  /** The body as it arrived, joined here. */
  chunks: ArrayBuffer[];
  headers: [string, string][];
}

/** A piece of a long array of the facts (key: the facts' own field, or null when the facts are the array). */
export type BigBodyAnswer =
  { id: number; part: { key: string | null; items: unknown[] } } | { id: number; done: BodyReading };

/** Items per piece: a piece is rebuilt on the main thread in a few milliseconds. */
export const PIECE_ITEMS = 5_000;
const PIECES_AHEAD = 2;

/** The main thread's word that it has taken a piece of job `taken`. */
export type PieceTaken = { taken: number };

let unanswered = 0;
let onTaken: (() => void) | null = null;

const modules = new Map<string, Promise<Record<string, unknown>>>();

async function specOf(from: string, version: string): Promise<FactsSpec<EvidenceValue> | null> {
  let loading = modules.get(from);
  if (!loading) modules.set(from, (loading = import(from) as Promise<Record<string, unknown>>));
  const exports = await loading;
  for (const value of Object.values(exports)) {
    const spec = value as Partial<FactsSpec<EvidenceValue>> | null;
    if (typeof spec === 'object' && spec !== null && spec.version === version && typeof spec.extract === 'function')
      return spec as FactsSpec<EvidenceValue>;
  }
  return null;
}

async function send(id: number, key: string | null, items: unknown[]): Promise<void> {
  for (let at = 0; at < items.length; at += PIECE_ITEMS) {
    while (unanswered >= PIECES_AHEAD) await new Promise<void>((resolve) => (onTaken = resolve));
    unanswered++;
    parentPort!.postMessage({ id, part: { key, items: items.slice(at, at + PIECE_ITEMS) } } satisfies BigBodyAnswer);
  }
}

/** Sends the long arrays of the facts ahead, and answers with the facts holding empty ones in their place. */
async function sentInPieces(id: number, facts: EvidenceValue): Promise<EvidenceValue> {
  unanswered = 0;
  if (Array.isArray(facts)) {
    if (facts.length <= PIECE_ITEMS) return facts;
    await send(id, null, facts);
    return [];
  }
  if (typeof facts !== 'object' || facts === null) return facts;
  const rest: Record<string, EvidenceValue> = { ...facts };
  for (const [key, value] of Object.entries(facts)) {
    if (!Array.isArray(value) || value.length <= PIECE_ITEMS) continue;
    await send(id, key, value);
    rest[key] = [];
  }
  return rest;
}

async function read(job: BigBodyJob): Promise<BodyReading> {
  const spec = await specOf(job.from, job.version);
  if (!spec) return { error: `the body could not be read: no extractor for ${job.version} on the reading thread` };
  const bytes = Buffer.concat(job.chunks.map((chunk) => new Uint8Array(chunk)));
  job.chunks = [];
  const reading = readBody(spec, job.kind, bytes, new Headers(job.headers));
  return 'facts' in reading ? { facts: await sentInPieces(job.id, reading.facts) } : reading;
}

// One job at a time: the reader sends the next only once this one is done.
parentPort!.on('message', (job: BigBodyJob | PieceTaken) => {
  if ('taken' in job) {
    unanswered--;
    onTaken?.();
    onTaken = null;
    return;
  }
  void read(job).then(
    (done) => parentPort!.postMessage({ id: job.id, done } satisfies BigBodyAnswer),
    // Only the extractor's module failing to load gets here; its message names local paths, so it stays.
    () =>
      parentPort!.postMessage({
        id: job.id,
        done: { error: `the body could not be read: the extractor for ${job.version} could not be loaded` },
      } satisfies BigBodyAnswer),
  );
});
