/**
 * The checks every XML input passes before fast-xml-parser builds its tree (CycloneDX XML, a
 * pom.xml, a NuGet project), and the options it runs with, so the cost of each is linear in the
 * input: no DTD or entity (a billion-laughs file must not cost memory), bounds on element depth
 * (the tree building recurses), on name length, on the number of nodes and of different names
 * among them, and well-formedness, each reported with its line and a short excerpt, never the
 * input whole.
 */
import { XMLParser, XMLValidator, type X2jOptions } from 'fast-xml-parser';
import { excerpt } from '../domain/text.js';
import { InputError, TooComplexError } from './reference.js';

/**
 * The longest element or attribute name read, namespace prefix included. Real names are short
 * (CycloneDX's longest is `externalReferences`, 18; Maven property names a few dozen); a
 * longer one costs memory in every object key and message that spells it.
 */
export const MAX_XML_NAME = 200;
/**
 * The most nodes read in one file: elements, attributes, CDATA sections and processing
 * instructions together (comments are skipped unread). The tree fast-xml-parser builds costs about
 * a microsecond and 150 bytes per node, so this bounds a parse however small the nodes are made
 * (a 4 MB file of `<x/>` has a million). Real XML SBOMs spend 45 to 56 bytes per node (the
 * corpus's five, from Syft and the CycloneDX npm, Maven and Composer tools: about 22,000 nodes per
 * MB), so a 4 MB one has about 90,000.
 */
export const MAX_XML_NODES = 150_000;
/**
 * The most attributes on one element. Real ones carry a few (a CycloneDX hash two, a root element
 * its namespace declarations); fast-xml-parser slows per attribute as one element's grow.
 */
export const MAX_XML_ATTRIBUTES = 256;
/**
 * What checkXml bounds per format: the depth of elements, and how many different element and
 * attribute names a file may use. Each new name is a property key for V8 to intern and a shape
 * for the objects that hold it: 4 MB of elements under 190,000 different names cost three to five
 * times as many under one name. So a format's bound sits a few times above what its real files
 * use, and no higher.
 */
export interface XmlBounds {
  depth: number;
  names: number;
}

/**
 * fast-xml-parser with what every parser here needs: entities never expanded (a billion-laughs
 * file must not cost memory; DTDs are refused first), text and attribute values left as strings,
 * no node for a processing instruction (none is read), and no path strings: with `jPath` on, it
 * spells out the path of every element it builds (and of every value it converts), so a file of
 * deep, long names cost name length × depth × elements. Callbacks get its matcher instead; none
 * here needs one. Its own nesting bound sits just above `maxDepth`, which checkXml enforces first
 * with a sentence.
 */
export function xmlParser(maxDepth: number, options: Partial<X2jOptions>): XMLParser {
  return new XMLParser({
    removeNSPrefix: true,
    processEntities: false,
    htmlEntities: false,
    parseTagValue: false,
    parseAttributeValue: false,
    jPath: false,
    ignorePiTags: true,
    maxNestedTags: maxDepth + 1,
    ...options,
  });
}

/** Where a comment, CDATA section, processing instruction or declaration opening at `at` ends, or -1 if it is not one. */
function nonElementEnd(body: string, at: number): number {
  let closer: string;
  if (body.startsWith('<!--', at)) closer = '-->';
  else if (body.startsWith('<![CDATA[', at)) closer = ']]>';
  else if (body.startsWith('<?', at)) closer = '?>';
  else if (body.startsWith('<!', at)) closer = '>';
  else return -1;
  const close = body.indexOf(closer, at + 2);
  // An unclosed one hides the rest: nothing after it can close it either.
  return close < 0 ? body.length : close + closer.length;
}

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;
// A name runs to whitespace, `/`, `>`, `=`, a quote or `<`.
const endsName = (c: number) => isSpace(c) || c === 47 || c === 62 || c === 61 || c === 34 || c === 39 || c === 60;
// A closing tag's name is bounded in length, but not counted: it repeats the name it closes.
const CLOSING = 'a closing tag with a';

