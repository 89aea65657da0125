import { describe, expect, it } from 'vitest';
import { InputError, TooComplexError } from './reference.js';
import {
  MAX_XML_ATTRIBUTES,
  MAX_XML_NAME,
  MAX_XML_NODES,
  checkXml,
  decodeXmlText,
  xmlParser,
  type XmlBounds,
} from './xml-document.js';

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

/** The error checkXml throws for `body`, or null when it accepts it. */
function refusal(body: string, bounds: Partial<XmlBounds> = {}): Error | null {
  try {
    checkXml(body, 'a test file', { depth: 64, names: 2_000, ...bounds });
    return null;
  } catch (e) {
    return e as Error;
  }
}

describe('checkXml bounds', () => {
  const name = (length: number) => 'n'.repeat(length);

  it(`reads names of ${MAX_XML_NAME} characters and refuses a longer one with its length, line and the bound`, () => {
    expect(refusal(`<${name(MAX_XML_NAME)} ${name(MAX_XML_NAME)}="1"></${name(MAX_XML_NAME)}>`)).toBeNull();
    const e = refusal(`<a>\n<${name(3_000)}/></a>`);
    expect(e).toBeInstanceOf(TooComplexError);
    expect(e?.message).toBe(
      `This file is too complex to check: an element name of 3,000 characters on line 2 ("${'n'.repeat(23)}…"); Tended reads names of up to ${MAX_XML_NAME} characters, and real ones are under 100.`,
    );
  });

  it('bounds a name with its namespace prefix, an attribute name and a closing tag’s name alike', () => {
    expect(refusal(`<${name(MAX_XML_NAME - 1)}:a/>`)?.message).toMatch(/an element name of 201 characters/);
    expect(refusal(`<a x:${name(MAX_XML_NAME)}="1"/>`)?.message).toMatch(
      /an attribute name of 202 characters on line 1/,
    );
    expect(refusal(`<a></${name(MAX_XML_NAME + 1)}>`)?.message).toMatch(/a closing tag with a name of 201 characters/);
  });

  it(`reads ${MAX_XML_ATTRIBUTES} attributes on one element and refuses more`, () => {
    const attributes = (n: number) => Array.from({ length: n }, (_, i) => ` a${i}="${i}"`).join('');
    expect(refusal(`<a${attributes(MAX_XML_ATTRIBUTES)}/>`)).toBeNull();
    expect(refusal(`<a${attributes(MAX_XML_ATTRIBUTES + 1)}/>`)?.message).toMatch(
      new RegExp(`an element with more than ${MAX_XML_ATTRIBUTES} attributes on line 1`),
    );
  });

  it(`reads ${MAX_XML_NODES.toLocaleString('en')} nodes and refuses one more, counting CDATA and processing instructions`, () => {
    // The root and its attribute are two of them.
    const body = (n: number) => `<a b="1">${'<x/>'.repeat(n - 2)}</a>`;
    expect(refusal(body(MAX_XML_NODES))).toBeNull();
    const e = refusal(body(MAX_XML_NODES + 1));
    expect(e).toBeInstanceOf(TooComplexError);
    expect(e?.message).toMatch(
      /more than 150,000 nodes \(elements, attributes, CDATA sections and processing instructions; the bound is passed on line 1\)/,
    );
    expect(refusal(`<a>${'<?p?>'.repeat(MAX_XML_NODES)}</a>`)?.message).toMatch(/more than 150,000 nodes/);
    expect(refusal(`<a>${'<![CDATA[x]]>'.repeat(MAX_XML_NODES)}</a>`)?.message).toMatch(/more than 150,000 nodes/);
    // Comments the parser skips unread: they are no node.
    expect(refusal(`<a>${'<!--x-->'.repeat(MAX_XML_NODES)}</a>`)).toBeNull();
  });

  it('reads as many different names as its bound, elements and attributes together, and refuses one more', () => {
    // <r> and a0 are two; closing tags name nothing new.
    const body = (n: number) => `<r a0="">${Array.from({ length: n - 2 }, (_, i) => `<e${i}></e${i}>`).join('\n')}</r>`;
    expect(refusal(body(1_000), { names: 1_000 })).toBeNull();
    const e = refusal(body(1_001), { names: 1_000 });
    expect(e).toBeInstanceOf(TooComplexError);
    expect(e?.message).toMatch(
      /more than 1,000 different element and attribute names \(the bound is passed on line 999\); Tended reads up to 1,000/,
    );
    // The same names again and again are one each.
    expect(refusal(`<r>${'<a b="1"/><c d="2"/>'.repeat(30_000)}</r>`, { names: 5 })).toBeNull();
  });

  it('reads elements nested to the bound and refuses one level more, naming the line', () => {
    const nested = (depth: number) => `${'<a>'.repeat(depth - 1)}\n<b/>${'</a>'.repeat(depth - 1)}`;
    expect(refusal(nested(10), { depth: 10 })).toBeNull();
    const e = refusal(nested(11), { depth: 10 });
    expect(e).toBeInstanceOf(TooComplexError);
    expect(e?.message).toMatch(/nested more than 10 levels deep \(line 2\); Tended reads up to 10 levels/);
  });

  it('counts no element inside comments, CDATA, processing instructions or attribute values', () => {
    const hidden = `<!--${'<a>'.repeat(20)}--><?pi ${'<a>'.repeat(20)}?>`;
    expect(
      refusal(`${hidden}<r><![CDATA[${'<a>'.repeat(20)}]]><b c="${'>'.repeat(20)}<a>"/></r>`, { depth: 2 }),
    ).toBeNull();
    // An unclosed comment hides the rest: refused as malformed, not as too deep.
    const unclosed = refusal(`<r><!--${'<a>'.repeat(20)}`, { depth: 2 });
    expect(unclosed).toBeInstanceOf(InputError);
    expect(unclosed).not.toBeInstanceOf(TooComplexError);
  });

  it('takes one pass: a 4 MB body refused at its end, or under every bound, is checked quickly', () => {
    // Two nodes in 56 bytes: 4 MB of them are under MAX_XML_NODES.
    const under = `<r>${`<x a="b">${'t'.repeat(40)}</x>\n`.repeat(Math.floor((MAX_XML_NODES - 1) / 2))}</r>`;
    const farName = `<r>${' '.repeat(4_000_000)}<${name(300)}/></r>`;
    for (const [body, refused] of [
      [under, false],
      [farName, true],
    ] as const) {
      expect(body.length).toBeGreaterThan(4_000_000);
      const start = performance.now();
      expect(refusal(body) !== null).toBe(refused);
      expect(performance.now() - start).toBeLessThan(1_000);
    }
  });
});

describe('xmlParser', () => {
  it('builds no path strings: deep, long names around many elements cost what their bytes do', () => {
    // 60 levels of 3,000-character names around 40,000 <x/>: with jPath on, 9 s; its path is
    // spelt for every <x/>. checkXml refuses such names first; the parser must not need it to.
    const names = Array.from({ length: 60 }, (_, i) => `n${i}`.padEnd(3_000, 'x'));
    const body = `${names.map((n) => `<${n}>`).join('')}${'<x/>'.repeat(40_000)}${names
      .reverse()
      .map((n) => `</${n}>`)
      .join('')}`;
    const start = performance.now();
    xmlParser(100, { isArray: () => false }).parse(body);
    expect(performance.now() - start).toBeLessThan(1_000);
  });
});
