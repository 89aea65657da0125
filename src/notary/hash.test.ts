import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_ROOT,
  equalBytes,
  fromBase64,
  hashFromBase64,
  hashFromHex,
  leafHash,
  nodeHash,
  toBase64,
  toHex,
} from './hash.js';

const sha = (...parts: Uint8Array[]) => createHash('sha256').update(Buffer.concat(parts)).digest('hex');

describe('hashes', () => {
  it('leaf and node hashes are domain-separated SHA-256', () => {
    const a = Buffer.from('a'.repeat(5000)); // larger than the initial scratch buffer
    expect(toHex(leafHash(a))).toBe(sha(Buffer.from([0]), a));
    expect(toHex(leafHash(new Uint8Array(0)))).toBe(sha(Buffer.from([0])));
    const l = leafHash(Buffer.from('l'));
    const r = leafHash(Buffer.from('r'));
    expect(toHex(nodeHash(l, r))).toBe(sha(Buffer.from([1]), l, r));
    expect(toHex(EMPTY_ROOT)).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('hands out plain Uint8Arrays whose slice() is a real copy', () => {
    const h = leafHash(Buffer.from('x'));
    expect(Buffer.isBuffer(h)).toBe(false);
    const copy = h.slice();
    copy[0] = copy[0]! ^ 0xff;
    expect(equalBytes(h, copy)).toBe(false);
  });

  it('base64 is strict', () => {
    const h = leafHash(Buffer.from('x'));
    expect(toHex(hashFromBase64(toBase64(h)))).toBe(toHex(h));
    for (const bad of ['', 'abc', 'ab==cd==', 'YQ', 'YR==', 'Y Q==', 'YQ==\n', '-_8=', toBase64(h).slice(1)]) {
      expect(() => hashFromBase64(bad), bad).toThrow(TypeError);
    }
    for (const bad of ['YQ', 'YR==', 'Y Q==', '-_8=']) expect(() => fromBase64(bad), bad).toThrow(TypeError);
    expect(Buffer.from(fromBase64('YQ==')).toString()).toBe('a');
    expect(() => hashFromBase64('YQ==')).toThrow(/32-byte/);
  });

  it('hex hashes are 64 lower-case digits', () => {
    const h = leafHash(Buffer.from('x'));
    expect(toHex(hashFromHex(toHex(h)))).toBe(toHex(h));
    expect(() => hashFromHex(toHex(h).toUpperCase())).toThrow(TypeError);
    expect(() => hashFromHex('00')).toThrow(TypeError);
  });
});
