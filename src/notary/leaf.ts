/**
 * Leaf bytes: the RFC 8785 (JCS) serialisation of a record, UTF-8 encoded.
 *
 * The log stores and hashes these exact bytes; nothing ever re-serialises a stored leaf to verify
 * it. encodeLeaf is therefore strict about what it accepts, because anything that two JSON
 * implementations might render differently (floats, huge integers, lone surrogates, undefined)
 * would make a leaf that a third party cannot reproduce.
 */
import canonicalize from 'canonicalize';

/**
 * tlog-tiles entry bundles prefix each entry with a uint16 length, so 65,535 bytes is the largest
 * entry that can ever be served as a static tile.
 */
export const MAX_LEAF_BYTES = 0xffff;

/** Nesting deeper than this is refused rather than risking a stack overflow mid-validation. */
const MAX_DEPTH = 64;

export class LeafEncodingError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LeafEncodingError';
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function where(path: (string | number)[]): string {
  return path.length === 0
    ? 'the record'
    : `record${path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('')}`;
}

function check(value: unknown, path: (string | number)[], open: Set<object>): void {
  if (path.length > MAX_DEPTH) throw new LeafEncodingError(`${where(path)} is nested deeper than ${MAX_DEPTH} levels`);
  switch (typeof value) {
    case 'boolean':
      return;
    case 'string':
      if (LONE_SURROGATE.test(value)) throw new LeafEncodingError(`${where(path)} contains a lone surrogate`);
      return;
    case 'number':
      // Only integers JSON parsers agree on: floats and anything past 2^53−1 render differently
      // across languages (RFC 8785 §3.2.2.3 leaves them to ES6 number formatting).
      if (!Number.isSafeInteger(value)) {
        throw new LeafEncodingError(`${where(path)} is ${value}: leaves hold only integers within ±(2^53−1)`);
      }
      return;
    case 'object':
      break;
    default:
      throw new LeafEncodingError(`${where(path)} is a ${typeof value}, which JSON cannot represent`);
  }
  if (value === null) return;
  if (open.has(value)) throw new LeafEncodingError(`${where(path)} refers back to itself`);
  open.add(value);
  if (Array.isArray(value)) {
    // Index loop, not forEach, so holes show up as undefined and are refused.
    for (let i = 0; i < value.length; i++) check(value[i], [...path, i], open);
  } else {
    const proto: unknown = Object.getPrototypeOf(value);
    // Dates, Maps, class instances… serialise through toJSON or not at all; only plain data goes in.
    if (proto !== Object.prototype && proto !== null) {
      throw new LeafEncodingError(`${where(path)} is not a plain object (convert dates to RFC 3339 strings first)`);
    }
    if (Object.getOwnPropertySymbols(value).length > 0) throw new LeafEncodingError(`${where(path)} has symbol keys`);
    for (const [key, child] of Object.entries(value)) {
      if (LONE_SURROGATE.test(key)) throw new LeafEncodingError(`a key in ${where(path)} contains a lone surrogate`);
      check(child, [...path, key], open);
    }
  }
  open.delete(value);
}

const utf8 = new TextEncoder();
// fatal: invalid UTF-8 is an error, not U+FFFD; ignoreBOM: a BOM is kept, so JSON.parse refuses it.
const utf8Strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** RFC 8785 canonical JSON of `record`, UTF-8 encoded; throws LeafEncodingError on anything unsafe. */
export function encodeLeaf(record: unknown): Uint8Array {
  check(record, [], new Set());
  let text: string | undefined;
  try {
    text = canonicalize(record);
  } catch (err) {
    throw new LeafEncodingError('the record cannot be canonicalised', { cause: err });
  }
  if (text === undefined) throw new LeafEncodingError('the record has no JSON representation');
  const bytes = utf8.encode(text);
  if (bytes.length > MAX_LEAF_BYTES) {
    throw new LeafEncodingError(
      `the leaf is ${bytes.length} bytes; the limit is ${MAX_LEAF_BYTES} (put large evidence in by digest)`,
    );
  }
  return bytes;
}

const LOGGED_AT = 'logged_at';

/**
 * The leaf bytes of `record` once its `logged_at` is known: encodeLeaf({ ...record, logged_at })
 * byte for byte, made in two steps. The record is checked and its canonical text on either side
 * of the logged_at member is made here, before an append takes the sequencer's lock; under the
 * lock only the instant is put between them. RFC 8785 sorts members by UTF-16 code units, so the
 * members before logged_at are exactly the keys that compare below it.
 */
export function leafAwaitingLoggedAt(record: Record<string, unknown>): (loggedAt: string) => Uint8Array {
  check(record, [], new Set());
  if (Object.hasOwn(record, LOGGED_AT)) throw new LeafEncodingError('the record already has a logged_at');
  // No prototype: a member named __proto__ must stay a member, not become the object's prototype.
  const before = Object.create(null) as Record<string, unknown>;
  const after = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(record)) (key < LOGGED_AT ? before : after)[key] = value;
  const head = canonicalize(before)!;
  const tail = canonicalize(after)!;
  const open = `${head === '{}' ? '{' : `${head.slice(0, -1)},`}"${LOGGED_AT}":`;
  const close = tail === '{}' ? '}' : `,${tail.slice(1)}`;
  return (loggedAt) => {
    check(loggedAt, [LOGGED_AT], new Set());
    const bytes = utf8.encode(open + JSON.stringify(loggedAt) + close);
    if (bytes.length > MAX_LEAF_BYTES) {
      throw new LeafEncodingError(
        `the leaf is ${bytes.length} bytes; the limit is ${MAX_LEAF_BYTES} (put large evidence in by digest)`,
      );
    }
    return bytes;
  };
}

/**
 * A JSON value rebuilt in RFC 8785 order (object keys sorted): what a leaf holds of it. An answer
 * that shows a leaf's evidence shows it in this order, whichever order its reader built it in, so
 * the same record always renders to the same bytes, read back from a row or from the leaf itself.
 */
export function inLeafOrder<T>(value: T): T {
  const text = canonicalize(value);
  if (text === undefined) throw new LeafEncodingError('the value has no JSON representation');
  return JSON.parse(text) as T;
}

/** Parses leaf bytes (strict UTF-8, then JSON). Does not check canonical form: see isCanonicalLeaf. */
export function decodeLeaf(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = utf8Strict.decode(bytes);
  } catch (err) {
    throw new LeafEncodingError('the leaf is not valid UTF-8', { cause: err });
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new LeafEncodingError('the leaf is not valid JSON', { cause: err });
  }
}

/** True iff `bytes` are exactly what encodeLeaf produces for the record they hold. */
export function isCanonicalLeaf(bytes: Uint8Array): boolean {
  let again: Uint8Array;
  try {
    again = encodeLeaf(decodeLeaf(bytes));
  } catch (err) {
    if (err instanceof LeafEncodingError) return false;
    throw err;
  }
  if (again.length !== bytes.length) return false;
  for (let i = 0; i < again.length; i++) if (again[i] !== bytes[i]) return false;
  return true;
}
