import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/run.js';
import { COMMAND_USAGE, type CommandName } from '../src/cli/usage.js';
import { tended } from './support/tended-processes.js';

/**
 * One usage path: `tended CMD --help` (and `-h`, and `tended help CMD`) answers for every command
 * in the table run.ts dispatches on, so a command added there cannot miss it. A real process for
 * --help, as a person types it; `-h` and `help CMD` through the same runCli.
 */
const COMMANDS = Object.keys(COMMAND_USAGE) as CommandName[];
const AT = '2026-11-20 12:00:00';

async function inProcess(args: string[]) {
  let out = '';
  let err = '';
  const sink = (into: (s: string) => void) =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        into(chunk.toString());
        done();
      },
    });
  const code = await runCli(args, {
    openStore: () => Promise.reject(new Error('help opens no store')),
    // An invalid configuration: help must not need one.
    env: { DATABASE_URL: 'nonsense://' },
    stdout: sink((s) => (out += s)),
    stderr: sink((s) => (err += s)),
  });
  return { code, out, err };
}

function expectUsageOf(command: string, r: { code: number | null; out: string; err: string }) {
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  expect(r.out.startsWith(`usage: tended ${command} `) || r.out.startsWith(`usage: tended ${command}\n`)).toBe(true);
  expect(r.out).toContain('\nexit codes:\n');
}

describe('tended CMD --help', () => {
  it('answers for every command, as a real process, before any configuration is read', async () => {
    expect(COMMANDS.length).toBeGreaterThan(10);
    const runs = await Promise.all(
      COMMANDS.map((c) => tended([c, '--help'], { DATABASE_URL: 'nonsense://' }, AT).exited),
    );
    COMMANDS.forEach((c, i) => expectUsageOf(c, runs[i]!));
  }, 120_000);

  it.each(COMMANDS)('%s: -h and `tended help %s` print the same usage', async (command) => {
    const short = await inProcess([command, '-h']);
    expectUsageOf(command, short);
    const help = await inProcess(['help', command]);
    expect(help).toEqual(short);
  });

  it('answers for a subcommand and after other arguments; not after --', async () => {
    const sub = await tended(['export', '--daily', '--help'], {}, AT).exited;
    expectUsageOf('export', sub);
    expect(sub.out).toContain('export --daily [--dir DIR] [--partial]');
    expectUsageOf('watch', await inProcess(['watch', 'add', '-h']));
    const afterDashes = await inProcess(['check', '--', '--help']);
    expect(afterDashes.out).not.toContain('usage:');
  });

  it('says an unknown command is unknown, with the list', async () => {
    const r = await inProcess(['help', 'exprot']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^tended: unknown command "exprot"\n\nusage: tended <command>/);
  });

  it('answers `tended help --help` and `help -h` with the command list, as `tended help`', async () => {
    const list = await inProcess(['help']);
    for (const flag of ['--help', '-h']) expect(await inProcess(['help', flag])).toEqual(list);
    expect(list.code).toBe(0);
  });

  it('lists every command in `tended help`', async () => {
    const r = await inProcess(['help']);
    for (const c of COMMANDS) expect(r.out).toContain(`\n  ${c} `);
  });
});
