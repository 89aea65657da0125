/**
 * Go's version order (golang.org/x/mod/semver): `vMAJOR[.MINOR[.PATCH]][-pre][+build]`, build
 * metadata (`+incompatible`) ignored, a pre-release (pseudo-versions are ones) below its release.
 * Linear in the two strings; a version that is not semver sorts below every one that is.
 */
interface Parsed {
  nums: [string, string, string];
  pre: string;
}

const SEMVER = /^v(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

function parse(v: string): Parsed | null {
  const m = SEMVER.exec(v);
  if (!m) return null;
  return { nums: [m[1]!, m[2] ?? '0', m[3] ?? '0'], pre: m[4] ?? '' };
}

/** Compares decimal strings without leading-zero surprises or number overflow. */
function compareNumeric(a: string, b: string): number {
  const x = a.replace(/^0+(?=\d)/, '');
  const y = b.replace(/^0+(?=\d)/, '');
  if (x.length !== y.length) return x.length - y.length;
  return x < y ? -1 : x > y ? 1 : 0;
}

function comparePre(a: string, b: string): number {
  if (a === b) return 0;
  if (a === '') return 1;
  if (b === '') return -1;
  const xs = a.split('.');
  const ys = b.split('.');
  for (let i = 0; i < Math.min(xs.length, ys.length); i += 1) {
    const x = xs[i]!;
    const y = ys[i]!;
    if (x === y) continue;
    const xn = /^\d+$/.test(x);
    const yn = /^\d+$/.test(y);
    if (xn && yn) return compareNumeric(x, y);
    if (xn) return -1;
    if (yn) return 1;
    return x < y ? -1 : 1;
  }
  return xs.length - ys.length;
}

/** Negative when a sorts before b, positive after, 0 when equal in Go's order. */
export function compareGoVersions(a: string, b: string): number {
  const x = parse(a);
  const y = parse(b);
  if (!x || !y) return x ? 1 : y ? -1 : 0;
  for (let i = 0; i < 3; i += 1) {
    const c = compareNumeric(x.nums[i]!, y.nums[i]!);
    if (c !== 0) return c;
  }
  return comparePre(x.pre, y.pre);
}
