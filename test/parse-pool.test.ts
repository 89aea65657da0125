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
      },
      { ref: { kind: 'pypi', id: 'flask' }, count: 1, locations: [{ input: 'flask', location: 'line 2' }] },
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
});
