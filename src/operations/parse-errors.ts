/**
 * A parse's error across the worker boundary (classes do not cross threads): the worker sends
 * {code, message, data} and the main thread rebuilds the error from its code. Only the errors a
 * person gets a 422 sentence for cross; anything else is a bare fault that names where it happened.
 */
import { TendedError, ValidationError, type ErrorCode, type ValidationIssue } from '../domain/errors.js';
import { InputError, TooComplexError } from '../parsers/reference.js';
import { MalformedJsonError } from './json-manifest.js';

export interface WireError {
  code: ErrorCode | 'fault';
  message: string;
  data?: { issues: ValidationIssue[] };
}

/** The codes a parse may answer with, and how each is made again on the main thread. */
const REBUILT: Partial<Record<ErrorCode, (wire: WireError) => Error>> = {
  validation: (wire) => new ValidationError(wire.data?.issues ?? []),
  malformed_json: (wire) => new MalformedJsonError(wire.message),
  too_complex: (wire) => Object.assign(new TooComplexError(''), { message: wire.message }),
  input: (wire) => new InputError(wire.message),
};

/** What the worker sends back for what a parse threw. */
export function toWire(error: unknown): WireError {
  if (error instanceof TendedError && REBUILT[error.code])
    return error instanceof ValidationError
      ? { code: error.code, message: error.message, data: { issues: error.issues } }
      : { code: error.code, message: error.message };
  // A RangeError is a bound of the engine's, never a fault of the parser's logic: the stack
  // ("Maximum call stack size exceeded") or a string or array past V8's length. The input asked
  // for more than one request may use; its message quotes nothing of the input.
  if (error instanceof RangeError)
    return {
      code: 'too_complex',
      message: new TooComplexError(
        'reading it needs more nesting or a longer value than one request may use. Send a smaller or flatter file.',
      ).message,
    };
  // Anything else is Tended's fault. Its message may quote the input, so only where it happened crosses.
  const stack = error instanceof Error ? (error.stack ?? '').split('\n').slice(1, 8).join('\n') : '';
  return {
    code: 'fault',
    message: `${error instanceof Error ? error.name : typeof error} in the parse worker\n${stack}`,
  };
}

/** The error again on the main thread, from its code; a fault is a plain Error (a logged 500). */
export function fromWire(wire: WireError): Error {
  const rebuild = wire.code === 'fault' ? undefined : REBUILT[wire.code];
  return rebuild ? rebuild(wire) : new Error(wire.message);
}
