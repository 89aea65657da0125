/**
 * Which components a policy exception names (docs/cli.md "The policy file"): a package URL
 * (`pkg:npm/left-pad`), a component (`npm:left-pad`), or a component pattern whose `*` stands for
 * any run of characters (`npm:@acme/*`, `github:acme/*`). Never a regular expression: a pattern is
 * matched by finding its literal pieces in order, each at its first place, which takes time linear
 * in the name for each piece and cannot backtrack.
 */
import { componentFromPurl } from '../domain/purl-component.js';
import { COMPONENT_KINDS, isComponentKind, normaliseComponent } from '../domain/component.js';
import { ValidationError } from '../domain/errors.js';

export interface ComponentPattern {
  /** As the policy wrote it, for every sentence that names the exception. */
  written: string;
  kind: string;
  /** The component's id when the pattern has no `*`: matched exactly. */
  id?: string;
  /** The pattern's pieces between its `*`s, lower-cased: matched without regard to case. */
  pieces?: string[];
}

/** The pattern `written` is, or the sentence saying why it is none. */
export function componentPattern(written: string): ComponentPattern | string {
  const text = written.trim();
  if (text.startsWith('pkg:')) {
    if (text.includes('*'))
      return `a package URL names one component, without *; write a pattern as kind:name, e.g. npm:@acme/*`;
    try {
      const ref = componentFromPurl(text);
      return { written: text, kind: ref.kind, id: ref.id };
    } catch (error) {
      if (error instanceof ValidationError) return error.issues[0]?.msg ?? 'not a package URL Tended reads';
      throw error;
    }
  }
  const colon = text.indexOf(':');
  const kind = colon < 0 ? '' : text.slice(0, colon).toLowerCase();
  const name = colon < 0 ? '' : text.slice(colon + 1).trim();
  if (!isComponentKind(kind) || name === '')
    return `a component is a package URL (pkg:npm/left-pad) or kind:name, where kind is one of ${COMPONENT_KINDS.join(', ')} and name may hold * for any run of characters (npm:@acme/*)`;
  if (name.includes('*')) return { written: text, kind, pieces: name.toLowerCase().split('*') };
  try {
    return { written: text, kind, id: normaliseComponent(kind, name).id };
  } catch (error) {
    if (error instanceof ValidationError) return error.issues[0]?.msg ?? `not a ${kind} name`;
    throw error;
  }
}

/** Whether the component `kind:id` is one the pattern names. */
export function patternMatches(pattern: ComponentPattern, kind: string, id: string): boolean {
  if (pattern.kind !== kind) return false;
  if (pattern.id !== undefined) return pattern.id === id;
  return piecesMatch(pattern.pieces!, id.toLowerCase());
}

/**
 * `pieces` are what lies between the `*`s: the first must start the name, the last must end it,
 * and the ones between must follow in order. Taking each at its first place is never wrong for
 * `*`-only globs (a later place leaves less room for the rest), so nothing is ever retried.
 */
function piecesMatch(pieces: string[], name: string): boolean {
  if (pieces.length === 1) return name === pieces[0];
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  if (name.length < first.length + last.length || !name.startsWith(first) || !name.endsWith(last)) return false;
  let at = first.length;
  const end = name.length - last.length;
  for (const piece of pieces.slice(1, -1)) {
    const found = name.indexOf(piece, at);
    if (found < 0 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}
