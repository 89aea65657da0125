import { readFileSync } from 'node:fs';
import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  LeafEncodingError,
  MAX_LEAF_BYTES,
  decodeLeaf,
  encodeLeaf,
  isCanonicalLeaf,
  leafAwaitingLoggedAt,
} from './leaf.js';

/** Any JSON value a leaf may hold: integers only, no floats. */
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.maxSafeInteger(),
    fc.string({ unit: 'grapheme' }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ unit: 'grapheme' }), tie('value'), { maxKeys: 4 }),
  ),
})).value;

const JCS = new URL('../../test/vectors/json-canonicalization/testdata/', import.meta.url);
const read = (p: string) => readFileSync(new URL(p, JCS));
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');

describe('cyberphone/json-canonicalization testdata (RFC 8785)', () => {
  // values.json holds floats, which leaves refuse; the rest is integer-only and must match byte for byte.
  const integerOnly = ['french', 'simpleString', 'structures', 'unicode', 'weird'];

  it.each(integerOnly)('%s: encodeLeaf reproduces the expected output bytes', (name) => {
    const input: unknown = JSON.parse(read(`input/${name}.json`).toString('utf8'));
    const expected = read(`output/${name}.json`);
    const got = encodeLeaf(input);
    expect(Buffer.from(got).equals(expected)).toBe(true);
    expect(isCanonicalLeaf(expected)).toBe(true);
  });

  it('simpleString matches the outhex bytes', () => {
    const hex = read('outhex/simpleString.txt').toString('utf8').trim().split(/\s+/).join('').toLowerCase();
    expect(Buffer.from(encodeLeaf(JSON.parse(read('input/simpleString.json').toString('utf8')))).toString('hex')).toBe(
      hex,
    );
  });

  it('values: the canonicalizer matches, but a leaf with floats is refused', () => {
    const input: unknown = JSON.parse(read('input/values.json').toString('utf8'));
    expect(canonicalize(input)).toBe(read('output/values.json').toString('utf8'));
    expect(() => encodeLeaf(input)).toThrow(LeafEncodingError);
    expect(isCanonicalLeaf(read('output/values.json'))).toBe(false);
  });
});

describe('encodeLeaf refuses what cannot be reproduced', () => {
  const cases: [string, unknown][] = [
    ['a lone high surrogate', { s: '\uD800' }],
    ['a lone low surrogate', ['x\uDC00y']],
    ['a reversed pair', '\uDC00\uD800'],
    ['a lone surrogate in a key', { ['k\uDBFF']: 1 }],
    ['a float', { n: 1.5 }],
    ['NaN', [Number.NaN]],
    ['Infinity', { n: Infinity }],
    ['2^53', { n: 2 ** 53 }],
    ['-(2^53)', { n: -(2 ** 53) }],
    ['undefined at the top', undefined],
    ['undefined in an object', { a: undefined }],
    ['undefined in an array', [1, undefined]],
    ['an array hole', [1, , 3]], // eslint-disable-line no-sparse-arrays
    ['a function', { f: () => 1 }],
    ['a bigint', { n: 1n }],
    ['a symbol', { s: Symbol('x') }],
    ['a symbol key', { [Symbol('k')]: 1 }],
    ['a Date', { at: new Date(0) }],
    ['a Map', new Map()],
    ['a typed array', new Uint8Array(2)],
    ['deep nesting', JSON.parse('['.repeat(100) + ']'.repeat(100))],
  ];
  it.each(cases)('%s', (_, value) => {
    expect(() => encodeLeaf(value)).toThrow(LeafEncodingError);
  });

  it('a cycle', () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    expect(() => encodeLeaf(a)).toThrow(LeafEncodingError);
  });

  it('entries over 64 KiB (the tlog-tiles uint16 length limit)', () => {
    const fits = { d: 'x'.repeat(MAX_LEAF_BYTES - 8) }; // {"d":"…"} adds 8 bytes
    expect(encodeLeaf(fits).length).toBe(MAX_LEAF_BYTES);
    expect(() => encodeLeaf({ d: 'x'.repeat(MAX_LEAF_BYTES - 7) })).toThrow(LeafEncodingError);
  });

  it('accepts the extremes that are safe', () => {
    const rec = {
      max: 2 ** 53 - 1,
      min: -(2 ** 53 - 1),
      zero: -0,
      pair: '\uD83D\uDE02',
      nul: null,
      t: true,
      o: Object.create(null) as object,
    };
    expect(text(encodeLeaf(rec))).toBe(
      `{"max":9007199254740991,"min":-9007199254740991,"nul":null,"o":{},"pair":"😂","t":true,"zero":0}`,
    );
  });
});

