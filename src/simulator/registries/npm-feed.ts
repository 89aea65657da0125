/**
 * npm's replication feed as served since 2025 by replicate.npmjs.com (research §1.1): the root
 * `{db_name, engine, doc_count, update_seq}` and `/registry/_changes?since=&limit=` answering
 * `{results: [{seq, id, changes: [{rev}], deleted?}], last_seq}`; names and sequences only, at
 * most one entry per package (a change moves it to a new seq), `limit` ≤ 10,000.
 *
 * Seq numbers: the initial packages hold seq 1…N, event k holds N + 1 + k. The faults of
 * faults.ts: late insertion (a change's entries appear only later, behind a last_seq already
 * returned), lost events (a change's entries never appear), a head regression (from an event on,
 * seq drop by `drop`: entries above the new head are gone, new ones numbered from it).
 */
import { json, type SimAnswer } from '../answer.js';
import { draw, drawHex } from './draw.js';
import { FAULT_SALT, type FeedFaults } from './faults.js';
import type { FeedRequest } from './feed-request.js';
import type { FeedEvent, GeneratedRegistry } from './registry.js';

const DEFAULT_LIMIT = 1_000;
const MAX_LIMIT = 10_000;
const REV_SALT = 107;

type Entry = { seq: number; id: string; changes: { rev: string }[]; deleted?: true };

/** The seq space at one moment, faults applied. */
export class NpmSeqs {
  private readonly N: number;
  private readonly events: number;
  private readonly regression: { atEvent: number; drop: number } | null;

  constructor(
    private readonly reg: GeneratedRegistry,
    private readonly faults: FeedFaults['npm'],
    private readonly nowMs: number,
  ) {
    this.N = reg.initialPackages;
    this.events = reg.eventsBy(nowMs);
    const r = faults?.headRegression;
    this.regression = r && this.events > r.atEvent ? r : null;
  }

  /** update_seq: the seq of the newest event (assigned, whether or not its entry is visible yet). */
  get head(): number {
    return this.events === 0 ? this.N : this.seqOf(this.events - 1);
  }

  seqOf(k: number): number {
    const r = this.regression;
    return this.N + 1 + k - (r && k >= r.atEvent ? r.drop : 0);
  }

  /** The initial package or the event a seq names; null when it names nothing (gone in a regression). */
  atSeq(seq: number): { initial: number } | { event: number } | null {
    if (seq <= this.N) return seq >= 1 ? { initial: seq - 1 } : null;
    const r = this.regression;
    if (!r) return { event: seq - this.N - 1 };
    const newHead = this.N + r.atEvent - r.drop;
    if (seq <= newHead) return { event: seq - this.N - 1 };
    return { event: seq - this.N - 1 + r.drop };
  }

  /** Whether event k's entry can be served now. */
  visible(e: FeedEvent): boolean {
    const f = this.faults;
    const key = e.slot >= 0 ? e.slot : -1 - e.index;
    if (f?.lostEvents && draw(this.reg.seed, key, 0, FAULT_SALT.lost) < f.lostEvents.share) return false;
    const late = f?.lateInsertion && draw(this.reg.seed, key, 0, FAULT_SALT.late) < f.lateInsertion.share;
    if (e.at + (late ? f.lateInsertion!.delayMs : 0) > this.nowMs) return false;
    const r = this.regression;
    // Entries numbered above the new head before the regression are gone.
    return !(r && e.index < r.atEvent && e.index >= r.atEvent - r.drop);
  }

  /** The package's newest visible event, or null when only its initial entry shows. */
  newestVisible(pkg: number): FeedEvent | null {
    const facts = this.reg.facts(pkg, this.nowMs);
    for (const change of [...(facts?.changes ?? [])].reverse()) {
      for (const k of this.reg.burstOf(change).reverse()) {
        if (k >= this.events) continue;
        const e = this.reg.eventAt(k);
        if (e && this.visible(e)) return e;
      }
    }
    return null;
  }

  /** The entry at `seq`, or null when nothing shows there (superseded, late, lost, gone). */
  entry(seq: number): Entry | null {
    const at = this.atSeq(seq);
    if (!at) return null;
    if ('initial' in at) {
      if (this.newestVisible(at.initial) !== null) return null;
      return { seq, id: this.reg.nameOf(at.initial), changes: [{ rev: this.rev(at.initial, -1, 1) }] };
    }
    if (at.event >= this.events) return null;
    const e = this.reg.eventAt(at.event);
    if (!e || !this.visible(e) || this.newestVisible(e.package)?.index !== e.index) return null;
    const generation = 2 + Math.max(0, e.round) * this.reg.shape.burst + e.burstPosition;
    return {
      seq,
      id: this.reg.nameOf(e.package),
      changes: [{ rev: this.rev(e.package, e.index, generation) }],
      ...(e.kind === 'delete' ? { deleted: true as const } : {}),
    };
  }

  private rev(pkg: number, k: number, generation: number): string {
    return `${generation}-${drawHex(this.reg.seed, pkg, k, REV_SALT, 32)}`;
  }
}

export function answerNpmReplicate(f: FeedRequest): SimAnswer | null {
  const path = f.ctx.path.replace(/\/$/, '');
  const seqs = new NpmSeqs(f.registry, f.faults.npm, f.nowMs);
  if (path === '' || path === '/registry') {
    return json(200, {
      db_name: 'registry',
      engine: 'npm-replicate',
      // Deleted documents are counted too: counting them out would read every package.
      doc_count: f.registry.packagesBy(f.nowMs),
      update_seq: seqs.head,
    });
  }
  if (path !== '/registry/_changes') return null;
  const q = f.ctx.query;
  if (q.get('include_docs') === 'true')
    return json(400, { error: 'bad_request', reason: 'include_docs is not supported' }, {}, false);
  const limit = q.has('limit') ? Number(q.get('limit')) : DEFAULT_LIMIT;
  const since = q.has('since') ? Number(q.get('since')) : 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    return json(400, { error: 'bad_request', reason: `limit must be an integer from 1 to ${MAX_LIMIT}` }, {}, false);
  if (!Number.isInteger(since) || since < 0)
    return json(400, { error: 'bad_request', reason: 'since must be a sequence number' }, {}, false);
  const hostile = f.faults.npm;
  if (hostile?.oversizedPage) {
    const rows = hostile.oversizedPage.rows;
    const flood: Entry[] = [];
    for (let i = 1; i <= rows; i++) flood.push({ seq: since + i, id: `flood-${i}`, changes: [{ rev: '1-0' }] });
    return json(200, { results: flood, last_seq: since + rows }, {}, false);
  }
  const results: Entry[] = [];
  const head = seqs.head;
  let last = since;
  for (let seq = since + 1; seq <= head && results.length < limit; seq++) {
    const entry = seqs.entry(seq);
    if (entry) results.push(entry);
    last = seq;
  }
  // A `since` past the head scans nothing and answers it back: the feed does not say it went backwards.
  return json(200, { results, last_seq: hostile?.stuckCursor ? since : last }, {}, false);
}
