/**
 * Verdict envelopes: a DSSE envelope around an in-toto Statement v1
 * (https://github.com/in-toto/attestation/blob/main/spec/v1/statement.md) whose subject is the
 * component's purl with a digest and whose predicate is what the record held for it, with the
 * signed checkpoint and the inclusion proof of the observation's leaf beside it, so that the whole
 * thing verifies offline against a pinned key set (research anchors-notary.md §1.5).
 */
import { createHash, type KeyObject } from 'node:crypto';
import { parseCheckpoint, verifyCheckpoint } from './checkpoint.js';
import { verifyEnvelope, signEnvelope, type DsseEnvelope } from './dsse.js';
import { fromBase64, leafHash, toBase64 } from './hash.js';
import { keyFromJwk, type VerdictJwk } from './key-set.js';
import { decodeLeaf, encodeLeaf } from './leaf.js';
import { verifyInclusion } from './merkle.js';
import { parseVerifierKey } from './note.js';

export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';
export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const VERDICT_PREDICATE_TYPE = 'https://tended.dev/verdict/v1';

/** What the record held for one component on one date: the predicate of a verdict. */
export interface VerdictPredicate {
  purl: string[];
  as_of: string;
  state: string;
  observation_date: string | null;
  source: string;
  censoring_status: string;
  leaf_index: number | null;
  /** The tree the leaf is proven in: the signed checkpoint's origin, size and root. */
  checkpoint: { origin: string; tree_size: number; root_hash: string };
  issued_at: string;
}

export interface InclusionProof {
  leaf_index: number;
  tree_size: number;
  /** base64, the leaf's sibling first (RFC 9162 §2.1.3) */
  hashes: string[];
}

/** The envelope and everything needed to check it offline (an unsigned transport that verifies itself). */
export interface Verdict {
  envelope: DsseEnvelope;
  /** the signed C2SP checkpoint note the predicate names */
  checkpoint: string;
  /** the observation's leaf bytes (base64): the subject digest is their SHA-256; null when nothing is held */
  leaf: string | null;
  inclusion_proof: InclusionProof | null;
}

export class VerdictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VerdictError';
  }
}

const sha256Hex = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/**
 * The subject digest: SHA-256 of the observation's exact leaf bytes, so the statement names one
 * logged record. When nothing is held there is no leaf, and the digest is of the purl itself.
 */
export function subjectDigest(purl: string, leaf: Uint8Array | null): string {
  return sha256Hex(leaf ?? purl);
}

export function verdictStatement(predicate: VerdictPredicate, leaf: Uint8Array | null): Uint8Array {
  const name = predicate.purl[1] ?? predicate.purl[0]!;
  return encodeLeaf({
    _type: STATEMENT_TYPE,
    subject: [{ name, digest: { sha256: subjectDigest(name, leaf) } }],
    predicateType: VERDICT_PREDICATE_TYPE,
    predicate,
  });
}

export function signVerdict(
  input: {
    predicate: VerdictPredicate;
    checkpoint: string;
    leaf: Uint8Array | null;
    inclusion_proof: InclusionProof | null;
  },
  signer: { kid: string; privateKey: KeyObject },
): Verdict {
  const envelope = signEnvelope(
    IN_TOTO_PAYLOAD_TYPE,
    verdictStatement(input.predicate, input.leaf),
    signer.kid,
    signer.privateKey,
  );
  return {
    envelope,
    checkpoint: input.checkpoint,
    leaf: input.leaf ? toBase64(input.leaf) : null,
    inclusion_proof: input.inclusion_proof,
  };
}

/** The signing window of a key: [valid_from, valid_until], open-ended while it is active. */
function withinWindow(key: VerdictJwk, at: string): boolean {
  if (typeof key.valid_from !== 'string' || (key.valid_until !== null && typeof key.valid_until !== 'string')) {
    throw new VerdictError(`key ${key.kid} in the key set has no validity window (valid_from, valid_until)`);
  }
  return at >= key.valid_from && (key.valid_until === null || at <= key.valid_until);
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

const isIndex = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) >= 0;

