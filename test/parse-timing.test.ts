import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARSE_YOUNG_GENERATION_MB } from '../src/operations/parse-pool.js';
import { ADVERSARIAL_INPUTS, type AdversarialInput } from './support/adversarial-inputs.js';
import type { TimingAnswer, TimingAsk } from './support/parse-timing-worker.js';

/**
 * Timing fuzz: every hostile shape of every format, parsed at n and 4n bytes. A parser that is
 * linear in its input takes about 4× as long on 4n; a quadratic one takes 16×. The best of five
 * runs, and up to three attempts, tame the noise of a loaded machine. Besides the ratio, each must stay under a budget per
 * MB: the target is 100 ms for Tended's own code (measured quiet: at most 72 ms/MB), with twice
 * that as room for a CI machine running other suites at once; the two third-party parsers it
 * cannot replace are slower per byte but linear (`yaml` builds a node per scalar, ~700 ms/MB quiet;
 * dockerfile-ast a range per token, ~300 ms/MB; fast-xml-parser a node per element, ~200 ms/MB).
 *
 * Measured where the service parses: in a worker thread with the parse pool's young generation
 * (PARSE_YOUNG_GENERATION_MB), not V8's default, which differs between Node lines. With Node 24's
 * (128 MB, four times Node 20's), the garbage of a 512 KB parse dies young while a 2 MB parse's is
 * promoted and collected again, old: fast-xml-parser's validator, building the rest of a file
 * into one tag name, went from 7 ms to 100 ms (×13; linear from there on) on Node 24, ×6 on Node 20.
 */
const SMALL = 512 * 1024;
// Linear is ×4, quadratic ×16; ×10 leaves room for a small input that ran in warm caches.
const RATIO_LIMIT = 10;

function budgetPerMb(input: AdversarialInput): number {
  // pnpm-lock.yaml and Yarn 2+ lockfiles are read from `yaml`'s lexer, or with `yaml` itself.
  if (
    input.format === 'workflow' ||
    input.format.includes('yaml') ||
    input.format === 'pnpm-lock' ||
    input.format === 'yarn-lock'
  )
    return 3_000;
  if (input.format === 'dockerfile') return 1_200;
  // A JSON lockfile's hostile chain is a package every 60–75 bytes, each a node of the graph with its
  // place and path (DependencyGraph): 500–1,000 ms per MB measured on this machine under load on 2026-11-29.
  if (input.format === 'package-lock' || input.format === 'bun-lock') return 1_500;
  // fast-xml-parser builds a node per element: a POM of nothing but tiny elements is its worst case.
  // CycloneDX XML is read by the same parser (100–140 ms/MB quiet on 2026-11-29, 210–250 on a loaded CI run).
  if (
    input.format === 'pom' ||
    input.format === 'nuget-project' ||
    input.format === 'cargo-toml' ||
    input.format === 'application/vnd.cyclonedx+xml'
  )
    return 600;
  // A name a line (each one normalised and kept): 250–400 ms per MB measured on this machine on
  // 2026-11-29 with the parsers unchanged since the 200 was set; the ×4 ratio above still holds it linear.
  if (input.format === 'requirements') return 450;
  // Lockfiles: smol-toml's tree (TOML ones), then a reference and a graph node per entry, each with
  // its place (DependencyGraph). The worst case is a dependency chain: a Gemfile.lock packs 57,000
  // gems into 2 MB, each a node 10^4 deep whose path is cut to its ends. Measured on 2026-11-29 on
  // a machine at load 10 (2 cores): 250–600 ms/MB for the chains, 210 for Pipfile.lock's tiny entries.
  if (['cargo-lock', 'poetry-lock', 'uv-lock', 'gemfile-lock'].includes(input.format)) return 900;
  if (input.format === 'pipfile-lock') return 450;
  return 200;
}

let worker: Worker;
beforeAll(() => {
  // Under vitest the sources are TypeScript: the parse pool's from-source entry registers tsx, then loads this one.
  worker = new Worker(new URL('../src/thread-from-source.mjs', import.meta.url), {
    workerData: { entry: new URL('./support/parse-timing-worker.ts', import.meta.url).href },
    execArgv: [],
    resourceLimits: { maxYoungGenerationSizeMb: PARSE_YOUNG_GENERATION_MB },
  });
});
afterAll(async () => {
  await worker?.terminate();
});

async function timed(ask: TimingAsk): Promise<TimingAnswer> {
  worker.postMessage(ask);
  for (;;) {
    // once() rejects if the worker fails instead (an 'error' event). An answer for another input
    // is a late one, for a test that ran out of time: passed over.
    const [answer] = (await once(worker, 'message')) as [TimingAnswer];
    if (answer.name === ask.name) return answer;
  }
}

describe('parsing time grows linearly with the input', () => {
  it.each(ADVERSARIAL_INPUTS.map((input) => [input.name, input] as const))(
    '%s',
    { timeout: 120_000 },
    async (name, input) => {
      const answer = await timed({ name, small: SMALL, ratioLimit: RATIO_LIMIT, budgetPerMb: budgetPerMb(input) });
      if ('error' in answer) throw new Error(answer.error);
      for (const line of answer.lines) console.log(line);
      const { ratio, perMb, budgetPerMb: budget } = answer;
      expect(ratio, `time grew ×${ratio.toFixed(1)} when the input grew ×4`).toBeLessThan(RATIO_LIMIT);
      // The budget as stretched by how loaded the machine was at the time (parse-timing-worker.ts).
      expect(perMb, `${perMb.toFixed(0)} ms per MB`).toBeLessThan(budget);
      expect(budget).toBeGreaterThanOrEqual(budgetPerMb(input));
    },
  );
});
