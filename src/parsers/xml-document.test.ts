import { describe, expect, it } from 'vitest';
import { decodeXmlText } from './xml-document.js';

describe('decodeXmlText', () => {
  it('replaces the predefined entities and character references', () => {
    expect(decodeXmlText('pkg:apk/alpine/musl@1.2.3-r4?arch=x86_64&amp;distro=alpine-3.17.2')).toBe(
      'pkg:apk/alpine/musl@1.2.3-r4?arch=x86_64&distro=alpine-3.17.2',
    );
    expect(decodeXmlText('&lt;a&gt; &quot;b&quot; &apos;c&apos;')).toBe('<a> "b" \'c\'');
    expect(decodeXmlText('x&#38;y&#x26;z&#X26;&#x1F600;')).toBe('x&y&z&\u{1F600}');
    // One pass: a decoded `&` does not start another reference.
    expect(decodeXmlText('&amp;amp;')).toBe('&amp;');
  });

  it('leaves anything else as written', () => {
    for (const text of [
      'no references',
      'a & b',
      '&amp',
      '&lol9;',
      '&constructor;',
      '&#0;',
      '&#xD800;',
      '&#x110000;',
      '&#12345678;',
      '&#x;',
      '&#;',
      '&;',
    ]) {
      expect(decodeXmlText(text), text).toBe(text);
    }
    expect(decodeXmlText('&&amp;&')).toBe('&&&');
  });

  it('takes linear time on many ampersands without a semicolon in reach', () => {
    for (const text of [`${'&'.repeat(500_000)};`, `${'&#1'.repeat(200_000)};`, '&amp;'.repeat(200_000)]) {
      const start = performance.now();
      decodeXmlText(text);
      expect(performance.now() - start).toBeLessThan(500);
    }
  });
});
