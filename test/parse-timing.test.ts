import { describe, expect, it } from 'vitest';
import { manifestFromJson } from '../src/operations/json-manifest.js';
import { parseManifest, parseSbom } from '../src/operations/parse-submission.js';
import { ADVERSARIAL_INPUTS, type AdversarialInput } from './support/adversarial-inputs.js';

/**
 * Timing fuzz: every hostile shape of every format, parsed at n and 4n bytes. A parser that is
 * linear in its input takes about 4× as long on 4n; a quadratic one takes 16×. The best of five
 * runs, and up to three attempts, tame the noise of a loaded machine. Besides the ratio, each must stay under a budget per
 * MB: the target is 100 ms for Tended's own code (measured quiet: at most 72 ms/MB), with twice
 * that as room for a CI machine running other suites at once; the two third-party parsers it
 * cannot replace are slower per byte but linear (`yaml` builds a node per scalar, ~700 ms/MB quiet;
 * dockerfile-ast a range per token, ~300 ms/MB; fast-xml-parser a node per element, ~200 ms/MB).
 */
const SMALL = 512 * 1024;
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
    if (input.format === 'json') manifestFromJson(text, undefined);
    else if (input.route === 'manifest') parseManifest(text, input.format ? { format: input.format } : {});
    else parseSbom(text, input.format);
  } catch (e) {
    // Refusing the input is a fine answer; only the time it took matters here. A RangeError
    // (stack overflow) is not a refusal: it would be a 500.
    if (e instanceof RangeError) throw e;
  }
}

function bestOf5(input: AdversarialInput, text: string): number {
  let best = Infinity;
  for (let i = 0; i < 5; i += 1) {
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
      const small = input.make(input.timingSize ?? SMALL);
      const large = input.make(4 * (input.timingSize ?? SMALL));
      // Up to three attempts, each measured afresh: one collection or a neighbour's burst can
      // spoil an attempt, but a parser that is quadratic (×16) or slow fails every one of them.
      let ratio = Infinity;
      let perMb = Infinity;
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        const tSmall = bestOf5(input, small);
        const tLarge = bestOf5(input, large);
        // Below a few milliseconds the ratio is noise (one collection of the large input's garbage
        // is that much): a floor keeps it meaningful. A quadratic parser still fails: 5 ms on n is
        // 80 ms on 4n; one faster than that on n costs at most ~16 ms per 2 MB even if quadratic.
        ratio = Math.min(ratio, Math.max(tLarge, 5) / Math.max(tSmall, 5));
        perMb = Math.min(perMb, tLarge / (large.length / 1e6));
        console.log(
          `${input.name}: ${(small.length / 1e3).toFixed(0)} KB ${tSmall.toFixed(1)} ms, ${(large.length / 1e3).toFixed(0)} KB ${tLarge.toFixed(1)} ms (×${ratio.toFixed(1)}, ${perMb.toFixed(0)} ms/MB)${attempt > 1 ? `, attempt ${attempt}` : ''}`,
        );
        if (ratio < RATIO_LIMIT && perMb < budgetPerMb(input)) break;
      }
      expect(ratio, `time grew ×${ratio.toFixed(1)} when the input grew ×4`).toBeLessThan(RATIO_LIMIT);
      expect(perMb, `${perMb.toFixed(0)} ms per MB`).toBeLessThan(budgetPerMb(input));
    },
  );
});
