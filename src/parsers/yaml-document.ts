/**
 * YAML read in time linear in its size, for the workflow and SPDX YAML parsers.
 * - `yaml`'s own duplicate-key check compares each key with every earlier key of its mapping:
 *   a mapping of 30,000 distinct keys took seconds. It is turned off, and duplicates are found
 *   here with one set per mapping.
 * - Flow collections nested thousands deep (`[[[[…`) exhaust the stack of `yaml`'s composer after
 *   seconds of work; a pass over the brackets first refuses them at once.
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

/** Deeper than any real workflow or SBOM nests its `[ ]` and `{ }`. */
export const MAX_FLOW_DEPTH = 64;
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
  return { doc, lines, targets: survey(doc, lines) };
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
