import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config/config.js';
import { StoreUnavailableError } from '../storage/store.js';
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

const USAGE = `usage: tended <command> [options]

commands:
  serve                         run the HTTP service (and, with TENDED_OBSERVER=on, the observer)
  watch add KIND ID [KIND ID…] | watch remove KIND ID | watch list
                                the components the observer reads once per UTC day
                                (KIND: github, npm, pypi, docker, maven, golang, cargo,
                                nuget, gem, composer, distro)
  observe [--once] [KIND ID…]   read the named components now; or, with --once, one pass over
                                the due ones; or, with neither, run the schedule until stopped
  follow status [--json]        each followed registry (TENDED_FOLLOW): its cursor, when it last
                                read, its lag, last contiguous read and faults, the backfill's
                                progress and today's reads by reason (event, threshold, backfill, sweep)
  check FILE|DIR [--url URL [--queue]] [--as-of DATE] [--format table|json|sarif|markdown] [--fail-on STATES] [--scope direct|all] [--policy FILE] [--observe]
                                one dated result per component of a local manifest, lockfile or
                                SBOM (or of each one a directory holds: .git, node_modules,
                                vendor, virtual environments, target and what .gitignore ignores
                                are skipped; a manifest and its lockfile answer once), from the
                                local store or a running service; exit code 1 when one is
                                abandoned, archived, deleted or eol, named on stderr (a CI gate;
                                --fail-on names other states, or none; --scope direct gates on
                                direct dependencies only, and on those of files that do not say
                                direct or transitive, while the report still lists all; a policy,
                                .tended.yml or --policy FILE, sets both and excepts components
                                until a date, with a reason; flags win). --format sarif for code
                                scanning, markdown for a pull-request comment. --observe reads
                                what the local record lacks first (a name no registry shows
                                public is not recorded); --queue asks the service to queue what
                                it does not hold
  census [KIND ID…]             read and record the dependents count of the watched npm, PyPI,
                                Maven, Go, crates.io, RubyGems and Packagist packages
  simulate [--scenario FILE] [--port N]
                                serve simulated upstreams on loopback (for tests and the demo)
  verify [--url URL | --file EXPORT] [--key VKEY]
                                rebuild the Merkle tree from the store, a running service or an
                                export, and check it against the signed checkpoint
  export [--since DATE] [--out FILE]
                                write the log as JSON Lines (a header, then each leaf's exact bytes)
  export --daily [--dir DIR] [--partial]
                                one self-checking file per UTC day of leaves (TENDED_EXPORT_DIR);
                                finished days are never rewritten, the open day only with --partial
  import FILE [--key VKEY]      load a full export into an empty store; refuses anything that
                                does not verify
  keys create [--label L] | keys revoke ID | keys list
                                API keys (X-API-Key raises the rate limit); a new key is printed
                                once, only its SHA-256 is stored
  signing rotate                a new verdict key; the old one stays published, retired, and the
                                new key-set version is signed by it and logged
  verify-verdict ENVELOPE --keys KEYSET [--keys KEYSET…]
                                check a verdict offline against a pinned key set (exit 1 if not valid);
                                several versions (files, or a list in one file) must chain from the oldest
  help | --version              this text | the version of tended

exit codes:
  0  done; check: no component is in a failing state
  1  the answer is no: check's gate failed (the components are named on stderr), the log does
     not verify, nothing was imported, a verdict is not valid
  2  a usage error: an unknown command or option, a bad argument or file, an invalid
     configuration, a --url that is no Tended service
  3  what the command needs did not answer (the database, or the service at --url, which may
     also have answered 429 or 5xx): nothing was checked; run it again once it is up

configuration is read from the environment: see docs/configuration.md.`;

/** This package's version, from the package.json beside src/ and dist/ alike. */
function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? 'unknown';
}

/** Runs one command; returns the process exit code. */
export async function runCli(argv: string[], wiring: CliWiring): Promise<number> {
  const [command, ...rest] = argv;
  const fail = (message: string) => {
    wiring.stderr.write(`tended: ${message}\n`);
    return EXIT.usage;
  };
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    wiring.stdout.write(`${USAGE}\n`);
    return command ? EXIT.ok : EXIT.usage;
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
    switch (command) {
      case 'serve':
        return await serveCommand(config, wiring);
      case 'verify': {
        const { values } = parseArgs({
          args: rest,
          options: { url: { type: 'string' }, file: { type: 'string' }, key: { type: 'string' } },
        });
        return await verifyCommand(config, wiring, values);
      }
      case 'export': {
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
            return fail('export --daily takes --dir and --partial, not --since or --out');
          return await dailyExportCommand(config, wiring, {
            dir: values.dir ?? config.exportDir,
            partial: values.partial ?? false,
          });
        }
        if (values.dir !== undefined || values.partial !== undefined)
          return fail('--dir and --partial go with export --daily');
        return await exportCommand(config, wiring, values);
      }
      case 'watch':
        return await watchCommand(config, wiring, rest);
      case 'observe': {
        const once = rest.includes('--once');
        return await observeCommand(
          config,
          wiring,
          once,
          rest.filter((a) => a !== '--once'),
        );
      }
      case 'check': {
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
          return fail(
            'check takes one FILE or DIR: a manifest (workflow, Dockerfile, package.json, requirements.txt), a lockfile or an SBOM, or a directory to look for them in',
          );
        return await checkCommand(config, wiring, positionals[0]!, values);
      }
      case 'census':
        return await censusCommand(config, wiring, rest);
      case 'follow':
        return await followCommand(config, wiring, rest);
      case 'keys':
        return await keysCommand(config, wiring, rest);
      case 'simulate': {
        const { values } = parseArgs({
          args: rest,
          options: { scenario: { type: 'string' }, port: { type: 'string' } },
        });
        return await simulateCommand(wiring, values);
      }
      case 'import': {
        const { values, positionals } = parseArgs({
          args: rest,
          allowPositionals: true,
          options: { key: { type: 'string' } },
        });
        if (positionals.length !== 1) return fail('import takes one FILE: a full export made by `tended export`');
        return await importCommand(config, wiring, positionals[0]!, values.key);
      }
      case 'signing':
        return await signingCommand(config, wiring, rest);
      case 'verify-verdict': {
        const { values, positionals } = parseArgs({
          args: rest,
          allowPositionals: true,
          options: { keys: { type: 'string', multiple: true } },
        });
        if (positionals.length !== 1 || !values.keys?.length) {
          return fail(
            'verify-verdict takes ENVELOPE --keys KEYSET [--keys KEYSET…]: a verdict (or an answer carrying one) and the key set JSON, pinned version first',
          );
        }
        return verifyVerdictCommand(wiring, positionals[0]!, values.keys);
      }
      default:
        return fail(`unknown command "${command}"\n\n${USAGE}`);
    }
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
