// The XML red-team shapes (test/support/adversarial-inputs-xml.ts), each in a fresh process (maxRSS
// only ever grows): the first parse's time, the peak resident memory it added (maxRSS after it less
// the RSS before it, the body already built) and the heap its result keeps alive after a
// collection, with the outcome; then the best of five more parses, warm, as the timing fuzz takes.
// The first line is a real SBOM of the same size (the corpus's juice-shop XML, its components
// twice), to read the others against on a machine that is not quiet.
//   npx tsx bench/xml-shapes.ts [name pattern]     (SIZE=bytes, default 4,000,000 as over HTTP)
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseManifest, parseSbom } from '../src/operations/parse-submission.js';
import type { AdversarialInput } from '../test/support/adversarial-inputs.js';
import { XML_INPUTS } from '../test/support/adversarial-inputs-xml.js';

const REAL: AdversarialInput = {
  name: 'a real SBOM for comparison: juice-shop-bare.1.4.xml, its components twice',
  route: 'sbom',
  format: 'application/vnd.cyclonedx+xml',
  make: () => {
    const real = readFileSync(new URL('../test/corpus/cyclonedx/juice-shop-bare.1.4.xml', import.meta.url), 'utf8');
    const start = real.indexOf('<components>') + '<components>'.length;
    const end = real.lastIndexOf('</components>');
    return `${real.slice(0, end)}${real.slice(start, end)}${real.slice(end)}`;
  },
};
const INPUTS = [REAL, ...XML_INPUTS];

const SIZE = Number(process.env.SIZE ?? 4_000_000);
const TIMEOUT_MS = Number(process.env.TIMEOUT_MS ?? 300_000);

interface Measure {
  bytes: number;
  ms: number;
  warmMs: number;
  peakMb: number;
  retainedMb: number;
  outcome: string;
}

function measure(index: number): Measure {
  const input = INPUTS[index]!;
  const body = input.make(SIZE);
  const gc = (globalThis as { gc?: () => void }).gc!;
  gc();
  const rss = process.memoryUsage().rss;
  const heap = process.memoryUsage().heapUsed;
  const parse = () =>
    input.route === 'manifest' ? parseManifest(body, { format: input.format }) : parseSbom(body, input.format);
  const t0 = performance.now();
  let outcome: string;
  let result: unknown;
  try {
    const r = parse();
    result = r;
    outcome = `read: ${r.references.length} references, ${r.unresolved.length + (r.unlisted?.count ?? 0)} unresolved`;
  } catch (e) {
    outcome = e instanceof Error ? `${e.name}: ${e.message.slice(0, 150)}` : String(e);
  }
  const ms = performance.now() - t0;
  const peakMb = (process.resourceUsage().maxRSS * 1024 - rss) / 1e6;
  gc();
  const retainedMb = (process.memoryUsage().heapUsed - heap) / 1e6;
  void result;
  let warmMs = Infinity;
  for (let i = 0; i < 5; i += 1) {
    const t = performance.now();
    try {
      parse();
    } catch {
      // The outcome is known; only the time matters here.
    }
    warmMs = Math.min(warmMs, performance.now() - t);
  }
  return { bytes: body.length, ms, warmMs, peakMb, retainedMb, outcome };
}

if (process.argv[2] === '--child') {
  process.send!(measure(Number(process.argv[3])));
} else {
  const filter = new RegExp(process.argv[2] ?? '');
  for (const [i, input] of INPUTS.entries()) {
    if (i > 0 && !filter.test(input.name)) continue;
    const child = fork(new URL(import.meta.url).pathname, ['--child', String(i)], {
      execArgv: ['--import', 'tsx', '--expose-gc'],
      env: { ...process.env, SIZE: String(SIZE) },
    });
    const timer = setTimeout(() => child.kill(), TIMEOUT_MS);
    const m = await new Promise<Measure | null>((resolve) => {
      child.once('message', (msg) => resolve(msg as Measure));
      child.once('exit', () => resolve(null));
    });
    clearTimeout(timer);
    child.kill();
    if (m === null) {
      console.log(`${input.name}: no answer in ${TIMEOUT_MS / 1000} s (or the process died)`);
      continue;
    }
    console.log(
      `${input.name}: ${(m.bytes / 1e3).toFixed(0)} KB in ${m.ms.toFixed(0)} ms (warm ${m.warmMs.toFixed(0)} ms), peak +${m.peakMb.toFixed(0)} MB, result keeps ${m.retainedMb.toFixed(1)} MB → ${m.outcome}`,
    );
  }
}
