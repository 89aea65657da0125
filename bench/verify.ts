/**
 * Full-audit benchmark: how close is rebuilding the whole tree from leaf bytes (and checking the
 * root against a signed checkpoint) to the bare cost of the SHA-256 calls it cannot avoid?
 *
 *   npm run bench:verify            (BENCH_LEAVES=… BENCH_RUNS=… to change the defaults)
 *
 * Both sides hash exactly the same inputs: the N leaf inputs 0x00‖bytes and the N−1 node inputs
 * 0x01‖l‖r of the tree. The raw side gets them pre-built in memory and does nothing but hash; the
 * verify side starts from the leaf bytes, as an auditor reading storage would. Each side runs
 * BENCH_RUNS times in this process, in alternating order after a full collection, and the fastest
 * run counts, which filters out GC debt and noisy neighbours equally for both.
 */
import { generateKeyPairSync, hash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { signCheckpoint, verifyCheckpoint } from '../src/notary/checkpoint.js';
import { equalBytes, toHex } from '../src/notary/hash.js';
import { encodeLeaf } from '../src/notary/leaf.js';
import { CompactRange } from '../src/notary/merkle.js';
import { noteSigner, noteVerifier } from '../src/notary/note.js';

const N = Number(process.env.BENCH_LEAVES ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ORIGIN = 'tended.example/observations/v1';
const seconds = (ms: number) => (ms / 1000).toFixed(2);

// Every hash allocates a fresh 32-byte ArrayBuffer, so millions of them leave garbage behind and
// whichever loop runs second inherits the first one's collection debt. Collecting before each
// timed loop (and alternating their order) keeps the comparison fair.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

// --- 1. Leaves: canonical JSON observation records, laid out as 0x00‖bytes in one arena -------

// xorshift32: cheap deterministic variety, so records differ without spending time on crypto.
let seed = 0x9e3779b9;
const rand = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return seed >>> 0;
};
const hex64 = () => Array.from({ length: 8 }, () => rand().toString(16).padStart(8, '0')).join('');
const KINDS = ['npm', 'github', 'pypi', 'docker'] as const;
const STATES = ['alive', 'dormant', 'abandoned', 'archived', 'eol'] as const;

function observation(i: number): unknown {
  const kind = KINDS[i % 4]!;
  const day = new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 2000) * 86_400_000);
  const date = day.toISOString().slice(0, 10);
  const at = `${date}T${String((i >> 6) % 24).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:${String((i * 7) % 60).padStart(2, '0')}Z`;
  return {
    _type: 'tended/observation/v1',
    component: `pkg:${kind}/component-${rand() % 250_000}`,
    observed_at: at,
    state: STATES[rand() % STATES.length]!,
    source: `https://registry.example/c/${i}`,
    evidence_sha256: hex64(),
  };
}

const tGen = performance.now();
const encoded: Uint8Array[] = new Array<Uint8Array>(N);
let total = 0;
for (let i = 0; i < N; i++) {
  encoded[i] = encodeLeaf(observation(i));
  total += encoded[i]!.length + 1;
}
const arena = Buffer.allocUnsafe(total);
const leaves: Uint8Array[] = new Array<Uint8Array>(N); // what storage hands the auditor: the bytes only
const leafInputs: Uint8Array[] = new Array<Uint8Array>(N); // the same bytes with the 0x00 prefix, for the raw side
for (let i = 0, off = 0; i < N; i++) {
  const bytes = encoded[i]!;
  arena[off] = 0x00;
  arena.set(bytes, off + 1);
  leafInputs[i] = arena.subarray(off, off + 1 + bytes.length);
  leaves[i] = arena.subarray(off + 1, off + 1 + bytes.length);
  off += 1 + bytes.length;
}
encoded.length = 0;
const meanLeaf = total / N - 1;

// --- 2. The log side (untimed): tree, node inputs, signed checkpoint ------------------------------

