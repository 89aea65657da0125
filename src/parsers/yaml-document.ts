/**
 * YAML read in time linear in its size, for the workflow and SPDX YAML parsers.
 * - `yaml`'s own duplicate-key check compares each key with every earlier key of its mapping:
 *   a mapping of 30,000 distinct keys took seconds. It is turned off, and duplicates are found
 *   here with one set per mapping.
 * - Collections nested a thousand deep, as flow (`[[[[…`) or block (indented lines, `- - - …`),
 *   exhaust the stack of `yaml`'s composer, after seconds of work; a pass over the tokens first
 *   refuses them at once.
 * - Aliases are followed here, once each, and bounded: `yaml` finds an alias's anchor by walking
 *   the whole document (or a list of every anchor and alias before it), so many aliases cost time
 *   quadratic in the file; and a reader that follows aliases does the work of the document they
 *   expand to, not of the one written (99 jobs aliasing one list of 10,000 steps was a 300 KB
 *   workflow that answered 82 MB). So a document may hold MAX_YAML_ALIASES anchors and as many
 *   aliases, no alias may sit inside the node it names, and what aliases add may not exceed what
 *   the document writes (or MIN_ALIAS_EXPANSION nodes, for small files).
 */
import { Lexer, LineCounter, isAlias, isCollection, isMap, isPair, isScalar, parseDocument } from 'yaml';
import type { Alias, Document, Node } from 'yaml';
import { InputError, TooComplexError } from './reference.js';

/** Deeper than any real workflow or SBOM nests its `[ ]` and `{ }`, or its indented mappings and lists (about 10). */
export const MAX_FLOW_DEPTH = 64;
export const MAX_BLOCK_DEPTH = 64;
/** Anchors, and aliases, a document may hold: real workflows and SBOMs use a few dozen. */
export const MAX_YAML_ALIASES = 1_000;
/** Nodes aliases may add to any document, however small: a few thousand references at most. */
export const MIN_ALIAS_EXPANSION = 10_000;
const COUNT = MAX_YAML_ALIASES.toLocaleString('en');

export interface YamlRead {
  doc: Document;
  lines: LineCounter;
  /** The node each alias names (the last node anchored so before it), for readers that follow aliases. */
  targets: Map<Alias, Node>;
}

/** Parses `text`, or throws an InputError whose sentence names the line that is wrong. */
export function readYaml(text: string): YamlRead {
  const lines = new LineCounter();
  const deep = tooDeep(text);
  if (deep !== null) {
    const [what, bound] = deep.flow
      ? ['[ ] and { }', MAX_FLOW_DEPTH]
      : ['indented mappings and lists', MAX_BLOCK_DEPTH];
    throw new TooComplexError(
      `its YAML nests ${what} more than ${bound} levels deep (line ${lineAt(text, deep.offset)}). Real workflows and SBOMs nest about 10; Tended reads YAML nested up to ${bound} levels.`,
    );
  }
  let doc: Document;
  try {
    doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, logLevel: 'silent', uniqueKeys: false });
  } catch (e) {
    if (e instanceof RangeError) throw tooDeepAfterAll();
    throw new InputError(
      `not readable YAML: ${e instanceof Error ? (e.message.split('\n')[0] ?? '').slice(0, 160) : String(e)}`,
    );
  }
  const err = doc.errors[0];
  // `yaml` records a stack overflow of its own as an error of the document; its text is no sentence for a person.
  if (err?.message.includes('call stack')) throw tooDeepAfterAll();
  if (err) {
    // err.pos is an offset; linePos is only filled with prettyErrors, which also rewrites the message.
    const line = lines.linePos(err.pos[0]).line;
    throw new InputError(
      `not readable YAML${line ? ` at line ${line}` : ''}: ${(err.message.split('\n')[0] ?? '').slice(0, 160)}`,
    );
  }
  return { doc, lines, targets: survey(doc, lines) };
}

/**
 * Where the first collection opened past MAX_FLOW_DEPTH (flow) or MAX_BLOCK_DEPTH (block) is, or
 * null. `yaml`'s lexer is a flat loop that knows quotes, comments and block scalars, so brackets
 * and indentation inside them do not count. A line's block depth is counted as the indentations
 * still open to its left, plus the `-`, `?` and `:` indicators before its content: at least the
 * nesting `yaml` builds.
 */
function tooDeep(text: string): { offset: number; flow: boolean } | null {
  let flow = 0;
  let offset = 0;
  const indents: number[] = [];
  let lineStart = true;
  let indent = 0;
  let onLine = 0;
  let scalar = false; // the token is a scalar's text (it follows the lexer's \u001f mark)
  let header = false; // a block scalar's header (`|`, `>-`…) is on this line: the next scalar is its body
  for (const token of new Lexer().lex(text)) {
    const at = offset;
    offset += token.length;
    if (token === '\u0002') continue;
    if (token === '\u001f') {
      scalar = true;
      continue;
    }
    if (scalar && header) {
      // A block scalar's body runs to the start of the next line, which is a line start like any other.
      [scalar, header, lineStart, indent] = [false, false, true, 0];
      continue;
    }
    if (!scalar && (token === '\n' || token === '\r\n')) {
      [lineStart, indent] = [true, 0];
    } else if (!scalar && lineStart && /^[ \t]+$/.test(token)) indent = token.length;
    else if (flow === 0 && (scalar || token[0] !== '#')) {
      if (lineStart) {
        while (indents.length > 0 && indents[indents.length - 1]! >= indent) indents.pop();
        indents.push(indent);
        [lineStart, onLine] = [false, 0];
      }
      if (!scalar && (token === '-' || token === '?' || token === ':')) onLine += 1;
      if (!scalar && (token[0] === '|' || token[0] === '>')) header = true;
      if (indents.length + onLine > MAX_BLOCK_DEPTH) return { offset: at, flow: false };
    }
    scalar = false;
    if (token === '[' || token === '{') {
      flow += 1;
      if (flow > MAX_FLOW_DEPTH) return { offset: at, flow: true };
    } else if ((token === ']' || token === '}') && flow > 0) flow -= 1;
  }
  return null;
}

