/**
 * The checks every XML input passes before fast-xml-parser builds its tree (CycloneDX XML, a
 * pom.xml), each in one pass so the cost is linear in the input: no DTD or entity (a billion-
 * laughs file must not cost memory), a bound on element depth (the tree building recurses), and
 * well-formedness, reported with its line and a short excerpt, never the input whole.
 */
import { XMLValidator } from 'fast-xml-parser';
import { excerpt } from '../domain/text.js';
import { InputError } from './reference.js';

const NON_ELEMENT_OPENER = /<!--|<!\[CDATA\[|<\?/g;
const NON_ELEMENT_CLOSER: Record<string, string> = { '<!--': '-->', '<![CDATA[': ']]>', '<?': '?>' };

/**
 * `body` with comments, CDATA sections and processing instructions blanked (same length, so
 * offsets still point at the same line), in one pass: an unclosed one blanks the rest, since
 * nothing after it can close it either (`<!--[\s\S]*?-->` rescans to the end for every opener).
 */
function withoutNonElements(body: string): string {
  const parts: string[] = [];
  let at = 0;
  NON_ELEMENT_OPENER.lastIndex = 0;
  for (let m = NON_ELEMENT_OPENER.exec(body); m !== null; m = NON_ELEMENT_OPENER.exec(body)) {
    const closer = NON_ELEMENT_CLOSER[m[0]] ?? '>';
    const close = body.indexOf(closer, m.index + m[0].length);
    const end = close < 0 ? body.length : close + closer.length;
    parts.push(body.slice(at, m.index), ' '.repeat(end - m.index));
    at = end;
    if (close < 0) break;
    NON_ELEMENT_OPENER.lastIndex = end;
  }
  parts.push(body.slice(at));
  return parts.join('');
}

/**
 * Cheap depth check before the real parse, whose tree building recurses. Comments, CDATA and
 * processing instructions are removed first so the `<` inside them are not counted.
 */
function xmlElementDepth(body: string, maxDepth: number): { depth: number; offset: number } {
  const stripped = withoutNonElements(body);
  let depth = 0;
  for (const m of stripped.matchAll(/<(\/?)[^<>]*?(\/?)>/g)) {
    if (m[1] === '/') depth -= 1;
    else if (m[2] !== '/') depth += 1;
    if (depth > maxDepth) return { depth, offset: m.index ?? 0 };
  }
  return { depth, offset: -1 };
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

/** Throws an InputError naming the line unless `body` is well-formed XML with no DTD, at most `maxDepth` deep. */
export function checkXml(body: string, what: string, maxDepth: number): void {
  const dtd = /<!DOCTYPE|<!ENTITY/i.exec(body);
  if (dtd) {
    throw new InputError(
      `DTDs and entities are not accepted: found "${dtd[0]}" on line ${lineOf(body, dtd.index)}; ${what} needs neither.`,
    );
  }
  const deep = xmlElementDepth(body, maxDepth);
  if (deep.offset >= 0) {
    throw new InputError(
      `XML elements are nested more than ${maxDepth} levels deep (line ${lineOf(body, deep.offset)}); no real ${what} nests that far, so the file is refused.`,
    );
  }
  const valid = XMLValidator.validate(body);
  if (valid !== true) {
    throw new InputError(
      `Expected ${what}, but the XML is malformed on line ${valid.err.line}, column ${valid.err.col}: ${excerpt(valid.err.msg, 160)}`,
    );
  }
}
