import { readFileSync, readdirSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMPTY_ROOT, leafHash, nodeHash, toHex, type Hash } from './hash.js';
import {
  CompactRange,
  assembleProof,
  consistencyProof,
  consistencyProofCoords,
  foldCover,
  inclusionProof,
  inclusionProofCoords,
  merkleTreeHash,
  nodesCompletedByAppend,
  perfectCover,
  rootCoords,
  verifyConsistency,
  verifyInclusion,
  type NodeCoord,
} from './merkle.js';

const VECTORS = new URL('../../test/vectors/merkle/', import.meta.url);
const constants = JSON.parse(readFileSync(new URL('constants.json', VECTORS), 'utf8')) as {
  leafInputsHex: string[];
  nodeHashesHex: string[][];
  rootHashesHex: string[];
  compactTrees: [number, number][][];
  hasher: { desc: string; kind: string; inputUtf8?: string; leftUtf8?: string; rightUtf8?: string; wantHex: string }[];
};
const hex = (h: Uint8Array) => toHex(h);
const b64 = (s: string) => new Uint8Array(Buffer.from(s, 'base64'));

/** Every perfect-subtree hash of a list of leaf hashes, as storage keeps them. */
function nodeStore(leaves: Hash[]): (c: NodeCoord) => Hash {
  const levels: Hash[][] = [leaves];
  while (levels[levels.length - 1]!.length > 1) {
    const below = levels[levels.length - 1]!;
    const up: Hash[] = [];
    for (let i = 0; i + 1 < below.length; i += 2) up.push(nodeHash(below[i]!, below[i + 1]!));
    levels.push(up);
  }
  return ({ level, index }) => {
    const h = levels[level]?.[index];
    if (!h) throw new Error(`no stored node ${level}/${index}`);
    return h;
  };
}

const referenceLeaves = constants.leafInputsHex.map((h) => leafHash(Buffer.from(h, 'hex')));
const leavesOf = (n: number) => Array.from({ length: n }, (_, i) => leafHash(Buffer.from(`leaf ${i}`)));

describe('transparency-dev/merkle constants', () => {
  it('hasher values from rfc6962_test.go', () => {
    for (const v of constants.hasher) {
      const got =
        v.kind === 'empty'
          ? EMPTY_ROOT
          : v.kind === 'leaf'
            ? leafHash(Buffer.from(v.inputUtf8!, 'utf8'))
            : nodeHash(Buffer.from(v.leftUtf8!, 'utf8'), Buffer.from(v.rightUtf8!, 'utf8'));
      expect(hex(got), v.desc).toBe(v.wantHex);
    }
  });

  it('roots for sizes 0–8 (reference and streaming)', () => {
    const cr = new CompactRange();
    constants.rootHashesHex.forEach((want, size) => {
      expect(hex(merkleTreeHash(referenceLeaves.slice(0, size)))).toBe(want);
      expect(hex(cr.root())).toBe(want);
      if (size < referenceLeaves.length) cr.append(referenceLeaves[size]!);
    });
  });

  it('every node hash, and the compact trees', () => {
    const lookup = nodeStore(referenceLeaves);
    constants.nodeHashesHex.forEach((level, l) =>
      level.forEach((want, i) => expect(hex(lookup({ level: l, index: i }))).toBe(want)),
    );
    const cr = new CompactRange();
    constants.compactTrees.forEach((nodes, size) => {
      expect(rootCoords(size).map((c) => [c.level, c.index])).toEqual(nodes);
      expect(cr.rightEdge().map(hex)).toEqual(nodes.map(([l, i]) => constants.nodeHashesHex[l]![i]));
      if (size < referenceLeaves.length) cr.push(referenceLeaves[size]!);
    });
  });
});

function probes(kind: 'inclusion' | 'consistency'): { file: string; probe: Record<string, unknown> }[] {
  const dir = new URL(`testdata/${kind}/`, VECTORS);
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ file, probe: JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as Record<string, unknown> }));
}