/**
 * The bounds checked in one pass with indexOf and a cursor that only moves forward (a regular
 * expression per tag rescans a long name for every way to split it): element depth, name length,
 * the number of nodes, and of different names among them. Comments, CDATA and processing
 * instructions are skipped whole, so the `<` inside them are not taken for tags. A quote in a
 * start tag is skipped to its match, as XML reads it (`>` may stand in an attribute value).
 * Malformed input is left to the validator: this only bounds what it and the parser will be asked
 * to do.
 */
function checkBounds(body: string, bounds: XmlBounds): void {
  let depth = 0;
  let nodes = 0;
  const names = new Set<string>();
  /** The end of the name starting at `from`, after checking its length and (unless it closes a tag) counting it. */
  const name = (from: number, kind: string): number => {
    let i = from;
    while (i < body.length && !endsName(body.charCodeAt(i))) i += 1;
    if (i - from > MAX_XML_NAME) {
      throw new TooComplexError(
        `${kind} name of ${(i - from).toLocaleString('en')} characters on line ${lineOf(body, from)} ("${excerpt(body.slice(from, from + 30), 24)}"); Tended reads names of up to ${MAX_XML_NAME} characters, and real ones are under 100.`,
      );
    }
    if (kind !== CLOSING && names.add(body.slice(from, i)).size > bounds.names) {
      throw new TooComplexError(
        `more than ${bounds.names.toLocaleString('en')} different element and attribute names (the bound is passed on line ${lineOf(body, from)}); Tended reads up to ${bounds.names.toLocaleString('en')}, several times what real files of this kind use.`,
      );
    }
    return i;
  };
  const count = (at: number) => {
    nodes += 1;
    if (nodes > MAX_XML_NODES) {
      throw new TooComplexError(
        `more than ${MAX_XML_NODES.toLocaleString('en')} nodes (elements, attributes, CDATA sections and processing instructions; the bound is passed on line ${lineOf(body, at)}); Tended reads up to ${MAX_XML_NODES.toLocaleString('en')}, and real files have about 22,000 per MB.`,
      );
    }
  };
  for (let at = body.indexOf('<'); at >= 0; at = body.indexOf('<', at)) {
    const skipTo = nonElementEnd(body, at);
    if (skipTo >= 0) {
      // The parser builds a node for a CDATA section and reads a processing instruction's
      // attributes (even with ignorePiTags): 780,000 `<?a?>` once took 3.4 s. Comments it skips.
      if (body.charCodeAt(at + 1) === 63 || body.startsWith('<![CDATA[', at)) count(at);
      at = skipTo;
      continue;
    }
    if (body.charCodeAt(at + 1) === 47) {
      // A closing tag's name is bounded too: the validator compares it whole with the open one.
      at = name(at + 2, CLOSING);
      depth -= 1;
      continue;
    }
    count(at);
    let i = name(at + 1, 'an element');
    let attributes = 0;
    let selfClosing = false;
    while (i < body.length) {
      const c = body.charCodeAt(i);
      if (c === 62 || c === 60) break;
      if (c === 47 && body.charCodeAt(i + 1) === 62) {
        selfClosing = true;
        break;
      }
      if (c === 34 || c === 39) {
        const close = body.indexOf(c === 34 ? '"' : "'", i + 1);
        i = close < 0 ? body.length : close + 1;
      } else if (isSpace(c) || c === 47 || c === 61) {
        i += 1;
      } else {
        if (++attributes > MAX_XML_ATTRIBUTES) {
          throw new TooComplexError(
            `an element with more than ${MAX_XML_ATTRIBUTES} attributes on line ${lineOf(body, at)}; Tended reads up to ${MAX_XML_ATTRIBUTES} on one element, and real ones have a few.`,
          );
        }
        count(i);
        i = name(i, 'an attribute');
      }
    }
    // An empty element (`<b/>`) is as deep as any other, though nothing opens inside it.
    if (depth + 1 > bounds.depth) {
      throw new TooComplexError(
        `its elements are nested more than ${bounds.depth} levels deep (line ${lineOf(body, at)}); Tended reads up to ${bounds.depth} levels, and real files nest fewer than 20.`,
      );
    }
    if (!selfClosing) depth += 1;
    at = i;
  }
}

