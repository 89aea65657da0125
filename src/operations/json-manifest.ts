import { z } from 'zod';
import { COMPONENT_KINDS, normaliseComponent } from '../domain/component.js';
import { issuesUnder, TendedError, ValidationError } from '../domain/errors.js';
import type { ComponentReference, ParseResult } from '../parsers/reference.js';
import { parseManifest } from './parse-submission.js';

export const ComponentsBody = z.object({
  components: z
    .array(
      z.object({
        name: z.string().min(1, 'name must name the component, e.g. "express" or "expressjs/express"'),
        kind: z.enum(COMPONENT_KINDS, {
          error: `kind must be one of ${COMPONENT_KINDS.join(', ')} (npm is the JavaScript registry)`,
        }),
      }),
    )
    .max(10_000, 'at most 10,000 components per request'),
});
export const PastedBody = z.object({ filename: z.string().max(255).optional(), content: z.string() });

/**
 * A JSON body that does not parse, or an empty one: answered 422 as every other body Tended cannot
 * read (`loc: ["body"]`, `type: "value_error.json"`), with a sentence saying where it broke.
 */
export class MalformedJsonError extends TendedError {
  constructor(sentence: string) {
    super('malformed_json', sentence);
    this.name = 'MalformedJsonError';
  }
}

/** What the manifest route reads as JSON, said after whatever was wrong with a body. */
export const MANIFEST_JSON_SHAPES =
  'Send {"components":[{"name":"left-pad","kind":"npm"}]}, or {"filename":"package.json","content":"<the file>"}, or the file itself as text/plain.';

// V8's JSON.parse messages, in a person's words. Matched on their fixed start; a message not
// listed still gets the line and column, when it names a position.
const JSON_FAULTS: [prefix: string, words: string][] = [
  ['Unexpected end of JSON input', 'it ends before its brackets, braces or strings are closed'],
  ['Unterminated string', 'a string is not closed with its double quote'],
  ['Expected property name or', 'a property name in double quotes, or a closing }, should come next'],
  ['Expected double-quoted property name', 'a property name in double quotes should come next (a trailing comma?)'],
  ["Expected ',' or '}'", 'a comma or a closing } should come after the value'],
  ["Expected ',' or ']'", 'a comma or a closing ] should come after the element'],
  ["Expected ':'", 'a colon should come after the property name'],
  ['Unexpected non-whitespace character after JSON', 'more text follows the end of the JSON value'],
  [
    'Bad control character in string literal',
    'a string holds a raw control character (write a tab or a line break as \\t or \\n)',
  ],
  ['Bad escaped character', 'a string holds a backslash escape JSON does not have'],
  ['Unexpected token', 'a character that cannot start a JSON value (strings and names take double quotes)'],
];

/**
 * JSON.parse of a request body, or a MalformedJsonError whose sentence says what was wrong (empty,
 * or where it broke, by line and column when the parser names a position) and then `expected`.
 * Never the parser's own message, which quotes the body and speaks JavaScript.
 */
export function parseJsonBody(text: string, expected: string): unknown {
  if (text.trim() === '') throw new MalformedJsonError(`The body is empty. ${expected}`);
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    const words = JSON_FAULTS.find(([prefix]) => message.startsWith(prefix))?.[1] ?? 'it does not parse';
    const at = /at position (\d{1,10})/.exec(message);
    const position = message.startsWith('Unexpected end') ? text.length : at ? Number(at[1]) : null;
    const where = position === null ? '' : ` at ${lineAndColumn(text, position)}`;
    throw new MalformedJsonError(`The body is not valid JSON${where}: ${words}. ${expected}`);
  }
}

/** "line L, column C" (both from 1) of a UTF-16 offset. */
function lineAndColumn(text: string, offset: number): string {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    start = i + 1;
  }
  return `line ${line}, column ${offset - start + 1}`;
}

/**
 * A JSON manifest body: a components list, a pasted file, or (a package.json sent as JSON) the
 * file itself. Run where the parse runs (the parse worker): JSON.parse of a hostile 4 MB body is
 * as much a parse as any other format's.
 */
export function manifestFromJson(text: string, format: string | undefined): ParseResult {
  const body = parseJsonBody(text, MANIFEST_JSON_SHAPES);
  if (body !== null && typeof body === 'object' && 'components' in body) {
    const parsed = ComponentsBody.safeParse(body);
    if (!parsed.success) {
      throw new ValidationError(issuesUnder('body', parsed.error.issues.slice(0, 20)));
    }
    const references: ComponentReference[] = parsed.data.components.map((item, i) => {
      try {
        return { ref: normaliseComponent(item.kind, item.name), input: item.name, location: `components[${i}]` };
      } catch (error) {
        if (error instanceof ValidationError)
          throw new ValidationError(
            error.issues.map((issue) => ({ ...issue, loc: ['body', 'components', i, 'name'] })),
          );
        throw error;
      }
    });
    return { format: 'components', references, unresolved: [] };
  }
  if (body !== null && typeof body === 'object' && 'content' in body) {
    const parsed = PastedBody.safeParse(body);
    if (!parsed.success)
      throw new ValidationError([
        { loc: ['body', 'content'], msg: 'content must be the pasted file as a string', type: 'value_error' },
      ]);
    return parseManifest(parsed.data.content, { format, filename: parsed.data.filename });
  }
  return parseManifest(text, { format: format ?? 'package-json' });
}
