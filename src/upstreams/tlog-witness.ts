/**
 * One C2SP tlog-witness `add-checkpoint` exchange (https://c2sp.org/tlog-witness): POST
 * `<submission prefix>/add-checkpoint` with "old <size>", the consistency proof lines, an empty
 * line and the checkpoint; the witness answers its cosignature lines, or a status that says why
 * not. Nothing here throws for the witness's trouble: every answer comes back as an outcome.
 */
import { trimTrailing } from '../domain/text.js';
import { toBase64, type Hash } from '../notary/hash.js';

/** A witness answers at most a few signature lines; anything much larger is not a witness. */
const MAX_ANSWER_BYTES = 64 * 1024;
/** The spec's cap on proof lines. */
export const MAX_PROOF_LINES = 63;

export type WitnessAnswer =
  /** 200: the signature lines as sent (unverified: the caller keeps only its witness's lines). */
  | { kind: 'cosigned'; lines: string }
  /** 409 with a size: the witness's latest cosigned size is another one. */
  | { kind: 'conflict'; size: number }
  /** Any other status, with the witness's words (trimmed, one line). */
  | { kind: 'refused'; status: number; reason: string }
  /** No answer: refused connection, DNS, time-out, a body too large. */
  | { kind: 'unreachable'; reason: string };

export function addCheckpointBody(oldSize: number, proof: Hash[], checkpoint: string): string {
  if (proof.length > MAX_PROOF_LINES) throw new RangeError(`a consistency proof of ${proof.length} lines is too long`);
  return `old ${oldSize}\n${proof.map((h) => `${toBase64(h)}\n`).join('')}\n${checkpoint}`;
}

export async function addCheckpoint(
  submissionPrefix: string,
  body: string,
  options: { timeoutMs: number; userAgent: string },
): Promise<WitnessAnswer> {
  const url = `${trimTrailing(submissionPrefix, '/')}/add-checkpoint`;
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'user-agent': options.userAgent },
      redirect: 'error',
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.length > MAX_ANSWER_BYTES) return { kind: 'unreachable', reason: `answered ${bytes.length} bytes` };
    text = new TextDecoder().decode(bytes);
  } catch (error) {
    const e = error as Error & { cause?: { code?: string } };
    if (e.name === 'TimeoutError') return { kind: 'unreachable', reason: `no answer within ${options.timeoutMs} ms` };
    return { kind: 'unreachable', reason: e.cause?.code ?? e.message };
  }
  if (response.status === 200) return { kind: 'cosigned', lines: text };
  if (response.status === 409) {
    const size = /^(0|[1-9]\d*)\n?$/.exec(text);
    if (size && Number.isSafeInteger(Number(size[1]))) return { kind: 'conflict', size: Number(size[1]) };
  }
  return { kind: 'refused', status: response.status, reason: oneLine(text) };
}

function oneLine(text: string): string {
  const line = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
