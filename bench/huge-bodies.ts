// bench:huge-bodies — issue 34 items 6 and 7: a packument of 1,000,000 versions (~80 MB) and a
// _changes page of 1,000,000 rows (~78 MB), read by the npm reader and the follower's request
// from an upstream in a process of its own, with each body read on the main thread as before
// (`before`: the off-thread threshold set past any body) and on the big-body thread (`after`),
// and three packuments read at once. For each, the longest the event loop was late for a 10 ms
// timer and the peak RSS growth. Each case runs in a process of its own, so no case's memory
// is another's baseline.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CHANGES_PAGE_FACTS } from '../src/upstreams/npm/feed.js';
import { HttpClient } from '../src/upstreams/http/client.js';
import { MemoryConditionalCache } from '../src/upstreams/http/memory-cache.js';
import { createNpmSource } from '../src/upstreams/npm/read.js';
import { probed, startHugeUpstream } from '../test/fixtures/huge-bodies.js';

const CASES = ['packument', 'changes', 'packument-x3'] as const;
type Case = (typeof CASES)[number];

async function run(which: Case, mode: 'before' | 'after'): Promise<void> {
  const upstream = await startHugeUpstream();
  const client = new HttpClient({
    upstream: 'npm',
    base: upstream.base,
    userAgent: 'tended-bench/1',
    timeoutMs: 300_000,
    concurrency: 4,
    cache: new MemoryConditionalCache(),
    maxBodyBytes: 256 * 1024 * 1024,
    ...(mode === 'before' ? { offThreadAboveBytes: Number.POSITIVE_INFINITY } : {}),
  });
  const npm = createNpmSource(client, upstream.base);
  const readOne = () => npm.read({ kind: 'npm', id: 'huge' }, '2026-03-01');
  const started = performance.now();
  const { result, stall } = await probed(async () => {
    if (which === 'packument') return [await readOne()].map((r) => r.evidence['versions']);
    if (which === 'packument-x3')
      return (await Promise.all([readOne(), readOne(), readOne()])).map((r) => r.evidence['versions']);
    const a = await client.get(`${upstream.base}/registry/_changes?since=0&limit=10000`, {
      accept: 'application/json',
      facts: CHANGES_PAGE_FACTS,
    });
    return [a.kind === 'facts' ? a.facts.results.length : a.kind];
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `${which.padEnd(13)} ${mode.padEnd(6)} max event-loop delay ${String(stall.maxDelayMs).padStart(5)} ms, RSS +${String(stall.rssGrowthMb).padStart(4)} MB, ${seconds} s, read: ${JSON.stringify(result)}`,
  );
  await upstream.close();
}

const [which, mode] = process.argv.slice(2) as [Case | undefined, 'before' | 'after' | undefined];
if (which && mode) await run(which, mode);
else
  for (const c of CASES)
    for (const m of ['before', 'after'] as const)
      spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), c, m], { stdio: 'inherit' });
