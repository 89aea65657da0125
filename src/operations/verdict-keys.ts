import { TendedError } from '../domain/errors.js';
import type { KeyObject } from 'node:crypto';
import { signEnvelope, verifyEnvelope } from '../notary/dsse.js';
import {
  KEY_SET_PAYLOAD_TYPE,
  assertSuccessor,
  keyFromJwk,
  keySetBytes,
  publicJwkOf,
  type KeySetDocument,
  type VerdictJwk,
} from '../notary/key-set.js';
import type { StoredKeySet } from '../storage/store.js';
import { KeySetConflictError } from '../storage/store-errors.js';
import type { RecordDeps } from './deps.js';

/** Where verdict private keys are kept (files in the data dir, never in the store): cli/ supplies it. */
export interface VerdictKeyFiles {
  readonly dir: string;
  load(kid: string): KeyObject | null;
  create(): { kid: string; privateKey: KeyObject };
}

export interface VerdictSigner {
  kid: string;
  privateKey: KeyObject;
}

/** The key set could not be used to sign: an operator's fix, answered 503 rather than a crash. */
export class VerdictKeyUnavailableError extends TendedError {
  constructor(message: string) {
    super('verdict_key_unavailable', message);
    this.name = 'VerdictKeyUnavailableError';
  }
}

const second = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The key set as it is published: the latest document, its signature, and where its digest is logged. */
export type KeySetAnswer = KeySetDocument & { signature: StoredKeySet['envelope']; leaf_index: number; digest: string };

export function keySetAnswer(latest: StoredKeySet): KeySetAnswer {
  return { ...latest.document, signature: latest.envelope, leaf_index: latest.leaf_index, digest: latest.digest };
}

/** The signed document inside a published key set (any JSON read back): the answer without what keySetAnswer adds. */
export function keySetDocumentOf(answer: Record<string, unknown>): Record<string, unknown> {
  const { signature: _signature, leaf_index: _leaf, digest: _digest, ...document } = answer;
  return document;
}

/** The active verdict key of a key set, with its private key from the files. */
export function activeSigner(keySet: StoredKeySet, files: VerdictKeyFiles): VerdictSigner {
  const active = keySet.document.keys.find((k) => k.status === 'active');
  if (!active)
    throw new VerdictKeyUnavailableError(
      `key set version ${keySet.document.version} has no active verdict key; run \`tended signing rotate\``,
    );
  const privateKey = files.load(active.kid);
  if (!privateKey) {
    throw new VerdictKeyUnavailableError(
      `the active verdict key ${active.kid} is not in ${files.dir}; copy it there from the machine that made it, or run \`tended signing rotate\``,
    );
  }
  return { kid: active.kid, privateKey };
}

/** The latest key set, creating version 1 (one new active key, signed by itself) when none exists. */
export async function ensureKeySet(deps: RecordDeps, files: VerdictKeyFiles): Promise<StoredKeySet> {
  const held = await deps.store.keySets();
  if (held.length > 0) return held.at(-1)!;
  const now = second(deps.clock.now());
  const fresh = files.create();
  const doc: KeySetDocument = {
    version: 1,
    issued_at: now,
    keys: [verdictJwk(fresh.privateKey, now)],
    log: {
      origin: deps.notary.origin,
      vkeys: [{ vkey: deps.notary.vkey, status: 'active', valid_from: now, valid_until: null }],
    },
  };
  try {
    const result = await deps.store.appendKeySet(
      { document: doc, envelope: signEnvelope(KEY_SET_PAYLOAD_TYPE, keySetBytes(doc), fresh.kid, fresh.privateKey) },
      deps.notary.seal,
    );
    return result.key_sets[0]!;
  } catch (error) {
    // Another process published version 1 first: use its set (the key made here is never published).
    if (error instanceof KeySetConflictError) return (await deps.store.keySets()).at(-1)!;
    throw error;
  }
}

/**
 * `tended signing rotate`: a new active verdict key; the one before stays in the set, retired, with
 * its validity window closed now. The new version is signed by the previous version's active key,
 * so an agent holding version N can walk to N+1 offline; its digest is logged. When the checkpoint
 * key in use is not the one the set names, it is added and the old one retired the same way.
 */
export async function rotateVerdictKey(
  deps: RecordDeps,
  files: VerdictKeyFiles,
): Promise<{ previous: StoredKeySet; next: StoredKeySet }> {
  const previous = await ensureKeySet(deps, files);
  const signer = activeSigner(previous, files);
  const now = second(deps.clock.now());
  const fresh = files.create();
  const retire = <T extends { status: string; valid_until: string | null }>(k: T): T =>
    k.status === 'active' ? { ...k, status: 'retired', valid_until: now } : k;
  const sameCheckpointKey = previous.document.log.vkeys.some(
    (k) => k.vkey === deps.notary.vkey && k.status === 'active',
  );
  const doc: KeySetDocument = {
    version: previous.document.version + 1,
    issued_at: now,
    keys: [...previous.document.keys.map(retire), verdictJwk(fresh.privateKey, now)],
    log: {
      origin: previous.document.log.origin,
      vkeys: sameCheckpointKey
        ? previous.document.log.vkeys
        : [
            ...previous.document.log.vkeys.map(retire),
            { vkey: deps.notary.vkey, status: 'active', valid_from: now, valid_until: null },
          ],
    },
  };
  assertSuccessor(previous.document, doc);
  const envelope = signEnvelope(KEY_SET_PAYLOAD_TYPE, keySetBytes(doc), signer.kid, signer.privateKey);
  const result = await deps.store.appendKeySet({ document: doc, envelope }, deps.notary.seal);
  return { previous, next: result.key_sets[0]! };
}

/**
 * Walks a chain of key-set versions from a pinned one: each must be a superset of the one before
 * and signed by a key of it. Throws with a sentence at the first link that does not hold.
 */
export function verifyKeySetChain(versions: { document: KeySetDocument; envelope: unknown }[]): void {
  for (let i = 0; i < versions.length; i++) {
    const { document, envelope } = versions[i]!;
    const signers = i === 0 ? document.keys : versions[i - 1]!.document.keys;
    const opened = verifyEnvelope(envelope, KEY_SET_PAYLOAD_TYPE, (kid) => {
      const jwk = signers.find((k) => k.kid === kid);
      return jwk ? keyFromJwk(jwk) : null;
    });
    if (Buffer.compare(Buffer.from(opened.body), Buffer.from(keySetBytes(document))) !== 0) {
      throw new Error(`key set version ${document.version}: the signed bytes are not this document`);
    }
    if (i > 0) assertSuccessor(versions[i - 1]!.document, document);
  }
}

function verdictJwk(privateKey: KeyObject, now: string): VerdictJwk {
  return {
    ...publicJwkOf(privateKey),
    alg: 'Ed25519',
    use: 'sig',
    status: 'active',
    valid_from: now,
    valid_until: null,
  };
}
