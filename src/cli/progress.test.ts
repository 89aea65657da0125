import { describe, expect, it } from 'vitest';
import { Progress, counted } from './progress.js';

function stream(isTTY: boolean) {
  const written: string[] = [];
  return { isTTY, written, write: (s: string) => written.push(s) };
}

describe('progress of long CLI work', () => {
  it('off a terminal: nothing while it runs, one summary line at the end', async () => {
    const out = stream(false);
    let now = 0;
    const progress = new Progress(out, 'verify', 'leaves', 1_000, () => now);
    async function* leaves() {
      for (let i = 0; i < 1_000; i++) {
        await Promise.resolve();
        now += 2; // 2 ms a leaf: 500 leaves a second
        yield i;
      }
    }
    let seen = 0;
    for await (const _ of counted(leaves(), progress)) seen++;
    expect(out.written).toEqual([]);
    progress.finish();
    expect(seen).toBe(1_000);
    expect(out.written).toEqual(['verify: 1,000 leaves in 2.0 s (500/s)\n']);
  });

  it('on a terminal: one line redrawn in place, with the rate and the time left, ended by a newline', () => {
    const out = stream(true);
    let now = 0;
    const progress = new Progress(out, 'verify', 'leaves', 10_000, () => now);
    for (let i = 0; i < 4_000; i++) {
      now += 1; // 1,000 leaves a second
      progress.add();
    }
    // Redrawn every 250 ms at most, not per leaf.
    expect(out.written.length).toBeGreaterThan(10);
    expect(out.written.length).toBeLessThan(20);
    expect(out.written.every((s) => s.startsWith('\r') && s.endsWith('\x1b[K'))).toBe(true);
    expect(out.written.at(-1)).toMatch(/^\rverify: 3,\d{3} of 10,000 leaves \(1,000\/s, 7 s left\)/);
    progress.finish();
    expect(out.written.at(-1)).toBe('\rverify: 4,000 of 10,000 leaves (1,000/s, 6 s left)\x1b[K\n');
  });

  it('off a terminal, with logEveryMs: a whole line that often, so a slow read is not a silent log', () => {
    const out = stream(false);
    let now = 0;
    const progress = new Progress(out, 'observe', 'components', 200, () => now, 5_000);
    for (let i = 0; i < 200; i++) {
      now += 130; // 130 ms a component: 26 s for 200
      progress.add();
    }
    expect(out.written).toHaveLength(5);
    expect(out.written[0]).toBe('observe: 39 of 200 components (8/s, 21 s left)\n');
    progress.finish();
    expect(out.written.at(-1)).toBe('observe: 200 components in 26.0 s (8/s)\n');
  });
});

describe('progress cut short', () => {
  it('on a terminal, ends the drawn line so the error that follows starts its own', () => {
    const out = stream(true);
    let now = 0;
    const progress = new Progress(out, 'verify', 'leaves', 10, () => now);
    now = 300;
    progress.add(3);
    progress.interrupt();
    expect(out.written.join('')).toMatch(/^\rverify: 3 of 10 leaves .*\x1b\[K\n$/);
    progress.finish();
    expect(out.written.join('').endsWith('\x1b[K\n')).toBe(true);
  });

  it('off a terminal, writes nothing to end', () => {
    const out = stream(false);
    const progress = new Progress(out, 'verify', 'leaves', 10);
    progress.add(3);
    progress.interrupt();
    expect(out.written).toEqual([]);
  });
});