describe('transparency-dev/merkle testdata probes', () => {
  const inclusion = probes('inclusion');
  const consistency = probes('consistency');

  it('has the full probe sets', () => {
    expect(inclusion.length).toBe(98);
    expect(consistency.length).toBe(102);
  });

  it.each(inclusion)('inclusion $file', ({ probe }) => {
    const index = (probe.leafIndex ?? probe.leafIdx) as number;
    const proof = ((probe.proof as string[] | null) ?? []).map(b64);
    const ok = verifyInclusion(
      b64(probe.leafHash as string),
      index,
      probe.treeSize as number,
      proof,
      b64(probe.root as string),
    );
    expect(ok).toBe(!probe.wantErr);
  });

  it.each(consistency)('consistency $file', ({ probe }) => {
    const proof = ((probe.proof as string[] | null) ?? []).map(b64);
    const ok = verifyConsistency(
      probe.size1 as number,
      probe.size2 as number,
      proof,
      b64(probe.root1 as string),
      b64(probe.root2 as string),
    );
    expect(ok).toBe(!probe.wantErr);
  });

  it('coordinate-built proofs reproduce every happy-path proof over the reference leaves', () => {
    const lookup = nodeStore(referenceLeaves);
    for (const { probe } of inclusion.filter(({ file }) => /^\d\/happy-path/.test(file))) {
      const index = (probe.leafIndex ?? probe.leafIdx) as number;
      const built = assembleProof(inclusionProofCoords(index, probe.treeSize as number), lookup);
      expect(built.map(hex)).toEqual(((probe.proof as string[] | null) ?? []).map((s) => hex(b64(s))));
    }
    for (const { probe } of consistency.filter(({ file }) => /^\d\/happy-path/.test(file))) {
      const built = assembleProof(consistencyProofCoords(probe.size1 as number, probe.size2 as number), lookup);
      expect(built.map(hex)).toEqual(((probe.proof as string[] | null) ?? []).map((s) => hex(b64(s))));
    }
  });
});

describe('coordinates', () => {
  it('nodesCompletedByAppend', () => {
    expect(nodesCompletedByAppend(0)).toEqual([]);
    expect(nodesCompletedByAppend(1)).toEqual([{ level: 1, index: 0 }]);
    expect(nodesCompletedByAppend(6)).toEqual([]);
    expect(nodesCompletedByAppend(7)).toEqual([
      { level: 1, index: 3 },
      { level: 2, index: 1 },
      { level: 3, index: 0 },
    ]);
    expect(nodesCompletedByAppend(2 ** 40 - 1).length).toBe(40);
  });

  it('perfectCover and rootCoords', () => {
    expect(rootCoords(0)).toEqual([]);
    expect(rootCoords(13)).toEqual([
      { level: 3, index: 0 },
      { level: 2, index: 2 },
      { level: 0, index: 12 },
    ]);
    expect(perfectCover(4, 7)).toEqual([
      { level: 1, index: 2 },
      { level: 0, index: 6 },
    ]);
    // Past 2^32 the coordinates are still exact (no 32-bit bit operators).
    expect(rootCoords(2 ** 33 + 3)).toEqual([
      { level: 33, index: 0 },
      { level: 1, index: 2 ** 32 },
      { level: 0, index: 2 ** 33 + 2 },
    ]);
    expect(() => perfectCover(1, 4)).toThrow(RangeError);
    expect(() => perfectCover(5, 4)).toThrow(RangeError);
    expect(() => perfectCover(-1, 4)).toThrow(RangeError);
  });

  it('foldCover edge cases', () => {
    expect(hex(foldCover([]))).toBe(hex(EMPTY_ROOT));
    const [a] = leavesOf(1);
    expect(foldCover([a!])).toBe(a);
  });

  it('rejects bad proof arguments; consistency from 0 is refused (transparency-dev/merkle #236)', () => {
    expect(() => inclusionProofCoords(5, 5)).toThrow(RangeError);
    expect(() => inclusionProofCoords(0, 0)).toThrow(RangeError);
    expect(() => inclusionProofCoords(-1, 3)).toThrow(RangeError);
    expect(() => inclusionProofCoords(1.5, 3)).toThrow(RangeError);
    expect(() => consistencyProofCoords(0, 5)).toThrow(RangeError);
    expect(() => consistencyProofCoords(0, 0)).toThrow(RangeError);
    expect(() => consistencyProofCoords(6, 5)).toThrow(RangeError);
    expect(consistencyProofCoords(5, 5)).toEqual([]);
    expect(() => consistencyProof(leavesOf(4), 0, 4)).toThrow(RangeError);
    expect(() => inclusionProof(leavesOf(4), 0, 5)).toThrow(RangeError);
  });

  it('verifiers never throw on garbage', () => {
    const [leaf, root] = leavesOf(2) as [Hash, Hash];
    const junk: unknown[] = [null, undefined, 'x', [null], [new Uint8Array(3)], {}, [leaf, 7]];
    for (const j of junk) {
      expect(verifyInclusion(leaf, 0, 2, j as Hash[], root)).toBe(false);
      expect(verifyConsistency(1, 2, j as Hash[], leaf, root)).toBe(false);
    }
    expect(verifyInclusion(null as unknown as Hash, 0, 1, [], root)).toBe(false);
    expect(verifyInclusion(leaf, Number.NaN, 1, [], leaf)).toBe(false);
    expect(verifyConsistency(1, Infinity, [leaf], leaf, root)).toBe(false);
  });
});

