import type { CheckPlan } from '../operations/check-components.js';

/** Results serialised per chunk: large enough to keep the per-chunk overhead small, small enough to stay in the young generation. */
const RESULTS_PER_CHUNK = 256;

/**
 * A check answer written as it is made. A 4 MB SBOM answers with ~7 MB of JSON; built whole it
 * would sit in memory three times (objects, string, bytes) beside the parsed body. Pulled chunk
 * by chunk, only one chunk of results exists at a time, and a slow reader slows the writer
 * (the stream is pull-based) instead of growing a buffer. `states` needs every result, so it
 * comes after them; JSON objects are unordered, so readers see the same answer.
 */
export function checkAnswerBody(plan: CheckPlan): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const head = {
    as_of: plan.as_of,
    format: plan.format,
    ...(plan.variant ? { variant: plan.variant } : {}),
    ...(plan.subject !== undefined ? { subject: plan.subject } : {}),
    results_count: plan.results_count,
    unresolved_count: plan.unresolved_count,
  };
  const results = plan.results();
  let started = false;
  let first = true;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(`${JSON.stringify(head).slice(0, -1)},"results":[`));
        return;
      }
      const parts: string[] = [];
      let done = false;
      while (parts.length < RESULTS_PER_CHUNK) {
        const next = await results.next();
        if (next.done) {
          done = true;
          break;
        }
        parts.push(JSON.stringify(next.value));
      }
      let text = parts.length > 0 ? (first ? '' : ',') + parts.join(',') : '';
      if (parts.length > 0) first = false;
      if (done) {
        const tail = { unresolved: plan.unresolved, states: plan.states, note: plan.note, license: plan.license };
        text += `],${JSON.stringify(tail).slice(1)}`;
      }
      controller.enqueue(encoder.encode(text));
      if (done) controller.close();
    },
  });
}
