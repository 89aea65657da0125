/**
 * Maven version order, after Maven's ComparableVersion in its common cases: items split at "."
 * and "-" and where digits meet letters; numbers compare as numbers; the known qualifiers rank
 * alpha < beta < milestone < rc < snapshot < (release) < sp; other words rank after them, by
 * name. Central's `<release>` and the order of `<versions>` are not trustworthy (research
 * upstreams-more §1.3), so the reader picks the highest release itself.
 */

const QUALIFIER_RANK: Record<string, number> = {
  alpha: 0,
  a: 0,
  beta: 1,
  b: 1,
  milestone: 2,
  m: 2,
  rc: 3,
  cr: 3,
  snapshot: 4,
  '': 5,
  ga: 5,
  final: 5,
  release: 5,
  sp: 6,
};
const UNKNOWN_RANK = 7;

// A pre-release qualifier: such a version is never "the latest release".
const PRE_RELEASE = /(?:^|[.-])(?:alpha|beta|milestone|rc|cr|snapshot|preview|ea|dev)|(?:^|[.-])[abm]\d/i;

type Item = number | string;

function items(version: string): Item[] {
  const out: Item[] = [];
  for (const part of version.toLowerCase().split(/[.-]/)) {
    // Where digits meet letters is a separator too: 1.0alpha1 → 1, 0, alpha, 1.
    for (const piece of part.match(/\d+|\D+/g) ?? ['']) out.push(/^\d+$/.test(piece) ? Number(piece) : piece);
  }
  return out;
}

function rank(word: string): number {
  return QUALIFIER_RANK[word] ?? UNKNOWN_RANK;
}

function compareItem(a: Item | undefined, b: Item | undefined): number {
  // A missing item is a 0 against a number and a release against a word: 1.0 = 1.0.0, 1.0 > 1.0-rc1.
  const x = a ?? (typeof b === 'number' ? 0 : '');
  const y = b ?? (typeof a === 'number' ? 0 : '');
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  // A number outranks any word: 1.0.1 > 1.0-sp.
  if (typeof x === 'number') return 1;
  if (typeof y === 'number') return -1;
  const r = rank(x) - rank(y);
  return r !== 0 ? r : x < y ? -1 : x > y ? 1 : 0;
}

export function compareMavenVersions(a: string, b: string): number {
  const x = items(a);
  const y = items(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const c = compareItem(x[i], y[i]);
    if (c !== 0) return c;
  }
  return 0;
}

export function isMavenRelease(version: string): boolean {
  return !PRE_RELEASE.test(version);
}

/** The highest release among `versions`, or null when every one is a pre-release. */
export function highestRelease(versions: readonly string[]): string | null {
  let best: string | null = null;
  for (const v of versions) if (isMavenRelease(v) && (best === null || compareMavenVersions(v, best) > 0)) best = v;
  return best;
}
