/**
 * pnpm-lock.yaml read fast: pnpm writes block YAML with one-line flow values (`resolution:
 * {integrity: …}`, `engines: {node: …}`, `os: [linux]`). `yaml` reads a 200 KB lockfile in about
 * a second on a busy machine (a node per scalar, and a concrete syntax tree first), so a 100,000
 * package lockfile would take minutes; yaml-block.ts reads block YAML from `yaml`'s lexer at a
 * tenth of the cost, but no flow collection with content. So each line whose value is a one-line
 * flow collection has that value quoted first (a line-by-line pass, linear), and the few values
 * read here (`resolution`) are read back with `yaml` one short string at a time. Anything
 * yaml-block refuses is read with `yaml` after all (readYaml: bounded depth and aliases).
 */
import { parse } from 'yaml';
import { readBlockYaml } from '../yaml-block.js';
import { readYaml } from '../yaml-document.js';

export function readPnpmLock(text: string): unknown {
  const block = readBlockYaml(quoteFlowValues(text));
  if ('value' in block) return block.value;
  return readYaml(text).doc.toJS({ maxAliasCount: -1 });
}

/** `  key: {a: b}` → `  key: '{a: b}'` for a flow value opened and closed on its line. */
function quoteFlowValues(text: string): string {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    const end = line.endsWith('\r') ? line.length - 1 : line.length;
    const last = line[end - 1];
    if (last !== '}' && last !== ']') continue;
    const colon = line.indexOf(': ');
    if (colon < 0) continue;
    let open = colon + 2;
    while (line[open] === ' ') open += 1;
    const first = line[open];
    if ((first !== '{' || last !== '}') && (first !== '[' || last !== ']')) continue;
    if (open + 1 === end - 1 || line.lastIndexOf('#', end) > open) continue; // `{}`, `[]`, or a comment: leave to the reader
    lines[i] = `${line.slice(0, open)}'${line.slice(open, end).replaceAll("'", "''")}'${line.slice(end)}`;
  }
  return lines.join('\n');
}

/** A value quoted by quoteFlowValues, read back: `'{tarball: https://…}'` → `{ tarball: … }`. */
export function flowValue(value: unknown): unknown {
  if (typeof value !== 'string' || (value[0] !== '{' && value[0] !== '[')) return value;
  try {
    return parse(value.slice(0, 10_000), { maxAliasCount: 0 }) as unknown;
  } catch {
    return undefined;
  }
}
