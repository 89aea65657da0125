/**
 * C2SP tlog-checkpoint (https://github.com/C2SP/C2SP/blob/main/tlog-checkpoint.md): the signed
 * head of the log, as a signed note whose text is
 *
 *     <origin>\n<tree size, decimal>\n<base64 root>\n
 *
 * This log writes no extension lines (the spec calls them unauditable). Parsing tolerates them,
 * as the spec requires, and reports them separately so nobody mistakes them for signed facts
 * about the tree.
 */
import { HASH_SIZE, hashFromBase64, toBase64, type Hash } from './hash.js';
import { openNote, signNote, type NoteSigner, type NoteVerifier } from './note.js';

export class CheckpointError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CheckpointError';
  }
}

// No leading zeros, per the spec; also keeps BigInt/Number from accepting "0x10", " 7" or "1e3".
const SIZE = /^(?:0|[1-9]\d*)$/;

function assertOrigin(origin: string): void {
  if (typeof origin !== 'string' || origin.length === 0 || /[\u0000-\u001f]/.test(origin)) {
    throw new CheckpointError('origin must be a non-empty single line');
  }
}

export function checkpointText(origin: string, size: number, root: Hash): string {
  assertOrigin(origin);
  if (!Number.isSafeInteger(size) || size < 0)
    throw new CheckpointError(`tree size must be a non-negative safe integer, got ${size}`);
  if (!(root instanceof Uint8Array) || root.length !== HASH_SIZE)
    throw new CheckpointError('root must be a 32-byte hash');
  return `${origin}\n${size}\n${toBase64(root)}\n`;
}

export function parseCheckpoint(text: string): { origin: string; size: number; root: Hash; extensions: string[] } {
  if (typeof text !== 'string' || !text.endsWith('\n'))
    throw new CheckpointError('checkpoint text must end in a newline');
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3) throw new CheckpointError('checkpoint text needs origin, size and root lines');
  const [origin, sizeLine, rootLine, ...extensions] = lines as [string, string, string, ...string[]];
  if (lines.some((l) => l.length === 0)) throw new CheckpointError('checkpoint lines must be non-empty');
  assertOrigin(origin);
  if (!SIZE.test(sizeLine)) throw new CheckpointError(`malformed tree size ${JSON.stringify(sizeLine.slice(0, 32))}`);
  const size = Number(sizeLine);
  if (!Number.isSafeInteger(size)) throw new CheckpointError('tree size exceeds 2^53−1');
  let root: Hash;
  try {
    root = hashFromBase64(rootLine);
  } catch (err) {
    throw new CheckpointError('root hash is not base64 of 32 bytes', { cause: err });
  }
  return { origin, size, root, extensions };
}

/**
 * The full signed note for (origin, size, root). The signing key's name must be the origin
 * (rekor#2069 is what happens otherwise: clients cannot tell which key speaks for which log).
 */
export function signCheckpoint(origin: string, size: number, root: Hash, signer: NoteSigner): string {
  const text = checkpointText(origin, size, root);
  if (signer.name !== origin)
    throw new CheckpointError(`checkpoint key name ${signer.name} must equal the origin ${origin}`);
  return signNote(text, [signer]);
}

/**
 * Verifies the note with the pinned key and returns size and root taken from the verified text,
 * which is the only place clients may take them from (never from JSON next to the note).
 */
export function verifyCheckpoint(
  note: string | Uint8Array,
  verifier: NoteVerifier | NoteVerifier[],
  expectedOrigin: string,
): { size: number; root: Hash } {
  let text: string;
  try {
    // Several keys after a rotation: one known-key signature must verify (signed-note rules).
    text = openNote(note, Array.isArray(verifier) ? verifier : [verifier]).text;
  } catch (err) {
    throw new CheckpointError(`checkpoint signature check failed: ${(err as Error).message}`, { cause: err });
  }
  const parsed = parseCheckpoint(text);
  if (parsed.origin !== expectedOrigin) {
    throw new CheckpointError(
      `checkpoint is for origin ${JSON.stringify(parsed.origin)}, expected ${JSON.stringify(expectedOrigin)}`,
    );
  }
  return { size: parsed.size, root: parsed.root };
}
