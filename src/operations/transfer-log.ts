import { CENSUS_LEAF_TYPE, censusFromLeafRecord } from '../domain/census.js';
import { observationFromLeafRecord } from '../domain/observation-record.js';
import { ValidationError } from '../domain/errors.js';
import { toBase64 } from '../notary/hash.js';
import { decodeLeaf } from '../notary/leaf.js';
import { rootCoords } from '../notary/merkle.js';
import { KEY_SET_LEAF_TYPE, keySetFromLeafRecord } from '../notary/key-set.js';
import { parseVerifierKey } from '../notary/note.js';
import type { ImportedLeaf } from '../storage/store.js';
import { auditLog, AuditError } from './audit-log.js';
import type { RecordDeps } from './deps.js';
import { readHead } from './read-chain.js';

export const EXPORT_TYPE = 'tended/export/v1';

/** The first line of an export: what the leaves after it add up to, signed. */
export interface ExportHeader {
  _type: typeof EXPORT_TYPE;
  origin: string;
  verifier_key: string;
  start: number;
  tree_size: number;
  checkpoint: string;
  license: 'CC-BY-4.0';
  /**
   * The tree's right edge at `start` (base64 hashes of rootCoords(start), left to right): with it
   * an export that does not start at leaf 0 rebuilds the root on its own. Empty at start 0.
   */
  frontier?: string[];
  /** When the checkpoint is for a larger tree than `tree_size`: the RFC 9162 consistency proof from tree_size to it. */
  consistency?: string[];
  /** Every checkpoint key the log has published (retired ones too), for heads signed before a rotation. */
  verifier_keys?: string[];
  /** A daily dump: the UTC day its leaves were logged on, and whether that day was still open. */
  date?: string;
  partial?: boolean;
}

const PAGE = 5000;

/** The right-edge hashes of the tree of `size` leaves: what an export starting at `size` builds on. */
export async function frontierAt(deps: RecordDeps, size: number): Promise<string[]> {
  return (await deps.store.nodeHashes(rootCoords(size))).map(toBase64);
}

/**
 * Export as JSON Lines: a header, then one line per leaf holding the leaf's exact bytes (RFC 8785
 * JSON never contains a raw newline). With `since` (a date), starts at the first leaf logged on or
 * after it; a full export (start 0) can be imported and audited on its own.
 */
export async function* exportLog(deps: RecordDeps, since?: string): AsyncGenerator<string> {
  const head = await readHead(deps);
  let start = 0;
  if (since) start = Math.min(head.tree_size, (await deps.store.firstLeafLoggedFrom(since)) ?? head.tree_size);
  const header: ExportHeader = {
    _type: EXPORT_TYPE,
    origin: head.origin,
    verifier_key: head.verifier_key,
    start,
    tree_size: head.tree_size,
    checkpoint: head.checkpoint,
    license: 'CC-BY-4.0',
    ...(start > 0 ? { frontier: await frontierAt(deps, start) } : {}),
  };
  yield JSON.stringify(header);
  yield* leafLines(deps, start, head.tree_size);
}

/** Leaves [start, end) as export lines: each leaf's exact bytes (RFC 8785 JSON holds no raw newline). */
export async function* leafLines(deps: RecordDeps, start: number, end: number): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  for (let from = start; from < end; from += PAGE) {
    for (const leaf of await deps.store.leaves(from, Math.min(PAGE, end - from))) yield decoder.decode(leaf.bytes);
  }
}

/**
 * Imports a full export into an empty store. Everything is checked before anything is written: the
 * checkpoint against the pinned key (the export's own unless `pinnedKey`), every leaf against the
 * root, every leaf as an observation record; then all leaves go in one transaction, which is undone
 * unless the rebuilt root equals the signed one.
 */
export async function importLog(deps: RecordDeps, lines: AsyncIterable<string>, pinnedKey?: string) {
  const iterator = lines[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) throw importError('the file is empty; an export starts with a header line');
  const header = parseHeader(first.value);
  if (header.start !== 0)
    throw importError(`this export starts at leaf ${header.start}; only a full export (start 0) can be imported`);
  if (header.consistency)
    throw importError(
      `this is a dump of leaves [0, ${header.tree_size}) checked against a later checkpoint; only a full export (tended export) can be imported`,
    );
  const verifier = parseVerifierKey(pinnedKey ?? header.verifier_key);
  const encoder = new TextEncoder();
  const leaves: Uint8Array[] = [];
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
    if (next.value.trim() !== '') leaves.push(encoder.encode(next.value));
  }
  const report = await auditLog({ checkpoint: header.checkpoint, leaves: iterate(leaves) }, verifier, header.origin);
  const imported: ImportedLeaf[] = leaves.map((bytes, index) => {
    try {
      const record = decodeLeaf(bytes) as Record<string, unknown>;
      if (record['_type'] === KEY_SET_LEAF_TYPE) {
        const { version, digest, logged_at } = keySetFromLeafRecord(record);
        return { bytes, logged_at, keyset: { version, digest } };
      }
      return record['_type'] === CENSUS_LEAF_TYPE
        ? { bytes, ...censusFromLeafRecord(record) }
        : { bytes, ...observationFromLeafRecord(record) };
    } catch (error) {
      throw importError(
        `leaf ${index} is not an observation, census or key-set record Tended can hold: ${(error as Error).message}`,
      );
    }
  });
  if ((await deps.store.treeSize()) !== 0)
    throw importError('the store already holds leaves; import only into an empty store');
  if (imported.length === 0) return report;
  await deps.store.importLeaves(imported, (input) => {
    if (toBase64(input.root) !== report.root_hash || input.tree_size !== report.tree_size) {
      throw new AuditError(
        `the imported tree's root ${toBase64(input.root)} differs from the signed ${report.root_hash}; nothing was imported`,
      );
    }
    return deps.notary.seal(input);
  });
  return report;
}

function parseHeader(line: string): ExportHeader {
  let header: Partial<ExportHeader>;
  try {
    header = JSON.parse(line) as Partial<ExportHeader>;
  } catch {
    throw importError('the first line is not JSON; an export starts with its header line');
  }
  if (header._type !== EXPORT_TYPE) throw importError(`the first line is not a ${EXPORT_TYPE} header`);
  for (const field of ['origin', 'verifier_key', 'checkpoint'] as const) {
    if (typeof header[field] !== 'string') throw importError(`the header has no ${field}`);
  }
  if (!Number.isSafeInteger(header.start) || !Number.isSafeInteger(header.tree_size))
    throw importError('the header has no start or tree_size');
  return header as ExportHeader;
}

async function* iterate<T>(items: T[]): AsyncGenerator<T> {
  // An async generator over a list already in memory: the same shape as the streamed reader.
  await Promise.resolve();
  yield* items;
}

function importError(msg: string): ValidationError {
  return new ValidationError([{ loc: ['import'], msg, type: 'value_error.import' }]);
}
