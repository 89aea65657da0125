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
