import { afterEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../src/domain/errors.js';
import { MalformedJsonError } from '../src/operations/json-manifest.js';
import { ParseBusyError, ParsePool, type ParsePoolOptions } from '../src/operations/parse-pool.js';
import { InputError, TooComplexError } from '../src/parsers/reference.js';

/**
 * The parse pool with real worker threads: what a parse past its deadline or its heap budget
 * answers, that the pool goes on answering after it ended a worker, that errors cross the thread
 * as the classes the HTTP layer maps to 4xx, and that a full queue is refused rather than grown.
 */
const pools: ParsePool[] = [];
function pool(options: Partial<ParsePoolOptions> = {}): ParsePool {
  const made = new ParsePool({ threads: 1, deadlineMs: 10_000, memoryMb: 160, maxWaiting: 8, ...options });
  pools.push(made);
  return made;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

/** A workflow of many steps: honest in shape, and slow enough for the yaml library to pass a short deadline. */
function manySteps(steps: number): string {
  return `on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n${'      - uses: actions/checkout@v4\n'.repeat(steps)}`;
}

describe('the parse pool', () => {
  it('answers a submission merged: one component per name, with its count and first places', async () => {
    const parsed = await pool().parse({
      route: 'manifest',
      body: new TextEncoder().encode('requests\nflask\nrequests==2\n'),
      format: 'requirements',
    });
    expect(parsed.components).toEqual([
      {
        ref: { kind: 'pypi', id: 'requests' },
        count: 2,
        locations: [
          { input: 'requests', location: 'line 1' },
          { input: 'requests==2', location: 'line 3' },
        ],
        tree: { scope: 'direct', via: [] },
      },
      {
        ref: { kind: 'pypi', id: 'flask' },
        count: 1,
        locations: [{ input: 'flask', location: 'line 2' }],
        tree: { scope: 'direct', via: [] },
      },
    ]);
  });

  it('ends a parse past its deadline with a 422 sentence, and answers the next one with a fresh worker', async () => {
    const p = pool({ deadlineMs: 100 });
    // Warm first, so the deadline measures the parse and not the worker's start.
    await p.parse({ route: 'manifest', body: 'flask\n', format: 'requirements' });
    const started = performance.now();
    // ~370 KB, under the workflow size bound: a few hundred milliseconds of honest parsing.
    const slow = p.parse({ route: 'manifest', body: manySteps(10_000), format: 'workflow' });
    await expect(slow).rejects.toBeInstanceOf(TooComplexError);
    await expect(slow).rejects.toThrow(/too complex to check: reading it took longer than 0\.1 s/);
    expect(performance.now() - started).toBeLessThan(2_000);
    const next = await p.parse({ route: 'manifest', body: 'flask\n', format: 'requirements' });
    expect(next.components.map((c) => c.ref.id)).toEqual(['flask']);
  });

  it('ends a parse past its heap budget with a 422 sentence', async () => {
    // Below what the configuration allows (64 MB), so that a 4 MB body can pass it.
    const p = pool({ memoryMb: 32 });
    // 150,000 distinct components: their objects and strings take far more than 32 MB.
    const components = Array.from({ length: 150_000 }, (_, i) => `{"purl":"pkg:npm/p${i}"}`).join(',');
    const body = `{"bomFormat":"CycloneDX","specVersion":"1.5","components":[${components}]}`;
    const parsed = p.parse({ route: 'sbom', body, contentType: 'application/vnd.cyclonedx+json' });
    await expect(parsed).rejects.toBeInstanceOf(TooComplexError);
    await expect(parsed).rejects.toThrow(/more than 32 MB of memory/);
    const next = await p.parse({ route: 'manifest', body: 'flask\n', format: 'requirements' });
    expect(next.components).toHaveLength(1);
  });

  it('rebuilds the errors a person gets a 4xx for as their own classes', async () => {
    const p = pool();
    await expect(p.parse({ route: 'manifest', body: '{"components":', json: true })).rejects.toBeInstanceOf(
      MalformedJsonError,
    );
    const invalid = p.parse({ route: 'manifest', body: '{"components":[{"name":"x","kind":"cobol"}]}', json: true });
    await expect(invalid).rejects.toBeInstanceOf(ValidationError);
    await expect(invalid).rejects.toThrow(/kind must be one of/);
    await expect(p.parse({ route: 'sbom', body: 'hello' })).rejects.toBeInstanceOf(ValidationError);
    const unclosed = p.parse({
      route: 'sbom',
      body: '<bom xmlns="http://cyclonedx.org/schema/bom/1.5"><components>',
      contentType: 'application/vnd.cyclonedx+xml',
    });
    await expect(unclosed).rejects.toBeInstanceOf(InputError);
    await expect(unclosed).rejects.not.toBeInstanceOf(TooComplexError);
  });

  it('refuses a submission when every worker is busy and the queue is full, and serves again after', async () => {
    const p = pool({ maxWaiting: 1 });
    await p.parse({ route: 'manifest', body: 'flask\n', format: 'requirements' });
    const body = manySteps(10_000);
    const first = p.parse({ route: 'manifest', body, format: 'workflow' });
    const queued = p.parse({ route: 'manifest', body, format: 'workflow' });
    await expect(p.parse({ route: 'manifest', body, format: 'workflow' })).rejects.toBeInstanceOf(ParseBusyError);
    expect((await first).components).toHaveLength(1);
    expect((await queued).components[0]!.count).toBe(10_000);
  });

  it('serves an honest client within about one deadline while three clients keep nine files at the deadline (issue 34)', async () => {
    // Well under what the hostile file costs (~190 ms quiet on this 2-core machine, 2026-11-29): at 400 ms a
    // quiet machine parsed it before the deadline and the attack this test is about never happened.
    const deadlineMs = 100;
    const started = performance.now();
    const p = pool({ threads: 2, deadlineMs, maxWaiting: 64 });
    await p.ready();
    // A worker ended at the deadline is replaced, and its start is part of any wait: measured here.
    const workerStart = performance.now() - started;
    const hostile = `pkg==1 ${'\\\n'.repeat(1_900_000)}`;
    const until = Date.now() + 7_000;
    let tooComplex = 0;
    const attack = ['attacker-1', 'attacker-2', 'attacker-3'].flatMap((client) =>
      [0, 1, 2].map(async () => {
        while (Date.now() < until)
          await p.parse({ route: 'manifest', body: hostile, format: 'requirements' }, client).catch((error: Error) => {
            if (error instanceof TooComplexError) tooComplex++;
          });
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const waits: number[] = [];
    while (Date.now() < until - 1_000) {
      const asked = performance.now();
      await p.parse({ route: 'manifest', body: 'flask\nrequests\nnumpy\n', format: 'requirements' }, 'honest');
      waits.push(performance.now() - asked);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    await Promise.all(attack);
    waits.sort((a, b) => a - b);
    const p95 = waits[Math.ceil(waits.length * 0.95) - 1]!;
    console.log(
      `honest: ${waits.length} parses, p95 ${p95.toFixed(0)} ms (worker start ${workerStart.toFixed(0)} ms); ${tooComplex} hostile files hit the deadline`,
    );
    expect(tooComplex).toBeGreaterThan(3);
    // One parse to end (the deadline) and, at worst, a fresh worker's start: never the nine ahead.
    // A single FIFO queue measured ~8 s here.
    expect(p95).toBeLessThan(deadlineMs + 2 * workerStart + 500);
  }, 30_000);
});