function tooDeepAfterAll(): TooComplexError {
  return new TooComplexError(
    `its YAML nests deeper than Tended can follow. Real workflows and SBOMs nest about 10 levels; Tended reads YAML nested up to ${MAX_BLOCK_DEPTH} levels.`,
  );
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

/**
 * One walk of the document in `yaml`'s own order (a node before its children, a key before its
 * value, so an alias names the anchor `yaml` would give it): refuses a repeated key, and the
 * aliases past the bounds above, and returns the node each alias names. The size of each
 * anchored node, aliases inside it expanded, is the growth of a running count across its subtree.
 */
function survey(doc: Document, lines: LineCounter): Map<Alias, Node> {
  const targets = new Map<Alias, Node>();
  const anchors = new Map<string, Node>();
  /** Anchored nodes whose walk is finished, with their expanded sizes; the others are being walked. */
  const sizes = new Map<Node, number>();
  const lineOf = (node: Node) => (node.range ? lines.linePos(node.range[0]).line : 0);
  let written = 0;
  let expanded = 0;
  let anchored = 0;
  let largest: { alias: Alias; adds: number } | null = null;
  // A node to enter, or (after an anchored node's children) the count at its entry, to close it.
  const pending: unknown[] = [doc.contents];
  while (pending.length > 0) {
    const item = pending.pop();
    if (isClose(item)) {
      sizes.set(item.close, expanded - item.from);
      continue;
    }
    if (isPair(item)) {
      pending.push(item.value, item.key);
      continue;
    }
    if (!isNode(item)) continue;
    written += 1;
    if (isAlias(item)) {
      const target = anchors.get(item.source);
      if (target === undefined) {
        // `yaml` reads it as an error only when converting, which not every reader does.
        throw new InputError(
          `not readable YAML at line ${lineOf(item)}: the alias *${item.source.slice(0, 40)} names no anchor (&${item.source.slice(0, 40)}) before it`,
        );
      }
      const size = sizes.get(target);
      if (size === undefined) {
        throw new TooComplexError(
          `the YAML alias *${item.source.slice(0, 40)} (line ${lineOf(item)}) is inside the node it names, so following it never ends. Tended reads aliases of nodes that are complete before them.`,
        );
      }
      targets.set(item, target);
      if (targets.size > MAX_YAML_ALIASES) {
        throw new TooComplexError(
          `it holds more than ${COUNT} YAML aliases (*name; the one past the bound is at line ${lineOf(item)}). Real workflows and SBOMs use a few dozen; Tended reads up to ${COUNT}.`,
        );
      }
      expanded += size;
      if (largest === null || size > largest.adds) largest = { alias: item, adds: size };
      continue;
    }
    expanded += 1;
    if (item.anchor) {
      anchored += 1;
      if (anchored > MAX_YAML_ALIASES) {
        throw new TooComplexError(
          `it holds more than ${COUNT} YAML anchors (&name; the one past the bound is at line ${lineOf(item)}). Real workflows and SBOMs use a few dozen; Tended reads up to ${COUNT}.`,
        );
      }
      anchors.set(item.anchor, item);
      pending.push({ close: item, from: expanded - 1 });
    }
    if (isMap(item)) {
      const seen = new Set<string>();
      for (const pair of item.items) {
        if (isScalar(pair.key)) {
          const name = String(pair.key.value);
          if (seen.has(name)) {
            const line = lineOf(pair.key);
            throw new InputError(`not readable YAML${line ? ` at line ${line}` : ''}: map keys must be unique`);
          }
          seen.add(name);
        }
      }
    }
    if (isCollection(item)) for (let i = item.items.length - 1; i >= 0; i -= 1) pending.push(item.items[i]);
  }
  const added = expanded - written;
  if (largest !== null && added > Math.max(written, MIN_ALIAS_EXPANSION)) {
    throw new TooComplexError(
      `its YAML aliases add ${added.toLocaleString('en')} nodes to the ${written.toLocaleString('en')} it writes (*${largest.alias.source.slice(0, 40)} at line ${lineOf(largest.alias)} alone repeats ${largest.adds.toLocaleString('en')}). Tended reads YAML whose aliases add no more than the file writes itself, or ${MIN_ALIAS_EXPANSION.toLocaleString('en')} nodes.`,
    );
  }
  return targets;
}

function isClose(item: unknown): item is { close: Node; from: number } {
  return typeof item === 'object' && item !== null && 'close' in item;
}

function isNode(item: unknown): item is Node {
  return isAlias(item) || isScalar(item) || isCollection(item);
}
