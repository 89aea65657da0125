/**
 * The files a command is given to read (check's manifest, import's and verify's export,
 * verify-verdict's envelope and key sets): one that cannot be read is a usage error saying why,
 * never a stack trace, and never a bare "cannot read X" that leaves the person guessing.
 */
import { readFileSync, statSync } from 'node:fs';

/** A file the command cannot use, said as one sentence: a usage error (exit 2). */
export class InputFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputFileError';
  }
}

const REASONS: Record<string, string> = {
  ENOENT: 'there is no such file',
  ENOTDIR: 'a part of its path is not a directory',
  EISDIR: 'it is a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ELOOP: 'it is a loop of symbolic links',
};

/** What to name instead of a directory, by default. */
const IN_A_DIRECTORY = 'name a file inside it';

function unreadable(file: string, error: unknown, inADirectory: string): InputFileError {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  const reason = REASONS[code] ?? (error as Error).message;
  return new InputFileError(`cannot read ${file}: ${reason}${code === 'EISDIR' ? `; ${inADirectory}` : ''}`);
}

/** The bytes of `file`, or an InputFileError saying why there are none (`inADirectory`: what to name instead of a directory). */
export function readInputFile(file: string, inADirectory = IN_A_DIRECTORY): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw unreadable(file, error, inADirectory);
  }
}

/** Throws an InputFileError unless `file` is a file this process may open: before a stream starts on it. */
export function checkReadable(file: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(file).isDirectory();
  } catch (error) {
    throw unreadable(file, error, IN_A_DIRECTORY);
  }
  if (isDirectory) throw unreadable(file, Object.assign(new Error('directory'), { code: 'EISDIR' }), IN_A_DIRECTORY);
}
