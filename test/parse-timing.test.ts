import { describe, expect, it } from 'vitest';
import { parseManifest, parseSbom } from '../src/operations/parse-submission.js';
import { ADVERSARIAL_INPUTS, type AdversarialInput } from './support/adversarial-inputs.js';

/**
 * Timing fuzz: every hostile shape of every format, parsed at n and 4n bytes. A parser that is
 * linear in its input takes about 4× as long on 4n; a quadratic one takes 16×. The best of three
 * runs tames the noise of a loaded machine. Besides the ratio, each must stay under a budget per
 * MB: the target is 100 ms for Tended's own code (measured quiet: at most 72 ms/MB), with twice
 * that as room for a CI machine running other suites at once; the two third-party parsers it
 * cannot replace are slower per byte but linear (`yaml` builds a node per scalar, ~700 ms/MB quiet;
 * dockerfile-ast a range per token, ~300 ms/MB; fast-xml-parser a node per element, ~200 ms/MB).
 */
const SMALL = 512 * 1024;
const LARGE = 4 * SMALL;
// Linear is ×4, quadratic ×16; ×10 leaves room for a small input that ran in warm caches.
const RATIO_LIMIT = 10;

function budgetPerMb(input: AdversarialInput): number {
  if (input.format === 'workflow' || input.format.includes('yaml')) return 3_000;
  if (input.format === 'dockerfile') return 1_200;
  // fast-xml-parser builds a node per element: a POM of nothing but tiny elements is its worst case.
  if (input.format === 'pom' || input.format === 'nuget-project' || input.format === 'cargo-toml') return 600;
  return 200;
}

function parse(input: AdversarialInput, text: string): void {
  try {
    if (input.route === 'manifest') parseManifest(text, input.format ? { format: input.format } : {});
    else parseSbom(text, input.format);
  } catch (e) {
    // Refusing the input is a fine answer; only the time it took matters here. A RangeError
    // (stack overflow) is not a refusal: it would be a 500.
    if (e instanceof RangeError) throw e;
  }
}

function bestOf3(input: AdversarialInput, text: string): number {
  let best = Infinity;
  for (let i = 0; i < 3; i += 1) {
    const t0 = performance.now();
    parse(input, text);
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

describe('parsing time grows linearly with the input', () => {
  it.each(ADVERSARIAL_INPUTS.map((input) => [input.name, input] as const))(
    '%s',
    { timeout: 120_000 },
    (_name, input) => {
      const small = input.make(SMALL);
      const large = input.make(LARGE);
      const tSmall = bestOf3(input, small);
      const tLarge = bestOf3(input, large);
      // Below a few milliseconds the ratio is noise: a floor keeps it meaningful.
      const ratio = Math.max(tLarge, 2) / Math.max(tSmall, 2);
      const perMb = tLarge / (large.length / 1e6);
      console.log(
        `${input.name}: ${(small.length / 1e3).toFixed(0)} KB ${tSmall.toFixed(1)} ms, ${(large.length / 1e3).toFixed(0)} KB ${tLarge.toFixed(1)} ms (×${ratio.toFixed(1)}, ${perMb.toFixed(0)} ms/MB)`,
      );
      expect(ratio, `time grew ×${ratio.toFixed(1)} when the input grew ×4`).toBeLessThan(RATIO_LIMIT);
      expect(perMb, `${perMb.toFixed(0)} ms per MB`).toBeLessThan(budgetPerMb(input));
    },
  );
});
