import fc from 'fast-check';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { addDays } from '../src/domain/calendar.js';
import type { NewObservation } from '../src/domain/observation.js';
import { isAsserted, STATES, type State } from '../src/domain/state.js';
import { openSqliteDatabase } from '../src/storage/sqlite/driver.js';
import type { StateChange } from '../src/storage/state-change.js';
import { githubObservation, postgresTestStore, sqliteTestStore, testNotary, type TestStore } from './support/record.js';

/**
 * The change feed reads the changes each block lists (migration 15) and reads blocks with no list
 * (written before it) the long way. Both must give the feed the model gives: a change is an
 * asserted reading whose component's last asserted reading before it, in leaf order, had another
 * state. Checked on random histories appended in random batches (so blocks are rewritten part
 * full), then again with the lists of random blocks taken away.
 */
const backends: [string, () => Promise<TestStore>, (t: TestStore, blocks: number[]) => Promise<void>][] = [
  [
    'sqlite',
    sqliteTestStore,
    (t, blocks) => {
      // The driver this runtime should use (better-sqlite3 12 aborts Node 24 when V8 collects a statement).
      const db = openSqliteDatabase(t.url.slice('sqlite:'.length));
      const forget = db.prepare('UPDATE leaf_blocks SET changes = NULL WHERE block = ?');
      for (const block of blocks) forget.run(block);
      db.close();
      return Promise.resolve();
    },
  ],
  [
    'postgres',
    postgresTestStore,
    async (t, blocks) => {
      const client = new pg.Client({ connectionString: t.url });
      await client.connect();
      await client.query('UPDATE leaf_blocks SET changes = NULL WHERE block = ANY($1::int[])', [blocks]);
      await client.end();
    },
  ],
];

interface Step {
  repo: number;
  state: State;
  /** Correct the component's latest reading instead of adding a day. */
  correct: boolean;
}

function expectedChanges(appended: (NewObservation & { leaf_index: number })[]): [number, string, string][] {
  const last = new Map<string, State>();
  const out: [number, string, string][] = [];
  for (const o of appended) {
    if (!isAsserted(o.state)) continue;
    const before = last.get(o.component.id);
    if (before !== undefined && before !== o.state) out.push([o.leaf_index, before, o.state]);
    last.set(o.component.id, o.state);
  }
  return out;
}

const feedOf = (changes: StateChange[]) => changes.map((c): [number, string, string] => [c.leaf_index, c.from, c.to]);

describe.each(backends)('change feed from block change lists on %s', (_name, open, forgetLists) => {
  it('property: gives the model’s changes, with every list known and with some forgotten', async () => {
    const step = fc.record({
      repo: fc.nat(4),
      state: fc.constantFrom(...STATES.filter((s) => s !== 'unknown-stale')),
      correct: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 70 }),
        fc.array(fc.integer({ min: 1, max: 23 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(6)),
        async (steps: Step[], batchSizes, forgotten) => {
          const t = await open();
          try {
            const notary = testNotary();
            await t.store.initialiseLog(notary.seal);
            const day = new Map<number, number>();
            const latest = new Map<number, number>();
            const corrected = new Set<number>();
            const appended: (NewObservation & { leaf_index: number })[] = [];
            let i = 0;
            for (let b = 0; i < steps.length; b++) {
              const batch: { repo: number; o: NewObservation }[] = [];
              const inBatch = new Set<number>();
              for (const s of steps.slice(i, i + batchSizes[b % batchSizes.length]!)) {
                i++;
                // One reading a component per batch keeps the batch free of same-day duplicates.
                if (inBatch.has(s.repo)) continue;
                inBatch.add(s.repo);
                // One correction a component a day: a second would repeat the first's (date, correction).
                const corrects = s.correct && !corrected.has(s.repo) ? (latest.get(s.repo) ?? null) : null;
                if (corrects === null) {
                  day.set(s.repo, (day.get(s.repo) ?? -1) + 1);
                  corrected.delete(s.repo);
                } else corrected.add(s.repo);
                const date = addDays('2025-01-01', day.get(s.repo) ?? 0);
                batch.push({ repo: s.repo, o: { ...githubObservation(`acme/r${s.repo}`, date, s.state), corrects } });
              }
              if (batch.length === 0) continue;
              const { observations } = await t.store.appendObservations(
                batch.map((x) => x.o),
                notary.seal,
              );
              observations.forEach((o, k) => {
                appended.push(o);
                latest.set(batch[k]!.repo, o.leaf_index);
              });
            }
            const size = await t.store.treeSize();
            const expected = expectedChanges(appended);
            const all = { fromLeaf: 0, untilLeaf: size, since: null, limit: 1000 };
            expect(feedOf(await t.store.stateChanges(all))).toEqual(expected);
            // A window and a limit cut the same list.
            const from = Math.floor(size / 3);
            expect(feedOf(await t.store.stateChanges({ ...all, fromLeaf: from, limit: 2 }))).toEqual(
              expected.filter(([leaf]) => leaf >= from).slice(0, 2),
            );
            await forgetLists(t, forgotten);
            expect(feedOf(await t.store.stateChanges(all))).toEqual(expected);
            expect(feedOf(await t.store.stateChanges({ ...all, fromLeaf: from, limit: 2 }))).toEqual(
              expected.filter(([leaf]) => leaf >= from).slice(0, 2),
            );
          } finally {
            await t.dispose();
          }
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);
});
