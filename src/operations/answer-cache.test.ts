import { describe, expect, it } from 'vitest';
import { AnswerCache } from './answer-cache.js';

describe('AnswerCache', () => {
  it('drops the least recently used entry past its entry bound', () => {
    const cache = new AnswerCache<string>(2);
    cache.set('a', 'A');
    cache.set('b', 'B');
    expect(cache.get('a')).toBe('A');
    cache.set('c', 'C');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('A');
    expect(cache.get('c')).toBe('C');
  });

  it('holds no more bytes than its byte bound, dropping the least recently used first', () => {
    const cache = new AnswerCache<string>(1000, { max: 10, sizeOf: (v) => v.length });
    cache.set('a', 'aaaa');
    cache.set('b', 'bbbb');
    expect(cache.get('a')).toBe('aaaa');
    cache.set('c', 'cccc');
    expect(cache.size).toEqual({ entries: 2, bytes: 8 });
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('aaaa');
    // Replacing an entry counts its new size, not both.
    cache.set('a', 'aa');
    expect(cache.size).toEqual({ entries: 2, bytes: 6 });
  });

  it('keeps recency right when the newest key is read again and again', () => {
    const cache = new AnswerCache<string>(2);
    cache.set('a', 'A');
    cache.set('b', 'B');
    expect(cache.get('b')).toBe('B');
    expect(cache.get('b')).toBe('B');
    expect(cache.get('a')).toBe('A');
    cache.set('c', 'C');
    // b was least recently read: it goes, not a.
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('A');
  });

  it('keeps no answer larger than the whole budget, and keeps the others', () => {
    const cache = new AnswerCache<string>(1000, { max: 10, sizeOf: (v) => v.length });
    cache.set('a', 'aaaa');
    cache.set('huge', 'x'.repeat(11));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('a')).toBe('aaaa');
  });
});
