import { describe, expect, it } from 'vitest';
import { advance, parseChangesPage, parseRoot, positionAt, type NpmPosition } from './feed.js';

/** Rows from npm/registry docs/follower.md@0ec0fa02df51 (as JSON), the shape the 2025 service still answers. */
const PAGE = {
  results: [
    { seq: 445, id: 'CompoundSignal', changes: [{ rev: '5-a0695c30fdaa3471246ef0cd6c8a476d' }] },
    { seq: 446, id: 'amphibian', changes: [{ rev: '5-1a864e76d844e90bf6c63cb94303b593' }] },
    { seq: 447, id: 'aop', changes: [{ rev: '9-9acc0139df57a1db2604f13f12b500f2' }] },
    { seq: 448, id: 'dynamo-schema', changes: [{ rev: '5-bf8052c0d4b6e80e6664625137efd610' }] },
    { seq: 449, id: '_design/app', changes: [{ rev: '2-0c0fb1b0e5b2c9a7f6f0a1a1a1a1a1a1' }] },
    { seq: 451, id: 'password-reset', changes: [{ rev: '21-948e6633799ffd56a993c3fb144d1728' }], deleted: true },
  ],
  last_seq: 451,
};

describe('npm replication feed pages', () => {
  it('reads rows as names, seqs and revs, leaving the design documents out', () => {
    expect(parseChangesPage(PAGE)).toEqual({
      results: [
        { seq: 445, id: 'CompoundSignal', rev: '5-a0695c30fdaa3471246ef0cd6c8a476d', deleted: false },
        { seq: 446, id: 'amphibian', rev: '5-1a864e76d844e90bf6c63cb94303b593', deleted: false },
        { seq: 447, id: 'aop', rev: '9-9acc0139df57a1db2604f13f12b500f2', deleted: false },
        { seq: 448, id: 'dynamo-schema', rev: '5-bf8052c0d4b6e80e6664625137efd610', deleted: false },
        { seq: 451, id: 'password-reset', rev: '21-948e6633799ffd56a993c3fb144d1728', deleted: true },
      ],
      last_seq: 451,
    });
  });

  it('refuses a page it cannot follow: an opaque CouchDB seq, no results', () => {
    expect(parseChangesPage({ results: [{ seq: '446-g1AAAAE', id: 'x' }], last_seq: 446 })).toMatch(/numeric seq/);
    expect(parseChangesPage({ last_seq: 1 })).toMatch(/results/);
  });

  it('reads the root of the 2026 service and of the old CouchDB', () => {
    expect(
      parseRoot({ db_name: 'registry', engine: 'npm-replicate', doc_count: 4250224, update_seq: 122786079 }),
    ).toEqual({
      update_seq: 122786079,
      doc_count: 4250224,
    });
    // npm/registry docs/follower.md: the CouchDB root.
    expect(parseRoot({ db_name: 'registry', doc_count: 345391, doc_del_count: 355, update_seq: 2496579 })).toEqual({
      update_seq: 2496579,
      doc_count: 345391,
    });
  });
});

describe('the trailing window', () => {
  const rows = (...seqs: number[]) => ({
    results: seqs.map((seq) => ({ seq, id: `p${seq}`, rev: '1-a', deleted: false })),
    last_seq: Math.max(...seqs),
  });

  it('calls rows after the position fresh, and an unseen row inside the window late', () => {
    let p: NpmPosition = positionAt(100, 10);
    const first = advance(p, rows(101, 103, 104));
    expect(first.fresh.map((r) => r.seq)).toEqual([101, 103, 104]);
    p = first.position;
    expect(p.seq).toBe(104);
    // Re-reading the window: 102 appeared behind last_seq 104; 101, 103 and 104 were hinted already.
    const again = advance(p, rows(101, 102, 103, 104, 105));
    expect(again.late.map((r) => r.seq)).toEqual([102]);
    expect(again.fresh.map((r) => r.seq)).toEqual([105]);
    // And once seen, 102 is not late a second time.
    expect(advance(again.position, rows(102, 105)).late).toEqual([]);
  });

  it('never moves back, whatever last_seq a page says', () => {
    const p = positionAt(500, 8);
    expect(advance(p, { results: [], last_seq: 20 }).position.seq).toBe(500);
  });

  it('forgets what falls out of the window as the position moves on', () => {
    const p = advance(positionAt(10, 4), rows(11, 12)).position;
    // The window at 12 is 9…12: 8 (never seen) is behind it, so neither late nor fresh.
    const later = advance(p, rows(8, 13));
    expect(later.late).toEqual([]);
    expect(later.fresh.map((r) => r.seq)).toEqual([13]);
  });
});
