import { createHash, generateKeyPairSync } from 'node:crypto';
import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { leafHash } from './hash.js';
import { HeadChainError, isHeadTimestamp, sealHead, verifyHeadChain, type HeadBlock } from './head.js';
import { CompactRange } from './merkle.js';
import { noteSigner, noteVerifier } from './note.js';

const ORIGIN = 'tended.example/observations/v1';
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const signer = noteSigner(ORIGIN, privateKey);
const verifier = noteVerifier(ORIGIN, publicKey);

function chain(sizes: number[]): HeadBlock[] {
  const cr = new CompactRange();
  const heads: HeadBlock[] = [];
  sizes.forEach((size, i) => {
    while (cr.size < size) cr.push(leafHash(Buffer.from(`obs ${cr.size}`)));
    const timestamp = new Date(Date.UTC(2026, 6, 1, 12, 0, i)).toISOString().replace('.000Z', 'Z');
    heads.push(
      sealHead(
        { tree_size: size, root: cr.root(), timestamp, prev_head_hash: heads.at(-1)?.head_hash ?? null },
        ORIGIN,
        signer,
      ),
    );
  });
  return heads;
}

describe('sealHead', () => {
  it('head_hash is the SHA-256 of the JCS of the other five fields', () => {
    const [head] = chain([3]);
    const { head_hash, ...rest } = head!;
    expect(head_hash).toBe(createHash('sha256').update(canonicalize(rest)!).digest('hex'));
    expect(head!.prev_head_hash).toBeNull();
    expect(head!.checkpoint.startsWith(`${ORIGIN}\n3\n${head!.root_hash}\n\n`)).toBe(true);
  });

  it('validates its input', () => {
    const root = leafHash(Buffer.from('x'));
    const ok = { tree_size: 1, root, timestamp: '2026-07-01T12:00:00Z', prev_head_hash: null };
    expect(() => sealHead(ok, ORIGIN, signer)).not.toThrow();
    for (const timestamp of [
      '2026-07-01T12:00:00.000Z',
      '2026-07-01T12:00:00+00:00',
      '2026-02-30T12:00:00Z',
      '2026-07-01 12:00:00Z',
    ]) {
      expect(() => sealHead({ ...ok, timestamp }, ORIGIN, signer), timestamp).toThrow(HeadChainError);
    }
    expect(() => sealHead({ ...ok, prev_head_hash: 'ABC' }, ORIGIN, signer)).toThrow(HeadChainError);
    expect(() => sealHead({ ...ok, tree_size: -1 }, ORIGIN, signer)).toThrow(HeadChainError);
    expect(() => sealHead({ ...ok, root: new Uint8Array(3) }, ORIGIN, signer)).toThrow(HeadChainError);
    expect(isHeadTimestamp('2024-02-29T23:59:59Z')).toBe(true);
  });
});

describe('verifyHeadChain', () => {
  it('accepts a good chain, including repeated sizes, and windows of it', () => {
    const heads = chain([0, 1, 1, 5, 8, 13]);
    expect(() => verifyHeadChain(heads, verifier, ORIGIN, { genesis: true })).not.toThrow();
    expect(() => verifyHeadChain(heads.slice(2), verifier, ORIGIN)).not.toThrow();
    expect(() => verifyHeadChain(heads.slice(2), verifier, ORIGIN, { genesis: true })).toThrow(HeadChainError);
    expect(() => verifyHeadChain([], verifier, ORIGIN)).not.toThrow();
  });

  const failsAt = (heads: HeadBlock[], index: number) => {
    try {
      verifyHeadChain(heads, verifier, ORIGIN);
    } catch (err) {
      expect(err).toBeInstanceOf(HeadChainError);
      expect((err as HeadChainError).index).toBe(index);
      return;
    }
    throw new Error('chain verified');
  };

  it('catches an edited field (head hash no longer recomputes)', () => {
    const heads = chain([1, 2, 3]);
    failsAt([heads[0]!, { ...heads[1]!, timestamp: '2026-07-01T12:00:09Z' }, heads[2]!], 1);
    failsAt([heads[0]!, { ...heads[1]!, tree_size: 9 }, heads[2]!], 1);
  });

  it('catches a checkpoint that disagrees with the head, or is signed by another key', () => {
    const heads = chain([1, 2]);
    const swapped = { ...heads[1]!, checkpoint: heads[0]!.checkpoint };
    const { head_hash: _, ...body } = swapped;
    const rehashed = { ...swapped, head_hash: createHash('sha256').update(canonicalize(body)!).digest('hex') };
    failsAt([heads[0]!, rehashed], 1);
    const other = generateKeyPairSync('ed25519');
    const forged = sealHead(
      {
        tree_size: 2,
        root: Buffer.from(heads[1]!.root_hash, 'base64'),
        timestamp: heads[1]!.timestamp,
        prev_head_hash: heads[0]!.head_hash,
      },
      ORIGIN,
      noteSigner(ORIGIN, other.privateKey),
    );
    failsAt([heads[0]!, forged], 1);
  });

  it('catches broken links, shrinking trees, split views and time running backwards', () => {
    const a = chain([1, 2, 3]);
    failsAt([a[0]!, a[2]!], 1); // a[2] links to a[1], which is missing
    const root = (h: HeadBlock) => Buffer.from(h.root_hash, 'base64');
    const shrink = sealHead(
      { tree_size: 1, root: root(a[0]!), timestamp: '2026-07-01T12:00:05Z', prev_head_hash: a[2]!.head_hash },
      ORIGIN,
      signer,
    );
    failsAt([...a, shrink], 3);
    const split = sealHead(
      { tree_size: 3, root: root(a[1]!), timestamp: '2026-07-01T12:00:05Z', prev_head_hash: a[2]!.head_hash },
      ORIGIN,
      signer,
    );
    failsAt([...a, split], 3);
    const early = sealHead(
      { tree_size: 3, root: root(a[2]!), timestamp: '2026-06-30T00:00:00Z', prev_head_hash: a[2]!.head_hash },
      ORIGIN,
      signer,
    );
    failsAt([...a, early], 3);
  });
});