/** base64 from an untrusted file, or a VerdictError naming what was not base64. */
function base64Field(text: string, what: string): Uint8Array {
  try {
    return fromBase64(text);
  } catch {
    throw new VerdictError(`${what} is not canonical base64`);
  }
}

/**
 * Verifies a verdict offline against a key set: the envelope's signature by a key of the set whose
 * kid is its own thumbprint, signed inside that key's validity window; the payload type; the
 * statement; the checkpoint against the set's checkpoint keys; and the leaf's inclusion in it.
 * Both arguments come from files a person passed: every field is checked before it is used.
 * Throws VerdictError with a sentence; returns the predicate when everything holds.
 */
export function verifyVerdict(
  verdict: unknown,
  keySet: unknown,
): { predicate: VerdictPredicate; subject: string; keyid: string } {
  if (!isObject(keySet) || !Array.isArray(keySet['keys']) || keySet['keys'].length === 0) {
    throw new VerdictError(
      'the key set has no keys: pass the JWK Set served at /.well-known/service-verdict-keys.json',
    );
  }
  const log = keySet['log'];
  if (!isObject(log) || typeof log['origin'] !== 'string' || !Array.isArray(log['vkeys'])) {
    throw new VerdictError(
      'the key set has no "log" with an "origin" and a "vkeys" list of checkpoint keys: pass the JWK Set served at /.well-known/service-verdict-keys.json',
    );
  }
  const origin = log['origin'];
  const vkeys = (log['vkeys'] as unknown[]).flatMap((k) =>
    isObject(k) && typeof k['vkey'] === 'string' ? [k['vkey']] : [],
  );
  if (!isObject(verdict) || !isObject(verdict['envelope']))
    throw new VerdictError('there is no verdict envelope in the file');
  const v = verdict as Partial<Record<keyof Verdict, unknown>>;
  const keys = new Map<string, VerdictJwk>();
  for (const jwk of keySet['keys'] as unknown[])
    if (isObject(jwk) && typeof jwk['kid'] === 'string') keys.set(jwk['kid'], jwk as unknown as VerdictJwk);

  let opened: { body: Uint8Array; keyid: string };
  try {
    opened = verifyEnvelope(v.envelope, IN_TOTO_PAYLOAD_TYPE, (kid) => {
      const jwk = keys.get(kid);
      return jwk ? keyFromJwk(jwk) : null;
    });
  } catch (error) {
    throw new VerdictError(`the envelope does not verify: ${(error as Error).message}`);
  }
  const statement = parseStatement(opened.body);
  const { predicate } = statement;
  const key = keys.get(opened.keyid)!;
  if (!withinWindow(key, predicate.issued_at)) {
    throw new VerdictError(
      `key ${key.kid} was not valid at ${predicate.issued_at} (valid ${key.valid_from} to ${key.valid_until ?? 'now'})`,
    );
  }
  const subject = statement.subject;

  if (typeof v.checkpoint !== 'string') throw new VerdictError('the verdict carries no checkpoint');
  let signed: { size: number; root: Uint8Array } | null = null;
  for (const vkey of vkeys) {
    try {
      signed = verifyCheckpoint(v.checkpoint, parseVerifierKey(vkey), origin);
      break;
    } catch {
      // Not this key (or a malformed one): a rotated set lists several; try the next.
    }
  }
  if (!signed) throw new VerdictError('the checkpoint is not signed by a checkpoint key of the key set');
  const c = predicate.checkpoint;
  if (c.origin !== origin || c.tree_size !== signed.size || c.root_hash !== toBase64(signed.root)) {
    throw new VerdictError('the predicate names a different checkpoint than the one carried beside it');
  }

  if (predicate.leaf_index === null) {
    if (subject.digest !== subjectDigest(subject.name, null))
      throw new VerdictError('the subject digest does not match its purl');
    return { predicate, subject: subject.name, keyid: opened.keyid };
  }
  const proof = v.inclusion_proof;
  if (typeof v.leaf !== 'string' || !isObject(proof))
    throw new VerdictError('the verdict names a leaf but carries no leaf bytes or inclusion proof');
  const leaf = base64Field(v.leaf, 'the leaf');
  if (subject.digest !== subjectDigest(subject.name, leaf))
    throw new VerdictError('the leaf bytes carried are not the ones the statement names');
  const hashes = proof['hashes'];
  if (
    !isIndex(proof['leaf_index']) ||
    !isIndex(proof['tree_size']) ||
    !Array.isArray(hashes) ||
    !hashes.every((h) => typeof h === 'string')
  ) {
    throw new VerdictError('the inclusion proof needs a leaf_index, a tree_size and a "hashes" list of base64 hashes');
  }
  if (proof['leaf_index'] !== predicate.leaf_index || proof['tree_size'] !== signed.size) {
    throw new VerdictError('the inclusion proof is not for the leaf and tree the statement names');
  }
  const path = hashes.map((h, i) => base64Field(h, `inclusion_proof.hashes[${i}]`));
  if (!verifyInclusion(leafHash(leaf), proof['leaf_index'], proof['tree_size'], path, signed.root)) {
    throw new VerdictError(
      `leaf ${proof['leaf_index']} is not included in the signed tree of size ${proof['tree_size']}`,
    );
  }
  let record: unknown;
  try {
    record = decodeLeaf(leaf);
  } catch {
    record = null;
  }
  if (
    !isObject(record) ||
    record['component'] !== subject.name ||
    record['observation_date'] !== predicate.observation_date ||
    record['source'] !== predicate.source
  ) {
    throw new VerdictError('the logged observation does not say what the statement says (component, date or source)');
  }
  return { predicate, subject: subject.name, keyid: opened.keyid };
}