describe('decodeLeaf / isCanonicalLeaf', () => {
  it('round-trips an observation-like record', () => {
    const rec = {
      _type: 'https://tended.example/observation/v1',
      component: 'pkg:npm/%40scope/name',
      observed_at: '2026-07-01T12:00:00Z',
      state: 'alive',
      evidence: { http_status: 200, archived: false, pushed_at: '2026-06-30T08:15:00Z' },
    };
    const bytes = encodeLeaf(rec);
    expect(decodeLeaf(bytes)).toEqual(rec);
    expect(isCanonicalLeaf(bytes)).toBe(true);
  });

  it('rejects bad UTF-8, a BOM and bad JSON', () => {
    expect(() => decodeLeaf(new Uint8Array([0x22, 0xff, 0x22]))).toThrow(LeafEncodingError);
    expect(() => decodeLeaf(Buffer.from('\uFEFF{}'))).toThrow(LeafEncodingError);
    expect(() => decodeLeaf(Buffer.from('{"a":'))).toThrow(LeafEncodingError);
    expect(isCanonicalLeaf(new Uint8Array([0xc3]))).toBe(false);
  });

  it('non-canonical spellings of the same record are not canonical leaves', () => {
    for (const s of ['{"b":1,"a":2}', '{"a": 1}', '{"a":1.0}', '{"a":"\\u0041"}', '{"a":1,"a":1}', ' {}', '{}\n']) {
      expect(isCanonicalLeaf(Buffer.from(s)), s).toBe(false);
    }
    expect(isCanonicalLeaf(Buffer.from('{"a":1,"b":"A"}'))).toBe(true);
  });

  it('property: encodeLeaf output is always canonical and decodes to an equal record', () => {
    fc.assert(
      fc.property(jsonValue, (v) => {
        const bytes = encodeLeaf(v);
        expect(isCanonicalLeaf(bytes)).toBe(true);
        expect(decodeLeaf(bytes)).toEqual(JSON.parse(JSON.stringify(v)));
      }),
      { numRuns: 300 },
    );
  });
});

describe('leafAwaitingLoggedAt: the leaf made before the sequencer lock, its logged_at put in under it', () => {
  // Keys on both sides of "logged_at" in code-unit order, and some a code unit away from it.
  const key = fc.oneof(
    fc.string({ unit: 'grapheme' }),
    fc.constantFrom(
      '',
      'l',
      'logged',
      'logged_a',
      'logged_b',
      'logged_at_',
      'logged_a\u{1F600}',
      'Z',
      'm',
      '10',
      '9',
      '_type',
    ),
  );
  const record = fc.dictionary(key, jsonValue, { maxKeys: 8 }).filter((r) => !Object.hasOwn(r, 'logged_at'));
  const instant = fc.oneof(
    fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
    fc.string({ unit: 'grapheme' }),
  );

  it('property: gives encodeLeaf({ ...record, logged_at }) byte for byte', () => {
    fc.assert(
      fc.property(record, instant, (r, loggedAt) => {
        const made = leafAwaitingLoggedAt(r)(loggedAt);
        expect(Buffer.from(made).equals(Buffer.from(encodeLeaf({ ...r, logged_at: loggedAt })))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses what encodeLeaf refuses, and a record that already has a logged_at', () => {
    expect(() => leafAwaitingLoggedAt({ a: 1.5 })).toThrow(LeafEncodingError);
    expect(() => leafAwaitingLoggedAt({ logged_at: 'x' })).toThrow(/already has a logged_at/);
    expect(() => leafAwaitingLoggedAt({ a: 1 })('\uD800')).toThrow(/lone surrogate/);
    expect(() => leafAwaitingLoggedAt({ a: 'x'.repeat(MAX_LEAF_BYTES) })('2025-01-01T00:00:00Z')).toThrow(
      /the limit is 65535/,
    );
    expect(Buffer.from(leafAwaitingLoggedAt({})('t')).toString()).toBe('{"logged_at":"t"}');
  });
});
