import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument, stringify } from 'yaml';
import { CORPUS, corpusRows } from '../../test/support/corpus.js';
import { InputError } from './reference.js';
import { readBlockYaml } from './yaml-block.js';

/** What `yaml` reads: the value, or that the text is wrong. */
function library(text: string): { value: unknown } | { wrong: string } {
  const doc = parseDocument(text, { prettyErrors: false });
  if (doc.errors.length > 0) return { wrong: doc.errors[0]!.message };
  try {
    return { value: doc.toJS({ maxAliasCount: -1 }) };
  } catch (e) {
    return { wrong: String(e) };
  }
}

/** The block reader says the same as `yaml`, or declines: it never reads a value `yaml` would not. */
function agrees(text: string): 'same' | 'declined' | 'both wrong' {
  const want = library(text);
  let got: ReturnType<typeof readBlockYaml>;
  try {
    got = readBlockYaml(text);
  } catch (e) {
    expect(e, text).toBeInstanceOf(InputError);
    expect('wrong' in want, `${text}: refused what yaml reads`).toBe(true);
    return 'both wrong';
  }
  if ('unsupported' in got) return 'declined';
  expect(want, text).toHaveProperty('value');
  expect(isDeepStrictEqual(got.value, (want as { value: unknown }).value), text).toBe(true);
  return 'same';
}

