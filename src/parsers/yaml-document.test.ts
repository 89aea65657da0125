import { describe, expect, it } from 'vitest';
import { TooComplexError } from './reference.js';
import { MAX_BLOCK_DEPTH, MAX_FLOW_DEPTH, readYaml } from './yaml-document.js';

const lines = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => line(i)).join('');

describe('readYaml nesting', () => {
  it(`reads [ ] and { } nested ${MAX_FLOW_DEPTH} deep and refuses more before yaml builds them`, () => {
    expect(() => readYaml(`a: ${'['.repeat(MAX_FLOW_DEPTH)}${']'.repeat(MAX_FLOW_DEPTH)}`)).not.toThrow();
    expect(() => readYaml(`a: ${'[{a: '.repeat(50_000)}`)).toThrow(
      /^This file is too complex to check: its YAML nests \[ \] and \{ \} more than 64 levels deep \(line 1\)\./,
    );
    // Inside quotes, comments and block scalars a bracket opens nothing.
    expect(() =>
      readYaml(`a: "${'['.repeat(100)}"\nb: '${'{'.repeat(100)}'\n# ${'['.repeat(100)}\nc: |\n  ${'['.repeat(100)}\n`),
    ).not.toThrow();
  });

  it(`reads indented mappings and lists nested to about ${MAX_BLOCK_DEPTH} levels and refuses deeper ones, which overflow yaml's stack`, () => {
    expect(() => readYaml(lines(MAX_BLOCK_DEPTH - 2, (i) => `${' '.repeat(i)}k:\n`))).not.toThrow();
    for (const [text, line] of [
      [lines(1_000, (i) => `${' '.repeat(i)}k:\n`), 65],
      [lines(1_000, (i) => `${' '.repeat(i)}- \n`), 64],
      [`a: ${'- '.repeat(1_000)}x\n`, 1],
      // A block scalar's body ends at a line start: what follows it is still counted as nested.
      [lines(1_000, (i) => `${' '.repeat(i + 1)}s: |\n${' '.repeat(i + 3)}text\n${' '.repeat(i + 1)}n:\n`), 193],
    ] as const) {
      expect(() => readYaml(text)).toThrow(TooComplexError);
      expect(() => readYaml(text)).toThrow(
        new RegExp(`its YAML nests indented mappings and lists more than 64 levels deep \\(line ${line}\\)\\.`),
      );
    }
  });
});
