/**
 * YAML read in time linear in its size, for the workflow and SPDX YAML parsers.
 * - `yaml`'s own duplicate-key check compares each key with every earlier key of its mapping:
 *   a mapping of 30,000 distinct keys took seconds. It is turned off, and duplicates are found
 *   here with one set per mapping.
 * - Flow collections nested thousands deep (`[[[[…`) exhaust the stack of `yaml`'s composer after
 *   seconds of work; a pass over the brackets first refuses them at once.
 */
import { Lexer, LineCounter, isAlias, isCollection, isMap, isScalar, parseDocument } from 'yaml';
import type { Document, Node } from 'yaml';
import { InputError } from './reference.js';

/** Deeper than any real workflow or SBOM nests its `[ ]` and `{ }`. */
export const MAX_FLOW_DEPTH = 64;

export interface YamlRead {
  doc: Document;
  lines: LineCounter;
}

/** Parses `text`, or throws an InputError whose sentence names the line that is wrong. */
export function readYaml(text: string): YamlRead {
  const lines = new LineCounter();
  const deep = flowTooDeep(text);
  if (deep >= 0) {
    throw new InputError(
      `not readable YAML: brackets are nested more than ${MAX_FLOW_DEPTH} levels deep at line ${lineAt(text, deep)}; no real file nests that far, so it is refused.`,
    );
  }
  let doc: Document;
  try {
    doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, logLevel: 'silent', uniqueKeys: false });
  } catch (e) {
    throw new InputError(
      `not readable YAML: ${e instanceof Error ? (e.message.split('\n')[0] ?? '').slice(0, 160) : String(e)}`,
    );
  }
  const err = doc.errors[0];
  if (err) {
    // err.pos is an offset; linePos is only filled with prettyErrors, which also rewrites the message.
    const line = lines.linePos(err.pos[0]).line;
    throw new InputError(
      `not readable YAML${line ? ` at line ${line}` : ''}: ${(err.message.split('\n')[0] ?? '').slice(0, 160)}`,
    );
  }
  const duplicate = firstDuplicateKey(doc.contents);
  if (duplicate !== null) {
    const line = duplicate.range ? lines.linePos(duplicate.range[0]).line : 0;
    throw new InputError(`not readable YAML${line ? ` at line ${line}` : ''}: map keys must be unique`);
  }
  return { doc, lines };
}

/**
 * Offset of the first flow collection opened past MAX_FLOW_DEPTH, or -1. `yaml`'s lexer is a
 * flat loop that knows quotes, comments and block scalars, so brackets inside them do not count.
 */
function flowTooDeep(text: string): number {
  let depth = 0;
  let offset = 0;
  for (const token of new Lexer().lex(text)) {
    if (token === '[' || token === '{') {
      depth += 1;
      if (depth > MAX_FLOW_DEPTH) return offset;
    } else if ((token === ']' || token === '}') && depth > 0) depth -= 1;
    offset += token.length;
  }
  return -1;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

/** The first key that repeats a scalar key of its own mapping, walking with a stack (no recursion). */
function firstDuplicateKey(root: unknown): Node | null {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const node = pending.pop();
    if (!isCollection(node)) continue;
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = pair.key;
        if (isScalar(key)) {
          const name = String(key.value);
          if (seen.has(name)) return key;
          seen.add(name);
        }
        if (!isAlias(pair.value)) pending.push(pair.value);
      }
    } else {
      for (const item of node.items) if (!isAlias(item)) pending.push(item);
    }
  }
  return null;
}