describe('readBlockYaml', () => {
  it('reads what SPDX tools write as yaml does: the corpus, rewritten in several YAML styles', () => {
    const files = corpusRows('spdx').filter((r) => r.file.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    for (const { file } of files) {
      const value: unknown = JSON.parse(readFileSync(`${CORPUS}${file}`, 'utf8'));
      for (const options of [
        {},
        { lineWidth: 40, indentSeq: false },
        { defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN', lineWidth: 30 },
        { defaultStringType: 'QUOTE_SINGLE', indent: 4 },
        { blockQuote: 'folded', lineWidth: 20 },
      ] as const) {
        const text = `---\n${stringify(value, options)}`;
        expect(agrees(text), `${file} ${JSON.stringify(options)}`).toBe('same');
      }
    }
  });

  it('reads the scalars of the core schema, quoted, folded and block text, comments and empty collections', () => {
    const text = [
      'a: ~',
      'b: null',
      'c: True',
      'd: 0o17',
      'e: 0x1F',
      'f: 1.50',
      'g: -.Inf',
      'h: 1e3',
      'i: +12',
      'j: 12abc',
      'ja: 0o8',
      'jb: 1_000',
      'jc: 0X1F',
      'jd: +.5',
      'je: -0',
      'jf: 1.',
      'jg: .NaN',
      'jh: nULL',
      "k: 'it''s'",
      'l: "tab\\there"',
      'm: a plain value',
      '  folded over two lines  # and a comment',
      'n: "double',
      '  quoted"',
      'o: |-',
      '  line one',
      '',
      '  line two',
      'p: >',
      '  folded',
      '  block',
      'q: []',
      'r: { }',
      's:',
      '- x',
      '-',
      '  t: 1',
      '- u: 2',
      '  v:',
      '    - w',
      'toString: an own property',
      '',
    ].join('\n');
    expect(agrees(text)).toBe('same');
    expect(readBlockYaml(text)).toMatchObject({
      value: { m: 'a plain value folded over two lines', s: ['x', { t: 1 }, { u: 2, v: ['w'] }] },
    });
  });

  it.each([
    ['an anchor', 'a: &x 1\nb: 2\n', 'a YAML anchor (&name)', 1],
    ['an alias', 'a: 1\nb: *x\n', 'a YAML alias (*name)', 2],
    ['a tag', 'a: !!str 1\n', 'a YAML tag (!tag)', 1],
    ['a flow list with content', 'a:\n  b: [1, 2]\n', 'a flow list ([a, b])', 2],
    ['a second document', 'a: 1\n---\nb: 2\n', 'a second document (---) or a misplaced dash', 2],
    ['a tab in the indentation', 'a:\n\tb: 1\n', 'a tab in the indentation', 2],
    ['a key with no value indicator', 'a: 1\nb\n', 'a line that is not `key: value` or `- item`', 2],
    ['a misindented key', 'a:\n    b: 1\n  c: 2\n', 'a line indented where no mapping or list of the document is', 3],
    ['a comment not after a space', "a: 'x'#c\n", 'a line that is not `key: value` or `- item`', 1],
  ])('declines %s, saying what and where', (_name, text, unsupported, line) => {
    expect(readBlockYaml(text)).toEqual({ unsupported, line });
  });

  it('refuses a repeated key with its line, as readYaml does', () => {
    expect(() => readBlockYaml('a: 1\nb:\n  c: 1\n  c: 2\n')).toThrow(
      new InputError('not readable YAML at line 4: map keys must be unique'),
    );
  });

  it('agrees with yaml on any value yaml writes, in any of its block styles, and on those texts with edits', () => {
    const key = fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('a', 'name', '1', 'null', 'a b', 'k:v', '-x'));
    const text = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.string({
        unit: fc.constantFrom(
          'a',
          ' ',
          '\n',
          '\t',
          ':',
          '#',
          '-',
          "'",
          '"',
          '\\',
          '|',
          '>',
          '[',
          '{',
          ',',
          '&',
          '*',
          '!',
          '%',
          '@',
          '~',
          '1',
          '.',
          '\r',
        ),
        maxLength: 30,
      }),
    );
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.integer(),
        fc.double(),
        fc.boolean(),
        fc.constant(null),
        tie('list'),
        tie('map'),
      ),
      list: fc.array(tie('tree'), { maxLength: 4 }),
      map: fc.dictionary(key, tie('tree'), { maxKeys: 4 }),
    }));
    const options = fc.record({
      lineWidth: fc.constantFrom(0, 10, 40, 80),
      indent: fc.constantFrom(1, 2, 4),
      indentSeq: fc.boolean(),
      defaultStringType: fc.constantFrom('PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE', 'BLOCK_LITERAL', 'BLOCK_FOLDED'),
      defaultKeyType: fc.constantFrom(null, 'PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE'),
      blockQuote: fc.constantFrom<boolean | 'literal' | 'folded'>(true, false, 'literal', 'folded'),
    });
    const edits = fc.array(
      fc.tuple(fc.nat(), fc.constantFrom('', ' ', '\n', '-', ':', '#', "'", '"', '|', '[', '&', '\t', '\r')),
      { maxLength: 3 },
    );
    let read = 0;
    fc.assert(
      fc.property(fc.dictionary(key, tree, { minKeys: 1, maxKeys: 5 }), options, edits, (value, o, changes) => {
        const written = stringify(value, o);
        if (agrees(written) === 'same') read += 1;
        let edited = written;
        for (const [at, insert] of changes) {
          const p = at % (edited.length + 1);
          edited =
            insert === '' ? edited.slice(0, p) + edited.slice(p + 1) : edited.slice(0, p) + insert + edited.slice(p);
        }
        agrees(edited);
      }),
      { numRuns: 1_500 },
    );
    // Most of what yaml writes in block style is read here, not passed back.
    expect(read).toBeGreaterThan(1_000);
  });

  it('agrees with yaml on lines put together from the pieces of block YAML', () => {
    const line = fc
      .tuple(
        fc.constantFrom('', ' ', '  ', '   ', '    '),
        fc.constantFrom('', '- ', '-  ', '-'),
        fc.constantFrom('a', 'b', '"q"', "'s'", 'k:v', '1', '# c', ''),
        fc.constantFrom(':', ' :', ''),
        fc.constantFrom('', ' v', ' 1.5', ' ~', ' "d\\"q"', " 'it''s'", ' |', ' >-', ' []', ' {}', ' x # c', ' x#y'),
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 10 }), (lines) => {
        agrees(`${lines.join('\n')}\n`);
      }),
      { numRuns: 3_000 },
    );
  });
});
