import type { SeriesEntry } from '../domain/observation.js';
import { ENTRY_BYTES, decodeEntries, encodeEntries } from './series-entries.js';
import { LogInvariantError } from './store-errors.js';

/**
 * The state changes a leaf block holds, kept beside its leaves (leaf_blocks.changes, migration 15)
 * so the change feed need not open a block, parse its leaves and look up each one's series to find
 * the few that change state. Whether a reading changes state is fixed when it is appended: its
 * "from" is the component's last asserted reading before it in leaf order, which later leaves
 * cannot alter. The append knows it already (it holds the component's series to check the
 * one-per-date rule), so writing it down costs a few bytes a change and nothing for the rest.
 *
 *   record: u8 slot in the block · the previous asserted reading as a series entry (ENTRY_BYTES)
 *
 * An empty value: no leaf of the block changes state. NULL: not known (a block written before
 * migration 15, or one that held such leaves when it was filled up); the feed reads those the
 * long way.
 */
const RECORD_BYTES = 1 + ENTRY_BYTES;

export interface BlockChange {
  slot: number;
  /** The component's last asserted reading before this one. */
  previous: SeriesEntry;
}

export function encodeBlockChanges(changes: BlockChange[]): Uint8Array {
  const out = Buffer.alloc(changes.length * RECORD_BYTES);
  changes.forEach((change, i) => {
    out[i * RECORD_BYTES] = change.slot;
    // The previous reading's own correction does not matter here: the flag byte is written as 0.
    out.set(encodeEntries([{ ...change.previous, corrects: null }]).entries, i * RECORD_BYTES + 1);
  });
  return out;
}

export function decodeBlockChanges(stored: Uint8Array): BlockChange[] {
  if (stored.byteLength % RECORD_BYTES !== 0) throw new LogInvariantError('a block’s change list is broken');
  const changes: BlockChange[] = [];
  for (let at = 0; at < stored.byteLength; at += RECORD_BYTES) {
    changes.push({
      slot: stored[at]!,
      previous: decodeEntries(stored.subarray(at + 1, at + RECORD_BYTES), null)[0]!,
    });
  }
  return changes;
}
