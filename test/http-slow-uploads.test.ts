import { connect, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_BODY_BUDGET, requestBodies } from '../src/api/body-budget.js';
import { serveLimited, type LimitedServer } from './support/limited-server.js';
import { recordDeps, sqliteTestStore, type TestStore } from './support/record.js';

/**
 * Issue 34, item 4, over real sockets with the real limiter: 200 uploads of 4 MB (20 from each of
 * 10 addresses) send all but their last bytes and stall. Before, every one was buffered as it
 * came (+796 MB in 10 s in the red team's run). Now what unfinished bodies hold together is bounded
 * (64 MB here, a quarter of it per client): the rest are answered 503 at once and their bytes
 * dropped, the stalled ones are cut off with a 408 once a window passes with too little received,
 * and an honest 3-line check from another address goes on being answered.
 */
const UPLOAD = 4 * 1024 * 1024;
const WINDOW_MS = 2_000;
let t: TestStore;
let served: LimitedServer | null = null;
const sockets: Socket[] = [];

beforeEach(async () => {
  t = await sqliteTestStore();
  requestBodies.options = { ...DEFAULT_BODY_BUDGET, windowMs: WINDOW_MS };
  const deps = recordDeps(t.store, '2026-11-22T12:00:00Z');
  await t.store.initialiseLog(deps.notary.seal);
  served = await serveLimited(deps, {
    buckets: 'memory',
    discovery: { enabled: false, dailyCap: 0, clientShare: 0 },
    limits: { free: 1_000 },
  });
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await served?.close();
  served = null;
  requestBodies.options = DEFAULT_BODY_BUDGET;
  await t.dispose();
});

/** An upload that sends all but its last 16 bytes, then stalls; resolves to the status it was answered (0: none). */
function stalledUpload(port: number, from: string, chunk: Buffer): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    let answer = '';
    socket.on('data', (data: Buffer) => {
      answer += data.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
    socket.write(
      `POST /api/v1/manifest?format=requirements HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: ${from}\r\nContent-Type: text/plain\r\nContent-Length: ${UPLOAD}\r\n\r\n`,
    );
    socket.write(chunk);
  });
}

describe('slow uploads cannot hold the memory', () => {
  it('bounds what 200 stalled 4 MB uploads hold, cuts them off, and keeps answering an honest check', async () => {
    const port = Number(new URL(served!.url).port);
    // One buffer for every upload: the test's own memory does not grow with the attack.
    const chunk = Buffer.alloc(UPLOAD - 16, 'a');
    global.gc?.();
    const before = process.memoryUsage();
    let [peak, peakBuffers] = [before.rss, before.arrayBuffers];
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peak = Math.max(peak, now.rss);
      peakBuffers = Math.max(peakBuffers, now.arrayBuffers);
    }, 50);
    const uploads: Promise<number>[] = [];
    for (let address = 1; address <= 10; address++)
      for (let i = 0; i < 20; i++) uploads.push(stalledUpload(port, `198.51.100.${address}`, chunk));
    // The test sends 800 MB through loopback from this same process: let the first round pass.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const waits: number[] = [];
    const statuses: number[] = [];
    const until = Date.now() + 3 * WINDOW_MS;
    while (Date.now() < until) {
      const asked = performance.now();
      const r = await fetch(`${served!.url}/api/v1/manifest?format=requirements`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'x-forwarded-for': '203.0.113.9', accept: 'application/json' },
        body: 'flask==3.0\nrequests\nnumpy>=1\n',
      });
      await r.text();
      waits.push(performance.now() - asked);
      statuses.push(r.status);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const answered = await Promise.all(uploads);
    clearInterval(sampler);
    waits.sort((a, b) => a - b);
    const p95 = waits[Math.ceil(waits.length * 0.95) - 1]!;
    const growth = (peak - before.rss) / (1024 * 1024);
    const buffers = (peakBuffers - before.arrayBuffers) / (1024 * 1024);
    const count = (status: number) => answered.filter((s) => s === status).length;
    const errors = statuses.filter((s) => s !== 200).length;
    console.log(
      `stalled uploads: ${count(503)} × 503, ${count(408)} × 408, ${count(0)} unanswered; peak RSS +${growth.toFixed(0)} MB (buffers +${buffers.toFixed(0)} MB); honest: ${waits.length} checks (${waits.map((w) => w.toFixed(0)).join(', ')} ms), p95 ${p95.toFixed(0)} ms, ${errors} errors`,
    );
    expect(count(503) + count(408)).toBe(200);
    expect(count(408)).toBeGreaterThan(0);
    expect(errors).toBe(0);
    // Loose: on this shared 2-core machine the first check waits while the same process pushes
    // 800 MB of attack through loopback; what is held to account here is the memory, not this wait.
    expect(p95).toBeLessThan(10_000);
    // What the server holds, measured in 9 runs with the attacker in a process of its own (the
    // attack writes one shared buffer, never copied, so it adds nothing here): Buffers +60 to +63 MB
    // (the stalled bodies, within the 64 MB bound), peak RSS +182 to +196 MB (those, and what the
    // allocator keeps of the reads that dropped the 744 MB of 503'd bodies). With the bound off
    // (totalBytes 1e12): Buffers +800 MB, RSS +937 MB. With the attack in this process, as here,
    // Buffers read +72 MB once (its 4 MB chunk and its sockets count). Bounds about twice the worst.
    expect(buffers).toBeLessThan(128);
    expect(growth).toBeLessThan(400);
  }, 30_000);
});