function parseStatement(body: Uint8Array): { subject: { name: string; digest: string }; predicate: VerdictPredicate } {
  let s: unknown;
  try {
    s = decodeLeaf(body);
  } catch {
    throw new VerdictError('the payload is not JSON');
  }
  if (!isObject(s)) throw new VerdictError('the payload is not a JSON object');
  if (s['_type'] !== STATEMENT_TYPE)
    throw new VerdictError(`the payload is not an in-toto Statement v1 (_type ${JSON.stringify(s['_type'])})`);
  if (s['predicateType'] !== VERDICT_PREDICATE_TYPE)
    throw new VerdictError(`the predicate type is not ${VERDICT_PREDICATE_TYPE}`);
  const subjects = s['subject'];
  const first: unknown = Array.isArray(subjects) && subjects.length === 1 ? subjects[0] : undefined;
  const digest = isObject(first) && isObject(first['digest']) ? first['digest']['sha256'] : undefined;
  if (!isObject(first) || typeof first['name'] !== 'string' || typeof digest !== 'string')
    throw new VerdictError('the statement needs exactly one subject with a sha256 digest');
  const p = s['predicate'];
  if (!isObject(p) || typeof p['issued_at'] !== 'string' || !isObject(p['checkpoint'])) {
    throw new VerdictError('the predicate is missing its issued_at or checkpoint');
  }
  const c = p['checkpoint'];
  const fieldsOk =
    Array.isArray(p['purl']) &&
    p['purl'].every((x) => typeof x === 'string') &&
    ['as_of', 'state', 'source', 'censoring_status'].every((f) => typeof p[f] === 'string') &&
    (p['observation_date'] === null || typeof p['observation_date'] === 'string') &&
    (p['leaf_index'] === null || isIndex(p['leaf_index'])) &&
    typeof c['origin'] === 'string' &&
    isIndex(c['tree_size']) &&
    typeof c['root_hash'] === 'string';
  if (!fieldsOk)
    throw new VerdictError(
      'the predicate is not a Tended verdict (purl, as_of, state, observation_date, source, censoring_status, leaf_index, checkpoint)',
    );
  return { subject: { name: first['name'], digest }, predicate: p as unknown as VerdictPredicate };
}

/** Size and root named by a checkpoint note, unverified: for building a predicate from a head we hold. */
export function checkpointSummary(note: string): { origin: string; tree_size: number; root_hash: string } {
  const text = note.slice(0, note.indexOf('\n\n') + 1);
  const parsed = parseCheckpoint(text);
  return { origin: parsed.origin, tree_size: parsed.size, root_hash: toBase64(parsed.root) };
}
