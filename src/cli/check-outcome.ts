/**
 * What a run of `tended check` ends with, for one file or a directory of them: shared by
 * check-run.ts (which sends a directory to check-dir.ts) and check-dir.ts, so neither imports the other's types.
 */
import type { CheckAnswer, ComponentCheck } from '../operations/check-components.js';
import type { ParseResult } from '../parsers/reference.js';

/** Where the answer comes from when there is no --url: the local record (check.ts), or nowhere. Each parsed file gets its answer, in order; with `observe`, the union of their components is read first, once. */
export type LocalAnswer = (parsed: ParseResult[], asOf: string | undefined, observe: boolean) => Promise<CheckAnswer[]>;

/** One file's part of a directory's check (check-dir.ts). */
export interface FileOutcome {
  /** The file's path relative to the directory checked, with `/`. */
  file: string;
  /** The manifest whose direct dependencies marked the lockfile's answer, when one was paired with it. */
  manifest?: string;
  format?: string;
  answer?: CheckAnswer;
  /** Why this file has no answer (it could not be read or parsed, or is too large to send). */
  error?: string;
  lines?: Map<string, number[]>;
  /** `kind:id` → the file (relative to the directory) its lines are in, when not `file` (a paired manifest). */
  linesIn?: Map<string, string>;
  failing?: ComponentCheck[];
}

/** What a run ended with: the exit code, and, once there was an answer, what a caller may show of it. */
export interface CheckOutcome {
  exit: number;
  /** The sentence on stderr when it ended before an answer (a usage error, a service that did not answer). */
  problem?: string;
  answer?: CheckAnswer;
  /** `kind:id` → the lines of the file naming it. */
  lines?: Map<string, number[]>;
  /** The results in a state that fails the gate. */
  failing?: ComponentCheck[];
  /** The sentence on stderr naming them, when there are any. */
  gate?: string;
  /** A directory was checked: each file found, with its answer or its error. */
  files?: FileOutcome[];
}

export interface Streams {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}
