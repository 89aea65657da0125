/**
 * The parse worker's entry (a `node:worker_threads` thread of parse-pool.ts): reads one submission
 * at a time and answers with its components merged and bounded, or with the error it met, as
 * plain data (classes do not cross threads). Nothing here is logged: the body is never written
 * anywhere but this thread's memory, which ends with the task.
 */
import { parentPort } from 'node:worker_threads';
import { ValidationError } from '../domain/errors.js';
import { decodeText } from '../parsers/decode-text.js';
import { InputError, TooComplexError, type ParseResult } from '../parsers/reference.js';
import { manifestFromJson, MalformedJsonError } from './json-manifest.js';
import { parseManifest, parseSbom } from './parse-submission.js';
import { submittedComponents } from './submitted-components.js';
import type { ParseJob, WorkerAnswer, WorkerError } from './parse-pool.js';

function parse(job: ParseJob): ParseResult {
  const text = typeof job.body === 'string' ? job.body : decodeText(job.body);
  if (job.route === 'sbom') return parseSbom(text, job.contentType ?? '');
  if (job.json) return manifestFromJson(text, job.format);
  return parseManifest(text, { format: job.format, filename: job.filename });
}

/** What the main thread rebuilds: the errors a person gets a 4xx sentence for, else a bare fault. */
function described(error: unknown): WorkerError {
  if (error instanceof ValidationError)
    return { name: 'ValidationError', message: error.message, issues: error.issues };
  if (error instanceof MalformedJsonError) return { name: 'MalformedJsonError', message: error.message };
  if (error instanceof TooComplexError) return { name: 'TooComplexError', message: error.message };
  if (error instanceof InputError) return { name: 'InputError', message: error.message };
  // A RangeError is a bound of the engine's, never a fault of the parser's logic: the stack
  // ("Maximum call stack size exceeded") or a string or array past V8's length. The input asked
  // for more than one request may use; its message quotes nothing of the input.
  if (error instanceof RangeError)
    return {
      name: 'TooComplexError',
      message: new TooComplexError(
        'reading it needs more nesting or a longer value than one request may use. Send a smaller or flatter file.',
      ).message,
    };
  // Anything else is Tended's fault. Its message may quote the input, so only where it happened crosses.
  const stack = error instanceof Error ? (error.stack ?? '').split('\n').slice(1, 8).join('\n') : '';
  return {
    name: 'Fault',
    message: `${error instanceof Error ? error.name : typeof error} in the parse worker\n${stack}`,
  };
}

parentPort!.on('message', (job: ParseJob) => {
  let answer: WorkerAnswer;
  try {
    answer = { ok: submittedComponents(parse(job)) };
  } catch (error) {
    answer = { error: described(error) };
  }
  parentPort!.postMessage(answer);
});
parentPort!.postMessage({ ready: true });
