import { checkAnswerHead, checkAnswerTail, type CheckPlan } from '../operations/check-components.js';

/**
 * Results serialised per chunk: large enough to keep the per-chunk overhead small, small enough
 * that the chunk's string stays under V8's large-object size (128 KiB). Past it the string is
 * made in large-object space, and encoding it cost ~40 ms more per 10,000 results (256 results
 * of ~520 bytes, 134 KB a chunk) than at 64 (~33 KB a chunk, room for results four times larger).
 */
const RESULTS_PER_CHUNK = 64;
const COMMA = 0x2c;

/**
 * A check answer written as it is made, within `budget` bytes (answerBudget). A 4 MB SBOM answers with ~5.5 MB of JSON; built whole it
 * would sit in memory three times (objects, string, bytes) beside the parsed body. Pulled chunk
 * by chunk, only a few chunks of results exist at a time, and a slow reader slows the writer
 * (the stream is pull-based) instead of growing a buffer. `states` and `state_definitions` need
 * every result, so they come after them; JSON objects are unordered, so readers see the same answer.
 *
 * A chunk is one JSON.stringify of its array: V8 writes one flat string twice as fast as it
 * writes 256 and joins them (measured on 10,000 results: 23 ms against 44 ms).
 */
export function checkAnswerBody(plan: CheckPlan, budget = Infinity): ReadableStream<Uint8Array> {
  const pieces = checkAnswerPieces(plan, budget);
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await pieces.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await pieces.return(undefined);
      },
    },
    // Up to four chunks (~130 KB) made ahead: while the socket waits for the client to read, the
    // server makes the next results instead of idling until 'drain' (6 interleaved bench:sbom
    // pairs: median 179 ms against 191 with one chunk ahead).
    new CountQueuingStrategy({ highWaterMark: 4 }),
  );
}

/**
 * The bytes an answer may take (issue 24): ten times the submission plus 1 MB. A real SBOM's
 * answer is about 1.4× its size; 10,000 one-letter names in 59 KB once answered 4.3 MB.
 */
export function answerBudget(submissionBytes: number): number {
  return 10 * submissionBytes + 1_000_000;
}

/**
 * Room kept for what follows the results besides the unresolved entries, which are measured:
 * the counts, `states` and `state_definitions` (a dozen kinds × eight states of one sentence each
 * is ~12 KB) and the note.
 */
const TAIL_ROOM = 32 * 1024;

/**
 * The answer's bytes in order: its head, the results while they fit `budget` (the rest counted in
 * results_omitted and said in the note), then its tail. Shared by the HTTP body and MCP's text.
 */
export async function* checkAnswerPieces(plan: CheckPlan, budget = Infinity): AsyncGenerator<Buffer> {
  const head = Buffer.from(`${JSON.stringify(checkAnswerHead(plan)).slice(0, -1)},"results":[`);
  yield head;
  const listed = { unresolved: plan.unresolved, unresolved_by_reason: plan.unresolved_by_reason };
  let room = budget - head.length - Buffer.byteLength(JSON.stringify(listed)) - TAIL_ROOM;
  let written = 0;
  let first = true;
  const chunks = plan.results(RESULTS_PER_CHUNK);
  for await (const chunk of chunks) {
    // The array's own bytes, brackets cut off by a view: its "[" becomes the comma that
    // follows the previous chunk. Joining strings instead would hand Buffer.from a rope to
    // flatten first, which costs more than the encoding.
    let bytes = Buffer.from(JSON.stringify(chunk));
    let kept = chunk;
    if (bytes.length > room) {
      // The chunk that crosses the budget: as many of its results as fit, then no more.
      let fit = 0;
      let size = 1;
      while (fit < chunk.length) {
        const next = Buffer.byteLength(JSON.stringify(chunk[fit])) + 1;
        if (size + next > room) break;
        size += next;
        fit += 1;
      }
      kept = chunk.slice(0, fit);
      bytes = Buffer.from(JSON.stringify(kept));
      plan.cut(plan.planned - written - fit);
      await chunks.return(undefined);
    }
    if (kept.length > 0) {
      plan.keep(kept);
      room -= bytes.length;
      written += kept.length;
      bytes[0] = COMMA;
      yield bytes.subarray(first ? 1 : 0, -1);
      first = false;
    }
    if (kept !== chunk) break;
  }
  yield Buffer.from(`],${JSON.stringify(checkAnswerTail(plan)).slice(1)}`);
}
