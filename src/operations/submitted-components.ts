import type { ComponentRef } from '../domain/component.js';
import type { ComponentReference, ParseResult, SbomSubject, TreePlace, UnresolvedEntry } from '../parsers/reference.js';
import { excerpt } from '../domain/text.js';

/**
 * A parsed submission reduced to what its answer can hold: each component once, with how many
 * times it was named and the first few places, and the unresolved entries listed up to a bound and
 * counted past it. Made where the parse ran (the parse worker), so what crosses to the main thread
 * is bounded whatever the input: a requirements.txt naming one package on a million lines is one
 * component with a count, not a million references (issue 24: a 38.9 MB answer, +421 MB).
 */
export interface SubmittedComponents {
  format: ParseResult['format'];
  variant?: string;
  subject?: SbomSubject | null;
  /** In the order the submission first names them; at most MAX_RESULTS_PER_ANSWER. */
  components: SubmittedComponent[];
  /** References past the first MAX_RESULTS_PER_ANSWER components (a repeat among them counts again: a bound, not a census). */
  omitted: number;
  /** The first MAX_UNRESOLVED_LISTED unresolved entries, quoted (cut to MAX_QUOTED_CHARS). */
  unresolved: UnresolvedEntry[];
  /** Every unresolved entry, listed or not. */
  unresolvedCount: number;
  /** Present when some unresolved entries are counted but not listed: every one counted by reason (at most MAX_REASONS_COUNTED). */
  unresolvedByReason?: Record<string, number>;
}

export interface SubmittedComponent {
  ref: ComponentRef;
  /** The first MAX_LOCATIONS_LISTED places it is named, quoted. */
  locations: { input: string; location: string }[];
  /** Every place it is named, listed or not. */
  count: number;
  /** Where it sits in a resolved tree, its places merged (mergeTreePlace); absent when the file has no tree. */
  tree?: MergedTreePlace;
}

export interface MergedTreePlace extends TreePlace {
  /** Present when the file resolved it at more than one version: each (at most MAX_VERSIONS_LISTED), in the order first met. */
  resolvedVersions?: string[];
}

/** A package resolved at more versions than this lists the first ones. */
export const MAX_VERSIONS_LISTED = 20;

/**
 * An answer is bounded whatever the input (issue 14): a 4 MB SBOM of `[0,0,…]` is two million
 * unresolved entries, and listed whole it answered 230 MB. Real SBOMs stay far below these.
 */
export const MAX_RESULTS_PER_ANSWER = 10_000;
export const MAX_UNRESOLVED_LISTED = 1_000;
/** A component named more often than this lists its first places and counts the rest (locations_omitted). */
export const MAX_LOCATIONS_LISTED = 20;
const MAX_REASONS_COUNTED = 100;
/** Inputs, locations and reasons quoted back are cut to this many characters (the middle elided). */
const MAX_QUOTED_CHARS = 200;

/** `text` cut to MAX_QUOTED_CHARS with its middle elided: both ends say the most about where it was. */
export function quoted(text: string): string {
  return excerpt(text, MAX_QUOTED_CHARS, 'ends');
}

/** Merges a parse: duplicates become one component with a count, everything quoted and bounded. */
export function submittedComponents(parsed: ParseResult): SubmittedComponents {
  const merged = new Map<string, SubmittedComponent>();
  let omitted = 0;
  for (const reference of parsed.references) {
    const key = `${reference.ref.kind}:${reference.ref.id}`;
    const entry = merged.get(key);
    if (entry) {
      entry.count += 1;
      if (entry.locations.length < MAX_LOCATIONS_LISTED) entry.locations.push(place(reference));
      if (reference.tree) entry.tree = mergeTreePlace(entry.tree, reference.tree);
    } else if (merged.size < MAX_RESULTS_PER_ANSWER) {
      // A plain copy of the ref: a parser's object may carry more than kind and id.
      merged.set(key, {
        ref: { kind: reference.ref.kind, id: reference.ref.id },
        locations: [place(reference)],
        count: 1,
        ...(reference.tree ? { tree: mergeTreePlace(undefined, reference.tree) } : {}),
      });
    } else omitted += 1;
  }
  return {
    format: parsed.format,
    ...(parsed.variant ? { variant: parsed.variant } : {}),
    ...(parsed.subject !== undefined ? { subject: parsed.subject } : {}),
    components: [...merged.values()],
    omitted,
    ...boundedUnresolved(parsed),
  };
}

/**
 * One package met at several places of a tree (two versions, or named by two workspaces): direct
 * if any place is, dev or optional only if every place is, the shortest path of them all, and
 * each version resolved.
 */
export function mergeTreePlace(held: MergedTreePlace | undefined, next: TreePlace): MergedTreePlace {
  if (!held) return { ...next, ...(next.via ? { via: next.via.map(quoted) } : {}) };
  const merged: MergedTreePlace = { ...held };
  if (next.resolvedVersion !== undefined) {
    if (merged.resolvedVersion === undefined) merged.resolvedVersion = next.resolvedVersion;
    else if (next.resolvedVersion !== merged.resolvedVersion) {
      const versions = merged.resolvedVersions ?? [merged.resolvedVersion];
      if (!versions.includes(next.resolvedVersion) && versions.length < MAX_VERSIONS_LISTED)
        merged.resolvedVersions = [...versions, next.resolvedVersion];
    }
  }
  if (next.scope === 'direct' || merged.scope === undefined) {
    if (next.scope !== undefined) merged.scope = next.scope;
  }
  if (!next.dev) delete merged.dev;
  if (!next.optional) delete merged.optional;
  if (next.via && (!merged.via || pathLength(next) < pathLength(merged))) {
    merged.via = next.via.map(quoted);
    if (next.viaElided !== undefined) merged.viaElided = next.viaElided;
    else delete merged.viaElided;
    if (next.viaUnresolved !== undefined) merged.viaUnresolved = next.viaUnresolved;
    else delete merged.viaUnresolved;
  }
  return merged;
}

const pathLength = (place: TreePlace) => (place.via?.length ?? Infinity) + (place.viaElided ?? 0);

function place(reference: ComponentReference): { input: string; location: string } {
  return { input: quoted(reference.input), location: quoted(reference.location) };
}

function boundedUnresolved(
  parsed: ParseResult,
): Pick<SubmittedComponents, 'unresolved' | 'unresolvedCount' | 'unresolvedByReason'> {
  const all = parsed.unresolved;
  const unresolved = all.slice(0, MAX_UNRESOLVED_LISTED).map((u) => ({
    input: quoted(u.input),
    location: quoted(u.location),
    reason: quoted(u.reason),
  }));
  const unresolvedCount = all.length + (parsed.unlisted?.count ?? 0);
  if (unresolvedCount === unresolved.length) return { unresolved, unresolvedCount };
  const byReason: Record<string, number> = {};
  let reasons = 0;
  const count = (reason: string, n: number) => {
    const key = quoted(reason);
    if (byReason[key] === undefined) {
      if (reasons === MAX_REASONS_COUNTED) return;
      reasons += 1;
      byReason[key] = 0;
    }
    byReason[key] += n;
  };
  for (const u of all) count(u.reason, 1);
  for (const [reason, n] of parsed.unlisted?.byReason ?? []) count(reason, n);
  return { unresolved, unresolvedCount, unresolvedByReason: byReason };
}
