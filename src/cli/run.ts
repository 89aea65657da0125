import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config/config.js';
import { StoreUnavailableError } from '../storage/store-errors.js';
import { serveCommand } from './serve.js';
import { dailyExportCommand, exportCommand, importCommand, verifyCommand } from './log-commands.js';
import { checkCommand } from './check.js';
import { censusCommand, observeCommand, watchCommand } from './observer-commands.js';
import { followCommand } from './follow-commands.js';
import { simulateCommand } from './simulate.js';
import { keysCommand } from './keys.js';
import { signingCommand, verifyVerdictCommand } from './signing.js';
import type { CliWiring } from './wiring.js';
import { readFileSync } from 'node:fs';
import { EXIT } from './exit-codes.js';
import { asksForHelp, commandUsage, isCommand, USAGE, type CommandName } from './usage.js';

/** Each command's run, by the names usage.ts gives a usage block: one cannot be added without the other. */
/** A usage error, said on stderr (exit 2). */
function usageError(wiring: CliWiring, message: string): number {
  wiring.stderr.write(`tended: ${message}\n`);
  return EXIT.usage;
}

const COMMANDS: Record<CommandName, (config: Config, wiring: CliWiring, rest: string[]) => Promise<number> | number> = {
  serve: (config, wiring) => serveCommand(config, wiring),
  verify: async (config, wiring, rest) => {
    const { values } = parseArgs({
      args: rest,
      options: {
        url: { type: 'string' },
        file: { type: 'string' },
        key: { type: 'string' },
        witness: { type: 'string', multiple: true },
        'witness-threshold': { type: 'string' },
      },
    });
    return await verifyCommand(config, wiring, values);
  },
  export: async (config, wiring, rest) => {
    const { values } = parseArgs({
      args: rest,
      options: {
        since: { type: 'string' },
        out: { type: 'string' },
        daily: { type: 'boolean' },
        dir: { type: 'string' },
        partial: { type: 'boolean' },
      },
    });
    if (values.daily) {
      if (values.since !== undefined || values.out !== undefined)
        return usageError(wiring, 'export --daily takes --dir and --partial, not --since or --out');
      return await dailyExportCommand(config, wiring, {
        dir: values.dir ?? config.exportDir,
        partial: values.partial ?? false,
      });
    }
    if (values.dir !== undefined || values.partial !== undefined)
      return usageError(wiring, '--dir and --partial go with export --daily');
    return await exportCommand(config, wiring, values);
  },
  watch: (config, wiring, rest) => watchCommand(config, wiring, rest),
  observe: async (config, wiring, rest) => {
    const once = rest.includes('--once');
    return await observeCommand(
      config,
      wiring,
      once,
      rest.filter((a) => a !== '--once'),
    );
  },
  check: async (config, wiring, rest) => {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        url: { type: 'string' },
        'as-of': { type: 'string' },
        format: { type: 'string' },
        observe: { type: 'boolean' },
        queue: { type: 'boolean' },
        'fail-on': { type: 'string' },
        scope: { type: 'string' },
        policy: { type: 'string' },
      },
    });
    if (positionals.length !== 1)
      return usageError(
        wiring,
        'check takes one FILE or DIR: a manifest (workflow, Dockerfile, package.json, requirements.txt), a lockfile or an SBOM, or a directory to look for them in',
      );
    return await checkCommand(config, wiring, positionals[0]!, values);
  },
  census: (config, wiring, rest) => censusCommand(config, wiring, rest),
  follow: (config, wiring, rest) => followCommand(config, wiring, rest),
  keys: (config, wiring, rest) => keysCommand(config, wiring, rest),
  simulate: async (_config, wiring, rest) => {
    const { values } = parseArgs({
      args: rest,
      options: { scenario: { type: 'string' }, port: { type: 'string' } },
    });
    return await simulateCommand(wiring, values);
  },
  import: async (config, wiring, rest) => {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { key: { type: 'string' } },
    });
    if (positionals.length !== 1)
      return usageError(wiring, 'import takes one FILE: a full export made by `tended export`');
    return await importCommand(config, wiring, positionals[0]!, values.key);
  },
  signing: (config, wiring, rest) => signingCommand(config, wiring, rest),
  'verify-verdict': (_config, wiring, rest) => {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { keys: { type: 'string', multiple: true } },
    });
    if (positionals.length !== 1 || !values.keys?.length) {
      return usageError(
        wiring,
        'verify-verdict takes ENVELOPE --keys KEYSET [--keys KEYSET…]: a verdict (or an answer carrying one) and the key set JSON, pinned version first',
      );
    }
    return verifyVerdictCommand(wiring, positionals[0]!, values.keys);
  },
};

/** This package's version, from the package.json beside src/ and dist/ alike. */
function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? 'unknown';
}

/** Runs one command; returns the process exit code. */
export async function runCli(argv: string[], wiring: CliWiring): Promise<number> {
  const [command, ...rest] = argv;
  const fail = (message: string) => usageError(wiring, message);
  // `tended help --help` is a request for help too: the command list, like `tended help`.
  if (command === 'help' && rest[0] !== undefined && !asksForHelp(rest.slice(0, 1))) {
    if (!isCommand(rest[0])) return fail(`unknown command "${rest[0]}"\n\n${USAGE}`);
    wiring.stdout.write(`${commandUsage(rest[0])}\n`);
    return EXIT.ok;
  }
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    wiring.stdout.write(`${USAGE}\n`);
    return command ? EXIT.ok : EXIT.usage;
  }
  // Before the configuration is read: help needs none, and must work where it is invalid.
  if (isCommand(command) && asksForHelp(rest)) {
    wiring.stdout.write(`${commandUsage(command)}\n`);
    return EXIT.ok;
  }
  if (command === '--version' || command === '-V' || command === 'version') {
    wiring.stdout.write(`tended ${version()}\n`);
    return EXIT.ok;
  }
  let config: Config;
  try {
    config = loadConfig(wiring.env);
  } catch (error) {
    if (error instanceof ConfigError) return fail(error.message);
    throw error;
  }
  try {
    if (!isCommand(command)) return fail(`unknown command "${command}"\n\n${USAGE}`);
    return await COMMANDS[command](config, wiring, rest);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
      return fail((error as Error).message);
    if (error instanceof StoreUnavailableError) {
      fail(
        `${error.message}. Check that the database at DATABASE_URL is running and reachable, then run the command again.`,
      );
      return EXIT.unavailable;
    }
    throw error;
  }
}
