/**
 * The resolved tree in the CLI's reports (DESIGN §8d): each result's version, whether the project
 * names it (direct) or only another package does (transitive), and one path from a direct
 * dependency down to it, in the same words in the table, the Markdown comment, SARIF and the Action.
 */
import type { CheckAnswer, ComponentCheck } from './check-components.js';

/** The names of a path are written from the direct dependency down: `express → body-parser → qs`. */
const STEP = ' → ';

/**
 * Whether any result says more of the tree than "the project names it": only then do the reports
 * add its columns (a requirements.txt, all direct, keeps the table it always had).
 */
export function answerHasTree(answer: CheckAnswer): boolean {
  return answer.results.some(
    (r) => (r.scope !== undefined && r.scope !== 'direct') || r.resolved_version !== undefined || r.dev || r.optional,
  );
}

export function answerHasVersions(answer: CheckAnswer): boolean {
  return answer.results.some((r) => r.resolved_version !== undefined);
}

/** `4.18.2`, or `7.2.3, 8.1.0` when the file resolved several; '' when it names none. */
export function versionInWords(r: ComponentCheck): string {
  if (r.resolved_versions && r.resolved_versions.length > 1) return r.resolved_versions.join(', ');
  return r.resolved_version ?? '';
}

/** `direct`, `transitive, dev`, `direct, optional`; '' when the file does not say. */
export function scopeInWords(r: ComponentCheck): string {
  if (r.scope === undefined) return '';
  return [r.scope, ...(r.dev ? ['dev'] : []), ...(r.optional ? ['optional'] : [])].join(', ');
}

/**
 * `via express → body-parser` for a transitive result (the path ends at its parent), with the
 * names a long path left out counted where they were, and the entry it runs through that names no
 * component; '' for a direct one or when the file gives no path.
 */
export function pathInWords(r: ComponentCheck): string {
  const via = r.via ?? [];
  if (via.length === 0) return r.via_unresolved ? `via ${r.via_unresolved} (not a component Tended reads)` : '';
  const names = [...via];
  if (r.via_elided !== undefined && r.via_elided > 0)
    names.splice(Math.ceil(names.length / 2), 0, `… ${r.via_elided.toLocaleString('en')} more …`);
  const through = r.via_unresolved ? ` (through ${r.via_unresolved}, not a component Tended reads)` : '';
  return `via ${names.join(STEP)}${through}`;
}

/** Scope and path in one phrase, for a sentence: `transitive, dev, via glob → inflight`. */
export function placeInWords(r: ComponentCheck): string {
  return [scopeInWords(r), pathInWords(r)].filter((s) => s !== '').join(', ');
}

/**
 * What `--scope direct` gates on: a result the file calls direct, or one whose file does not say
 * (a manifest without a graph names what the project uses, so it counts as direct).
 */
export function countsAsDirect(r: ComponentCheck): boolean {
  return r.scope !== 'transitive';
}