describe('properties (sizes up to 300)', () => {
  const maxSize = 300;
  const leaves = leavesOf(maxSize);
  const lookup = nodeStore(leaves);

  it('CompactRange roots, right edges and completed nodes match the reference', () => {
    const cr = new CompactRange();
    for (let size = 0; size <= maxSize; size++) {
      expect(hex(cr.root())).toBe(hex(merkleTreeHash(leaves.slice(0, size))));
      expect(cr.rightEdge().map(hex)).toEqual(rootCoords(size).map((c) => hex(lookup(c))));
      if (size === maxSize) break;
      const { completed } = cr.append(leaves[size]!);
      expect(completed.map((c) => c.coord)).toEqual([{ level: 0, index: size }, ...nodesCompletedByAppend(size)]);
      for (const c of completed) expect(hex(c.hash)).toBe(hex(lookup(c.coord)));
    }
  });

  it('a CompactRange restored from (size, rightEdge) continues identically', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: maxSize - 1 }), fc.integer({ min: 1, max: 40 }), (size, more) => {
        const a = new CompactRange();
        leaves.slice(0, size).forEach((l) => a.push(l));
        const b = new CompactRange(size, a.rightEdge());
        for (const l of leaves.slice(size, Math.min(maxSize, size + more))) {
          a.push(l);
          b.append(l);
        }
        expect(hex(b.root())).toBe(hex(a.root()));
        expect(b.size).toBe(a.size);
      }),
    );
    expect(() => new CompactRange(3, [leaves[0]!])).toThrow(RangeError);
  });

  it('pushLeaf(bytes) equals push(leafHash(bytes)), and outputs are copies', () => {
    const a = new CompactRange();
    const b = new CompactRange();
    for (let i = 0; i < 37; i++) {
      a.pushLeaf(Buffer.from(`leaf ${i}`));
      b.push(leaves[i]!);
      expect(hex(a.root())).toBe(hex(b.root()));
    }
    const one = new CompactRange();
    one.pushLeaf(Buffer.from('leaf 0'));
    const r = one.root();
    r[0] = r[0]! ^ 0xff;
    expect(hex(one.root())).toBe(hex(leaves[0]!));
    const edge = a.rightEdge();
    edge[0]![0] = edge[0]![0]! ^ 0xff;
    expect(hex(a.root())).toBe(hex(b.root()));
    expect(Buffer.isBuffer(a.root()) || Buffer.isBuffer(a.rightEdge()[0])).toBe(false);
  });

  it('inclusion: coordinate proofs equal the RFC recursion, verify, and fail when tampered', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: maxSize })
          .chain((size) => fc.tuple(fc.constant(size), fc.nat({ max: size - 1 }), fc.nat(), fc.nat(255))),
        ([size, index, pick, bit]) => {
          const root = merkleTreeHash(leaves.slice(0, size));
          const proof = assembleProof(inclusionProofCoords(index, size), lookup);
          expect(proof.map(hex)).toEqual(inclusionProof(leaves, index, size).map(hex));
          expect(verifyInclusion(leaves[index]!, index, size, proof, root)).toBe(true);
          if (size > 1) expect(verifyInclusion(leaves[index]!, (index + 1) % size, size, proof, root)).toBe(false);
          if (proof.length > 0) {
            const bad = proof.map((h) => h.slice());
            const el = bad[pick % bad.length]!;
            el[bit % 32] = el[bit % 32]! ^ (1 << (bit % 8));
            expect(verifyInclusion(leaves[index]!, index, size, bad, root)).toBe(false);
            expect(verifyInclusion(leaves[index]!, index, size, proof.slice(1), root)).toBe(false);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('consistency: coordinate proofs equal the RFC recursion, verify, and fail when tampered', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: maxSize })
          .chain((to) => fc.tuple(fc.integer({ min: 1, max: to }), fc.constant(to), fc.nat(), fc.nat(255))),
        ([from, to, pick, bit]) => {
          const fromRoot = merkleTreeHash(leaves.slice(0, from));
          const toRoot = merkleTreeHash(leaves.slice(0, to));
          const proof = assembleProof(consistencyProofCoords(from, to), lookup);
          expect(proof.map(hex)).toEqual(consistencyProof(leaves, from, to).map(hex));
          expect(verifyConsistency(from, to, proof, fromRoot, toRoot)).toBe(true);
          if (proof.length > 0) {
            const bad = proof.map((h) => h.slice());
            const el = bad[pick % bad.length]!;
            el[bit % 32] = el[bit % 32]! ^ (1 << (bit % 8));
            expect(verifyConsistency(from, to, bad, fromRoot, toRoot)).toBe(false);
            expect(verifyConsistency(from, to, proof, toRoot, fromRoot)).toBe(false);
            // (A wrong `to` is not always detectable from hashes alone: sizes are authenticated by
            // the signed checkpoint, not by the proof.)
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