const PREDEFINED_ENTITIES = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
]);
// The longest reference decoded: `&#x10FFFF;` (the name between `&` and `;` is at most 8 characters).
const MAX_REFERENCE_NAME = 8;
const DECIMAL_REFERENCE = /^#\d{1,7}$/;
const HEX_REFERENCE = /^#x[\da-f]{1,6}$/i;

/** The character `&name;` stands for: a predefined entity or a character reference, else undefined. */
function referencedCharacter(name: string): string | undefined {
  const predefined = PREDEFINED_ENTITIES.get(name);
  if (predefined !== undefined) return predefined;
  let code: number;
  if (DECIMAL_REFERENCE.test(name)) code = Number.parseInt(name.slice(1), 10);
  else if (HEX_REFERENCE.test(name)) code = Number.parseInt(name.slice(2), 16);
  else return undefined;
  // XML's Char production: no NUL, no surrogate halves, nothing past U+10FFFF.
  if (code === 0 || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) return undefined;
  return String.fromCodePoint(code);
}

/**
 * Element text or an attribute value as XML means it: the five predefined entities (`&amp;`,
 * `&lt;`, `&gt;`, `&quot;`, `&apos;`) and character references (`&#38;`, `&#x26;`) replaced by
 * their character. Syft writes `<purl>pkg:apk/alpine/musl@1.2.3-r4?arch=x86_64&amp;distro=alpine-3.17.2</purl>`,
 * whose purl has a plain `&`. The parsers run with entity processing off (no DTD entity is
 * ever expanded), so the values they give still carry the references. Each names one character,
 * so this is one pass; any other `&` stays as written.
 */
export function decodeXmlText(text: string): string {
  let amp = text.indexOf('&');
  if (amp < 0) return text;
  const parts: string[] = [];
  let at = 0;
  while (amp >= 0) {
    // Only the next few characters can close a reference: the scan for `;` is bounded.
    const semi = text.slice(amp + 1, amp + 2 + MAX_REFERENCE_NAME).indexOf(';');
    const character = semi < 0 ? undefined : referencedCharacter(text.slice(amp + 1, amp + 1 + semi));
    if (character === undefined) {
      amp = text.indexOf('&', amp + 1);
      continue;
    }
    parts.push(text.slice(at, amp), character);
    at = amp + 2 + semi;
    amp = text.indexOf('&', at);
  }
  parts.push(text.slice(at));
  return parts.join('');
}

export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i += 1) if (text.charCodeAt(i) === 10) line += 1;
  return line;
}

/**
 * Throws an InputError naming the line unless `body` is well-formed XML with no DTD, within the
 * format's `bounds` and the bounds on names and nodes every format shares (a TooComplexError says
 * which).
 */
export function checkXml(body: string, what: string, bounds: XmlBounds): void {
  const dtd = /<!DOCTYPE|<!ENTITY/i.exec(body);
  if (dtd) {
    throw new InputError(
      `DTDs and entities are not accepted: found "${dtd[0]}" on line ${lineOf(body, dtd.index)}; ${what} needs neither.`,
    );
  }
  checkBounds(body, bounds);
  const valid = XMLValidator.validate(body);
  if (valid !== true) {
    throw new InputError(
      `Expected ${what}, but the XML is malformed on line ${valid.err.line}, column ${valid.err.col}: ${excerpt(valid.err.msg, 160)}`,
    );
  }
}
