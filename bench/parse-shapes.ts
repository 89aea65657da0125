// bench:parse-shapes — each of issue 24's text shapes (test/support/adversarial-inputs-text.ts)
// parsed once in a fresh process: wall and CPU time, the growth of peak resident memory over the
// process before the parse, and what came out (references, or the error's class and sentence).
// A fresh process per shape, so one shape's garbage or peak never shows in another's figures.
//
//   npx tsx bench/parse-shapes.ts [name filter] [bytes, default 4000000]
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseManifest, parseSbom } from '../src/operations/parse-submission.js';
import { TEXT_INPUTS } from '../test/support/adversarial-inputs-text.js';

interface Figures {
  name: string;
  mb: number;
  wallMs: number;
  cpuMs: number;
  peakGrowthMb: number;
  outcome: string;
}

if (process.env.SHAPE_FILE) {
  const input = TEXT_INPUTS.find((i) => i.name === process.env.SHAPE_NAME)!;
  const text = readFileSync(process.env.SHAPE_FILE, 'utf8');
  const before = process.memoryUsage().rss;
  const cpu = process.cpuUsage();
  const started = performance.now();
  let outcome: string;
  try {
    const r =
      input.route === 'manifest'
        ? parseManifest(text, input.format ? { format: input.format } : {})
        : parseSbom(text, input.format);
    outcome = `${r.references.length} references, ${r.unresolved.length + (r.unlisted?.count ?? 0)} unresolved`;
  } catch (e) {
    outcome = e instanceof Error ? `${e.name}: ${e.message.slice(0, 150)}` : String(e);
  }
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const figures: Figures = {
    name: input.name,
    mb: text.length / 1e6,
    wallMs,
    cpuMs: (used.user + used.system) / 1000,
    peakGrowthMb: Math.max(0, process.resourceUsage().maxRSS * 1024 - before) / 1e6,
    outcome,
  };
  process.send!(figures);
} else {
  const filter = process.argv[2] ?? '';
  const bytes = Number(process.argv[3] ?? 4_000_000);
  const dir = mkdtempSync(join(tmpdir(), 'parse-shapes-'));
  try {
    for (const input of TEXT_INPUTS.filter((i) => i.name.includes(filter))) {
      const file = join(dir, 'body');
      writeFileSync(file, input.make(bytes));
      const figures = await new Promise<Figures>((resolve) => {
        const child = fork(new URL(import.meta.url).pathname, [], {
          env: { ...process.env, SHAPE_FILE: file, SHAPE_NAME: input.name },
          execArgv: ['--import', 'tsx'],
        });
        child.once('message', (m) => resolve(m as Figures));
        // A process that dies (out of memory, say) is a figure too.
        child.once('exit', (code) =>
          resolve({
            name: input.name,
            mb: 0,
            wallMs: NaN,
            cpuMs: NaN,
            peakGrowthMb: NaN,
            outcome: `died, exit ${code}`,
          }),
        );
      });
      console.log(
        `${figures.name}: ${figures.mb.toFixed(2)} MB, ${figures.wallMs.toFixed(0)} ms (${figures.cpuMs.toFixed(0)} ms CPU), peak +${figures.peakGrowthMb.toFixed(0)} MB; ${figures.outcome}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
