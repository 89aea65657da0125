import { censusLeafBody, type NewCensus } from '../domain/census.js';
import { assertLoggedAt, observationLeafBody, type NewObservation } from '../domain/observation.js';
import { encodeLeaf, leafAwaitingLoggedAt } from '../notary/leaf.js';
import { keySetDigest, keySetLeafRecord } from '../notary/key-set.js';
import type { PendingLeaf } from './kysely-append.js';
import type { ImportedLeaf, NewKeySet } from './store.js';

/**
 * What each kind of append hands the sequencer (appendLeaves): the record each leaf writes and
 * how its bytes are made once its logged_at is known.
 */

export function observationLeaves(observations: NewObservation[]): PendingLeaf[] {
  // Each leaf is checked and made before the sequencer's lock, but for its logged_at: appends from
  // several workers then overlap their work and hold the lock only to fill in the instant.
  return observations.map((observation) => {
    const awaiting = leafAwaitingLoggedAt(observationLeafBody(observation));
    return {
      record: { observation },
      logged_at: null,
      bytes: (loggedAt: string) => {
        assertLoggedAt(loggedAt);
        return awaiting(loggedAt);
      },
    };
  });
}

export function censusLeaves(census: NewCensus[]): PendingLeaf[] {
  return census.map((c) => ({
    record: { census: c },
    logged_at: null,
    bytes: leafAwaitingLoggedAt(censusLeafBody(c)),
  }));
}

/** Leaves whose exact bytes come from an export, stored verbatim. */
export function importedLeaves(leaves: ImportedLeaf[]): PendingLeaf[] {
  return leaves.map((leaf) => ({
    record:
      'observation' in leaf
        ? { observation: leaf.observation }
        : 'census' in leaf
          ? { census: leaf.census }
          : { keyset: { version: leaf.keyset.version, digest: leaf.keyset.digest, full: null } },
    logged_at: leaf.logged_at,
    bytes: () => leaf.bytes,
  }));
}

/** One leaf holding the key set's digest. */
export function keySetLeaves(keySet: NewKeySet): PendingLeaf[] {
  const { document } = keySet;
  const digest = keySetDigest(document);
  return [
    {
      record: { keyset: { version: document.version, digest, full: keySet } },
      logged_at: null,
      bytes: (loggedAt) =>
        encodeLeaf(keySetLeafRecord({ version: document.version, issued_at: document.issued_at, digest }, loggedAt)),
    },
  ];
}
