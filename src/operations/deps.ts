import type { KeyObject } from 'node:crypto';
import { sealHead } from '../notary/head.js';
import { noteSigner, noteVerifier, verifierKey, type NoteSigner, type NoteVerifier } from '../notary/note.js';
import type { HeadSealer, Store } from '../storage/store.js';

/** The log's identity: its origin line, the key that signs its checkpoints, and how to seal a head. */
export interface LogNotary {
  readonly origin: string;
  readonly signer: NoteSigner;
  readonly verifier: NoteVerifier;
  /** The C2SP verifier key a client pins: `origin+keyid+base64`. */
  readonly vkey: string;
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

export function logNotary(origin: string, privateKey: KeyObject, publicKey: KeyObject): LogNotary {
  const signer = noteSigner(origin, privateKey);
  return Object.freeze({
    origin,
    signer,
    verifier: noteVerifier(origin, publicKey),
    vkey: verifierKey(origin, publicKey),
    seal: ((input) => sealHead(input, origin, signer)) satisfies HeadSealer,
  });
}

export const systemClock: Clock = { now: () => new Date() };
