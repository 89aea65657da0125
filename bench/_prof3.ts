import { hash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
const N = 1000000;
const node = Buffer.alloc(65, 1);
const wrap1 = (b: Buffer) => new Uint8Array(b.buffer);
const proto = Uint8Array.prototype;
const res: Record<string, number[]> = { plain: [], wrap3: [], wrap1: [], setproto: [] };
for (let rep = 0; rep < 5; rep++) {
  let t = performance.now(); for (let i = 0; i < N; i++) hash('sha256', node, 'buffer'); res.plain!.push(performance.now() - t);
  t = performance.now(); for (let i = 0; i < N; i++) { const b = hash('sha256', node, 'buffer'); new Uint8Array(b.buffer, b.byteOffset, b.byteLength); } res.wrap3!.push(performance.now() - t);
  t = performance.now(); for (let i = 0; i < N; i++) wrap1(hash('sha256', node, 'buffer')); res.wrap1!.push(performance.now() - t);
  t = performance.now(); for (let i = 0; i < N; i++) Object.setPrototypeOf(hash('sha256', node, 'buffer'), proto); res.setproto!.push(performance.now() - t);
}
for (const [k, v] of Object.entries(res)) console.log(k.padEnd(9), v.map((x) => x.toFixed(0)).join(' '), ' min', Math.min(...v).toFixed(0));
