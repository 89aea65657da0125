/**
 * The parse worker's entry (a `node:worker_threads` thread of parse-pool.ts): reads one submission
 * at a time and answers with its components merged and bounded, or with the error it met, as
 * plain data (classes do not cross threads). Nothing here is logged: the body is never written
 * anywhere but this thread's memory, which ends with the task.
 */
import { parentPort } from 'node:worker_threads';
import { decodeText } from '../parsers/decode-text.js';
import type { ParseResult } from '../parsers/reference.js';
import { manifestFromJson } from './json-manifest.js';
import { toWire } from './parse-errors.js';
import { parseManifest, parseSbom } from './parse-submission.js';
import { submittedComponents } from './submitted-components.js';
import type { ParseJob, WorkerAnswer } from './parse-pool.js';

function parse(job: ParseJob): ParseResult {
  const text = typeof job.body === 'string' ? job.body : decodeText(job.body);
  if (job.route === 'sbom') return parseSbom(text, job.contentType ?? '');
  if (job.json) return manifestFromJson(text, job.format);
  return parseManifest(text, { format: job.format, filename: job.filename });
}

parentPort!.on('message', (job: ParseJob) => {
  let answer: WorkerAnswer;
  try {
    answer = { ok: submittedComponents(parse(job)) };
  } catch (error) {
    answer = { error: toWire(error) };
  }
  parentPort!.postMessage(answer);
});
parentPort!.postMessage({ ready: true });
