import type { KeyObject } from 'node:crypto';
import { sealHead } from '../notary/head.js';
import {
  noteSigner,
  noteVerifier,
  parseVerifierKey,
  verifierKey,
  type NoteSigner,
  type NoteVerifier,
} from '../notary/note.js';
import type { HeadSealer, Store } from '../storage/store.js';

/** The log's identity: its origin line, the key that signs its checkpoints, and how to seal a head. */
export interface LogNotary {
  readonly origin: string;
  readonly signer: NoteSigner;
  readonly verifier: NoteVerifier;
  /** The C2SP verifier key a client pins: `origin+keyid+base64`. */
  readonly vkey: string;
  /**
   * Every checkpoint key the log has published (this one first, then retired ones from the key
   * set): heads signed before a rotation verify under the key that signed them.
   */
  readonly vkeys: string[];
  readonly verifiers: NoteVerifier[];
  readonly seal: HeadSealer;
}

export interface Clock {
  now(): Date;
}

/** What every operation may use. Only operations/ write to the store. */
export interface RecordDeps {
  readonly store: Store;
  readonly notary: LogNotary;
  readonly clock: Clock;
}

export function logNotary(
  origin: string,
  privateKey: KeyObject,
  publicKey: KeyObject,
  publishedVkeys: string[] = [],
): LogNotary {
  const signer = noteSigner(origin, privateKey);
  const verifier = noteVerifier(origin, publicKey);
  const vkey = verifierKey(origin, publicKey);
  const others = [...new Set(publishedVkeys)].filter((k) => k !== vkey);
  return Object.freeze({
    origin,
    signer,
    verifier,
    vkey,
    vkeys: [vkey, ...others],
    verifiers: [verifier, ...others.map(parseVerifierKey).filter((v) => v.name === origin)],
    seal: ((input) => sealHead(input, origin, signer)) satisfies HeadSealer,
  });
}

export const systemClock: Clock = { now: () => new Date() };