// Record every node input 0x01‖l‖r in the order a streaming build hashes them (N−1 in all), by
// replaying the right-edge algorithm with plain crypto.hash, and cross-check its root.
const nodeArena = Buffer.allocUnsafe(Math.max(0, N - 1) * 65);
const nodeInputs: Uint8Array[] = [];
const recordNode = (l: Uint8Array, r: Uint8Array): Uint8Array => {
  const off = nodeInputs.length * 65;
  nodeArena[off] = 0x01;
  nodeArena.set(l, off + 1);
  nodeArena.set(r, off + 33);
  const input = nodeArena.subarray(off, off + 65);
  nodeInputs.push(input);
  return hash('sha256', input, 'buffer');
};
const edge: Uint8Array[] = [];
for (let i = 0; i < N; i++) {
  let node: Uint8Array = hash('sha256', leafInputs[i]!, 'buffer');
  for (let s = i; s % 2 === 1; s = (s - 1) / 2) node = recordNode(edge.pop()!, node);
  edge.push(node);
}
let logRoot = edge.at(-1) ?? hash('sha256', '', 'buffer');
for (let j = edge.length - 2; j >= 0; j--) logRoot = recordNode(edge[j]!, logRoot);
if (nodeInputs.length !== Math.max(0, N - 1))
  throw new Error(`recorded ${nodeInputs.length} node inputs, expected ${N - 1}`);

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const checkpoint = signCheckpoint(ORIGIN, N, logRoot, noteSigner(ORIGIN, privateKey));
const verifier = noteVerifier(ORIGIN, publicKey);
const genMs = performance.now() - tGen;

// --- 3. The two timed loops --------------------------------------------------------------------

function raw(count: number): number {
  const t = performance.now();
  for (let i = 0; i < count; i++) hash('sha256', leafInputs[i]!, 'buffer');
  const nodes = Math.max(0, count - 1);
  for (let i = 0; i < nodes; i++) hash('sha256', nodeInputs[i]!, 'buffer');
  return performance.now() - t;
}

function verifyAll(): { ms: number; ok: boolean } {
  const t = performance.now();
  const cr = new CompactRange();
  for (let i = 0; i < N; i++) cr.pushLeaf(leaves[i]!);
  const root = cr.root();
  const signed = verifyCheckpoint(checkpoint, verifier, ORIGIN);
  const ok = signed.size === N && cr.size === N && equalBytes(root, signed.root);
  return { ms: performance.now() - t, ok };
}

// Warm both paths up so neither pays for JIT compilation inside its timing.
raw(Math.min(N, 20_000));
{
  const cr = new CompactRange();
  for (let i = 0; i < Math.min(N, 20_000); i++) cr.pushLeaf(leaves[i]!);
  cr.root();
}

let rawMs = Infinity;
let verifyMs = Infinity;
const timeRaw = () => {
  collect();
  rawMs = Math.min(rawMs, raw(N));
};
const timeVerify = () => {
  collect();
  const v = verifyAll();
  if (!v.ok) {
    console.error(`verification FAILED: rebuilt root does not match the signed checkpoint (${toHex(logRoot)})`);
    process.exit(1);
  }
  verifyMs = Math.min(verifyMs, v.ms);
};
for (let r = 0; r < RUNS; r++) {
  if (r % 2 === 0) {
    timeRaw();
    timeVerify();
  } else {
    timeVerify();
    timeRaw();
  }
}

const ratio = verifyMs / rawMs;
console.log(
  `(setup: ${N.toLocaleString('en-US')} leaves, mean ${meanLeaf.toFixed(0)} bytes, generated and logged in ${seconds(genMs)} s; best of ${RUNS} runs; node ${process.version})`,
);
console.log(
  `verify ${N.toLocaleString('en-US')} leaves: ${seconds(verifyMs)} s; raw SHA-256 of the same inputs: ${seconds(rawMs)} s; ratio X/Y = ${ratio.toFixed(2)} (target ≤ 1.5)`,
);
