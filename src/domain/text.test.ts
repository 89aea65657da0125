import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { excerpt } from './text.js';

const BREAKS = /[ \n\t\r]/;
/** Tokens as excerpt reads them: runs between spaces, tabs and line ends. */
const tokensOf = (text: string): string[] => text.split(/[ \n\t\r]+/).filter((t) => t !== '');

// Lists and sentences of the kind Tended quotes back: purls, words, names, with commas and odd spacing.
const token = fc.oneof(
  fc.stringMatching(/^pkg:[a-z]{2,8}\/[a-z0-9@./-]{1,30},?$/),
  fc.string({ minLength: 1, maxLength: 12, unit: fc.constantFrom('a', 'é', 'Z', '9', ':', '/', '😀', ',') }),
);
const separator = fc.constantFrom(' ', ', ', '  ', '\n', '\t');
const text = fc
  .tuple(fc.array(fc.tuple(token, separator), { maxLength: 40 }), token)
  .map(([pairs, last]) => pairs.map(([t, s]) => t + s).join('') + last);
const bound = fc.integer({ min: 1, max: 240 });
const keep = fc.constantFrom('start' as const, 'ends' as const);

describe('excerpt', () => {
  it('is never longer than the bound', () => {
    fc.assert(fc.property(text, bound, keep, (t, max, k) => excerpt(t, max, k).length <= max));
  });

  it('is the whole text when it fits', () => {
    fc.assert(
      fc.property(text, bound, keep, (t, max, k) => {
        fc.pre(t.length <= max);
        expect(excerpt(t, max, k)).toBe(t);
      }),
    );
  });

  it('never ends in a partial token: what it keeps are whole tokens of the text, in order', () => {
    fc.assert(
      fc.property(text, bound, (t, max) => {
        const tokens = tokensOf(t);
        const cut = excerpt(t, max, 'start');
        fc.pre(cut !== t && tokens[0]!.length <= max - 2);
        expect(cut.endsWith(' …')).toBe(true);
        const kept = tokensOf(cut.slice(0, -2));
        expect(kept.length).toBeGreaterThan(0);
        expect(kept).toEqual(tokens.slice(0, kept.length));
      }),
    );
  });

  it('keeping both ends, keeps whole tokens from each end around the ellipsis', () => {
    fc.assert(
      fc.property(text, bound, (t, max) => {
        const tokens = tokensOf(t);
        const cut = excerpt(t, max, 'ends');
        const [head, tail] = cut.split(' … ');
        fc.pre(cut !== t && tail !== undefined);
        const first = tokensOf(head!);
        const last = tokensOf(tail);
        expect(first).toEqual(tokens.slice(0, first.length));
        expect(last).toEqual(tokens.slice(tokens.length - last.length));
      }),
    );
  });

  it('cuts a single token longer than the bound at a whole character', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 300, unit: 'grapheme' }), bound, keep, (t, max, k) => {
        fc.pre(!BREAKS.test(t));
        const cut = excerpt(t, max, k);
        expect(cut.length).toBeLessThanOrEqual(max);
        // No lone surrogate: every character shown is one of the text's (encodeURIComponent refuses one).
        expect(() => encodeURIComponent(cut)).not.toThrow();
      }),
    );
  });

  it('cuts the SBOM reason of issue 36 between purls', () => {
    const reason = `Tended reads these: ${Array.from({ length: 12 }, (_, i) => `pkg:oci/image-${i}`).join(', ')}, pkg:golang/stdlib`;
    const cut = excerpt(reason, 120, 'ends');
    expect(cut).toMatch(/^Tended reads these: pkg:oci\/image-0, .* … .*pkg:golang\/stdlib$/);
    expect(cut).not.toMatch(/pkg:[a-z]*…|…[a-z]/);
  });
});
