import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TooComplexError } from '../reference.js';
import { checkTomlDepth, MAX_TOML_DEPTH } from './toml-depth.js';

const passes = (text: string) => expect(() => checkTomlDepth(text)).not.toThrow();
const refused = (text: string) => expect(() => checkTomlDepth(text)).toThrow(TooComplexError);

describe('checkTomlDepth', () => {
  it(`adds the header's segments, the key's and one per array, up to ${MAX_TOML_DEPTH}`, () => {
    passes(`a${'.a'.repeat(MAX_TOML_DEPTH - 1)} = 1`);
    refused(`a${'.a'.repeat(MAX_TOML_DEPTH)} = 1`);
    passes(`[a${'.a'.repeat(MAX_TOML_DEPTH - 3)}]\nb.c = 1`);
    refused(`[a${'.a'.repeat(MAX_TOML_DEPTH - 3)}]\nb.c.d = 1`);
    // An array of tables is one level more than its header's segments.
    passes(`[[a${'.a'.repeat(MAX_TOML_DEPTH - 2)}]]`);
    refused(`[[a${'.a'.repeat(MAX_TOML_DEPTH - 1)}]]`);
    passes(`a = ${'['.repeat(MAX_TOML_DEPTH - 1)}${']'.repeat(MAX_TOML_DEPTH - 1)}`);
    refused(`a = ${'['.repeat(MAX_TOML_DEPTH)}${']'.repeat(MAX_TOML_DEPTH)}`);
    passes(`a = ${'{ b.c = '.repeat(MAX_TOML_DEPTH / 2 - 1)}1${' }'.repeat(MAX_TOML_DEPTH / 2 - 1)}`);
    refused(`a = ${'{ b.c = '.repeat(MAX_TOML_DEPTH / 2)}1${' }'.repeat(MAX_TOML_DEPTH / 2)}`);
  });

  it('measures depth, not breadth: siblings, closed arrays and new headers start over', () => {
    passes(
      `a = [${'[1], '.repeat(10_000)}]\nb = [\n${'  [1, [2]],\n'.repeat(1_000)}]\n${'[x.y]\nz.w = { v = [1] }\n'.repeat(1_000)}`,
    );
    passes(`a = [${'1.5, 2024-01-01T00:00:00.5Z, '.repeat(1_000)}]`);
  });

  it('skips every kind of string and comments, with their escapes', () => {
    const dots = '.['.repeat(100) + '{'.repeat(100);
    passes(`a = "${dots}\\"${dots}"\nb = '${dots}'\n"${dots}" = 1\n'${dots}' = 2\n# ${dots}\n`);
    passes(`c = """\n${`[x${'.y'.repeat(100)}]\n`.repeat(10)} \\""" ${dots} """\nd = '''${dots}\n'''\n`);
    passes(`[ "a.b.c" . 'd.e.f' ]\ng = """ends with quotes"""""\n`);
    // An escaped backslash does not escape the quote after it: what follows counts again.
    refused(`a = "\\\\" ${'['.repeat(MAX_TOML_DEPTH)}`);
  });

  it('throws nothing but TooComplexError, on any text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '.', '=', ',', '"', "'", '\\', '#', '\n', 'a', ' ') }),
        (text) => {
          try {
            checkTomlDepth(text);
          } catch (e) {
            expect(e).toBeInstanceOf(TooComplexError);
          }
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
