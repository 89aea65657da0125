import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { addDays } from '../domain/calendar.js';
import type { RecordDeps } from './deps.js';
import { readConsistencyProof, readHead, type HeadAnswer } from './read-chain.js';
import { EXPORT_TYPE, frontierAt, leafLines, type ExportHeader } from './transfer-log.js';

/**
 * Daily dumps: one JSON Lines file per UTC day on which leaves were logged, each verifiable on its
 * own (see auditSegment). A day is finished once the log holds a leaf logged on a later day: the
 * sequencer never lets logged_at go backwards, so from then on no leaf can join it. A clock rule
 * ("it is past midnight") cannot promise that with several writers whose clocks differ. The last
 * day is therefore open; it is written only when asked, as a `.partial` file that the finished
 * file replaces.
 */
export const DUMP_NAME = /^tended-(\d{4}-\d{2}-\d{2})(\.partial)?\.jsonl$/;

export const dumpName = (date: string, partial: boolean) => `tended-${date}${partial ? '.partial' : ''}.jsonl`;

export interface DumpOutcome {
  name: string;
  date: string;
  start: number;
  tree_size: number;
  /** written: a new file; kept: a finished day's file was already there and is not rewritten; open: the last day, not written. */
  outcome: 'written' | 'kept' | 'open';
}

export async function writeDailyExports(
  deps: RecordDeps,
  dir: string,
  options: { partial: boolean },
): Promise<DumpOutcome[]> {
  await mkdir(dir, { recursive: true });
  const present = new Set(await readdir(dir));
  let head = await readHead(deps);
  const out: DumpOutcome[] = [];
  for (let start = 0; start < head.tree_size;) {
    const date = (await deps.store.leaf(start))!.logged_at.slice(0, 10);
    const next = await deps.store.firstLeafLoggedFrom(addDays(date, 1));
    // A later leaf appended since the head was read: take the head that covers it.
    if (next !== null && next > head.tree_size) head = await readHead(deps);
    const finished = next !== null;
    const end = next ?? head.tree_size;
    const name = dumpName(date, !finished);
    if (finished && present.has(name)) {
      out.push({ name, date, start, tree_size: end, outcome: 'kept' });
    } else if (!finished && !options.partial) {
      out.push({ name, date, start, tree_size: end, outcome: 'open' });
    } else {
      await writeAtomically(dir, name, dumpLines(deps, head, date, start, end, !finished));
      if (finished && present.has(dumpName(date, true))) await rm(join(dir, dumpName(date, true)), { force: true });
      out.push({ name, date, start, tree_size: end, outcome: 'written' });
    }
    start = end;
  }
  return out;
}

async function* dumpLines(
  deps: RecordDeps,
  head: HeadAnswer,
  date: string,
  start: number,
  end: number,
  partial: boolean,
): AsyncGenerator<string> {
  // The checkpoint at exactly `end` when a head was sealed there; otherwise (a batch that crossed
  // midnight, or an imported log) the next one, with the consistency proof from `end` to it.
  const [at] = end === head.tree_size ? [head] : await deps.store.heads(end, 1);
  const checkpointHead = at ?? head;
  const header: ExportHeader = {
    _type: EXPORT_TYPE,
    origin: head.origin,
    verifier_key: head.verifier_key,
    verifier_keys: head.verifier_keys,
    start,
    tree_size: end,
    checkpoint: checkpointHead.checkpoint,
    license: 'CC-BY-4.0',
    frontier: await frontierAt(deps, start),
    ...(checkpointHead.tree_size !== end
      ? { consistency: (await readConsistencyProof(deps, end, checkpointHead.tree_size)).hashes }
      : {}),
    date,
    partial,
  };
  yield JSON.stringify(header);
  yield* leafLines(deps, start, end);
}

/** Temp file, fsync, rename: a reader (or the listing) never sees half a dump. */
async function writeAtomically(dir: string, name: string, lines: AsyncIterable<string>): Promise<void> {
  const temp = join(dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  const file = await open(temp, 'w', 0o644);
  try {
    let buffered: string[] = [];
    for await (const line of lines) {
      buffered.push(line);
      if (buffered.length >= 1000) {
        await file.write(`${buffered.join('\n')}\n`);
        buffered = [];
      }
    }
    if (buffered.length > 0) await file.write(`${buffered.join('\n')}\n`);
    await file.sync();
  } catch (error) {
    await file.close();
    await rm(temp, { force: true });
    throw error;
  }
  await file.close();
  await rename(temp, join(dir, name));
}

export interface DumpListing {
  name: string;
  date: string;
  partial: boolean;
  first_leaf: number;
  last_leaf: number;
  tree_size: number;
  bytes: number;
  sha256: string;
}

/**
 * The dumps in `dir`, oldest first, from their headers and bytes. Hashing a file is cached by its
 * size and modification time: a finished dump never changes, so each is hashed once per process.
 */
export class DumpDirectory {
  private readonly cache = new Map<string, { size: number; mtimeMs: number; listing: DumpListing }>();

  constructor(readonly dir: string | null) {}

  async list(): Promise<DumpListing[]> {
    if (this.dir === null) return [];
    let names: string[];
    try {
      names = (await readdir(this.dir)).filter((n) => DUMP_NAME.test(n)).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const out: DumpListing[] = [];
    for (const name of names) {
      const listing = await this.describe(name);
      if (listing) out.push(listing);
    }
    return out;
  }

  /** The listing of one dump, or null when `name` is not a dump in the directory. */
  async describe(name: string): Promise<DumpListing | null> {
    const match = DUMP_NAME.exec(name);
    if (this.dir === null || !match) return null;
    const path = join(this.dir, name);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) return null;
    const cached = this.cache.get(name);
    if (cached && cached.size === info.size && cached.mtimeMs === info.mtimeMs) return cached.listing;
    const { header, sha256 } = await readDump(path);
    if (!header) return null;
    const listing: DumpListing = {
      name,
      date: match[1]!,
      partial: match[2] !== undefined,
      first_leaf: header.start,
      last_leaf: header.tree_size - 1,
      tree_size: header.tree_size,
      bytes: info.size,
      sha256,
    };
    this.cache.set(name, { size: info.size, mtimeMs: info.mtimeMs, listing });
    return listing;
  }

  /** A stream of the dump's bytes; call describe first. */
  open(name: string) {
    return createReadStream(join(this.dir!, name));
  }
}

async function readDump(path: string): Promise<{ header: ExportHeader | null; sha256: string }> {
  const hash = createHash('sha256');
  let first = '';
  let firstDone = false;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    if (!firstDone) {
      first += (chunk as Buffer).toString('utf8');
      const newline = first.indexOf('\n');
      if (newline !== -1) {
        first = first.slice(0, newline);
        firstDone = true;
      }
    }
  }
  let header: ExportHeader | null = null;
  try {
    const parsed = JSON.parse(first) as ExportHeader;
    if (parsed._type === EXPORT_TYPE && Number.isSafeInteger(parsed.start) && Number.isSafeInteger(parsed.tree_size))
      header = parsed;
  } catch {
    header = null;
  }
  return { header, sha256: hash.digest('hex') };
}
