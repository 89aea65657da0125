import { describe, expect, it } from 'vitest';
import { checkJsonDepth, MAX_JSON_DEPTH } from './json-depth.js';
import { TooComplexError } from './reference.js';

describe('checkJsonDepth', () => {
  it(`passes ${MAX_JSON_DEPTH} levels of arrays and objects and refuses one more, naming the line`, () => {
    const deep = (levels: number) => `{"a":\n${'[{"b":'.repeat(levels / 2 - 1)}[]${'}]'.repeat(levels / 2 - 1)}}`;
    expect(() => checkJsonDepth(deep(MAX_JSON_DEPTH))).not.toThrow();
    expect(() => checkJsonDepth(deep(MAX_JSON_DEPTH + 2))).toThrow(TooComplexError);
    expect(() => checkJsonDepth(deep(MAX_JSON_DEPTH + 2))).toThrow(
      /^This file is too complex to check: its JSON nests arrays and objects more than 256 levels deep \(line 2\)\. .*Tended reads JSON up to 256 levels deep\.$/,
    );
  });

  it('counts no bracket inside a string, escaped quotes and backslashes included', () => {
    const inString = `"${'[{'.repeat(10_000)}\\"${'['.repeat(10_000)}\\\\"`;
    expect(() => checkJsonDepth(`{"a":${inString}}`)).not.toThrow();
    // After an escaped backslash the quote closes the string, so what follows counts again.
    expect(() => checkJsonDepth(`["\\\\"${'['.repeat(MAX_JSON_DEPTH)}`)).toThrow(TooComplexError);
  });

  it('measures depth, not how many containers there are', () => {
    expect(() => checkJsonDepth(`[${'[],{},'.repeat(100_000)}0]`)).not.toThrow();
    // Stray closers and an unclosed string are JSON.parse's to report.
    expect(() => checkJsonDepth(`]]]]${'['.repeat(MAX_JSON_DEPTH)}"[[[`)).not.toThrow();
  });
});
