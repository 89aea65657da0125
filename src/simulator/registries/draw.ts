/**
 * Deterministic draws for the generated registries: every fact of package i (or of feed event k)
 * is a pure function of (seed, i, salt), so a registry of millions of packages is answered without
 * holding anything per package, and the same seed answers the same on every run and every process.
 */

/** murmur3's 32-bit finaliser: spreads every input bit over the output. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A uniform draw in [0, 1) for (seed, a, b, salt); a and b may be any safe integers. */
export function draw(seed: number, a: number, b: number, salt: number): number {
  let h = fmix((seed ^ Math.imul(salt, 0x9e3779b1)) >>> 0);
  for (const n of [a, b]) {
    // Both 32-bit halves, so indices past 2^32 (seq numbers, leaf positions) still differ.
    h = fmix((h ^ (n >>> 0)) >>> 0);
    h = fmix((h ^ Math.floor(n / 4294967296)) >>> 0);
  }
  return h / 4294967296;
}

/** A draw as an integer in [0, n). */
export function drawInt(seed: number, a: number, b: number, salt: number, n: number): number {
  return Math.floor(draw(seed, a, b, salt) * n);
}

/** A short lower-case hex digest for (seed, a, b, salt): revisions, checksums. */
export function drawHex(seed: number, a: number, b: number, salt: number, length: number): string {
  let out = '';
  for (let i = 0; out.length < length; i++)
    out += drawInt(seed, a, b, salt * 31 + i, 4294967296)
      .toString(16)
      .padStart(8, '0');
  return out.slice(0, length);
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/** Below this, (a · b) for a, b < n stays under 2^53 and plain numbers are exact. */
const EXACT_BELOW = 94_906_265;

/** (a · b) mod n, exact for any n a registry reaches. */
function mulMod(a: number, b: number, n: number): number {
  return n < EXACT_BELOW ? (a * b) % n : Number((BigInt(a) * BigInt(b)) % BigInt(n));
}

function inverseMod(a: number, n: number): number {
  let [t, newT, r, newR] = [0n, 1n, BigInt(n), BigInt(a)];
  while (newR !== 0n) {
    const q = r / newR;
    [t, newT] = [newT, t - q * newT];
    [r, newR] = [newR, r - q * newR];
  }
  return Number(((t % BigInt(n)) + BigInt(n)) % BigInt(n));
}

/**
 * x ↦ (m·x + c) mod n with gcd(m, n) = 1: a bijection of [0, n) that is cheap both ways, which is
 * what lets an event name its package and a package find its events without a table.
 */
export class AffinePermutation {
  private readonly mInverse: number;
  private constructor(
    readonly n: number,
    private readonly m: number,
    private readonly c: number,
  ) {
    this.mInverse = n <= 1 ? 0 : inverseMod(m, n);
  }

  /** A permutation of [0, n) drawn from (seed, salt). */
  static drawn(n: number, seed: number, salt: number): AffinePermutation {
    if (n <= 1) return new AffinePermutation(Math.max(1, n), 0, 0);
    let m = 1 + drawInt(seed, n, 0, salt, n - 1);
    while (gcd(m, n) !== 1) m++;
    return new AffinePermutation(n, m % n, drawInt(seed, n, 0, salt + 1, n));
  }

  /** The same multiplier with another offset: one cheap permutation per round. */
  shifted(c: number): AffinePermutation {
    return new AffinePermutation(this.n, this.m, ((c % this.n) + this.n) % this.n);
  }

  forward(x: number): number {
    return this.n <= 1 ? 0 : (mulMod(this.m, x, this.n) + this.c) % this.n;
  }

  backward(y: number): number {
    return this.n <= 1 ? 0 : mulMod(this.mInverse, (y - this.c + this.n) % this.n, this.n);
  }
}
