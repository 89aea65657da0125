/**
 * A bound on how deep a JSON text nests, checked in one pass before JSON.parse sees it. V8's
 * JSON.parse builds any depth, but JSON.stringify and every recursive reader of the value then
 * overflow the stack (a composer.json constraint 100,000 arrays deep was a 500), and parsing two
 * million nested arrays alone took a second and 200 MB. Brackets inside strings nest nothing, so
 * strings are skipped; the text need not be valid JSON (JSON.parse then says what is wrong).
 */
import { TooComplexError } from './reference.js';

/**
 * Far deeper than any real file: manifests nest fewer than 20 levels, and a CycloneDX BOM's
 * components, nested up to cyclonedx/parse.ts's 64 levels, take two JSON levels each.
 */
export const MAX_JSON_DEPTH = 256;

/** Throws a TooComplexError naming the line where `text` opens its (MAX_JSON_DEPTH + 1)th level. */
export function checkJsonDepth(text: string): void {
  let depth = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // To the closing quote; a backslash escapes whatever follows it.
      for (i += 1; i < text.length; i += 1) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) i += 1;
        else if (d === QUOTE) break;
      }
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth += 1;
      if (depth > MAX_JSON_DEPTH) {
        throw new TooComplexError(
          `its JSON nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep (line ${lineAt(text, i)}). Real manifests and SBOMs nest fewer than 20 levels; Tended reads JSON up to ${MAX_JSON_DEPTH} levels deep.`,
        );
      }
    } else if ((c === CLOSE_OBJECT || c === CLOSE_ARRAY) && depth > 0) depth -= 1;
  }
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
