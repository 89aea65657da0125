/**
 * What `tended help` and `tended CMD --help` print: one usage block per command, the one place a
 * command's arguments are written for a person. run.ts dispatches on the same names, so a command
 * without a usage block does not compile, and test/cli.test.ts asks every one for its --help.
 */

/** Each command's usage, in the order `tended help` lists them. */
export const COMMAND_USAGE = {
  serve: `  serve                         run the HTTP service (and, with TENDED_OBSERVER=on, the observer)`,
  watch: `  watch add KIND ID [KIND ID…] | watch remove KIND ID | watch list
                                the components the observer reads once per UTC day
                                (KIND: github, npm, pypi, docker, maven, golang, cargo,
                                nuget, gem, composer, distro)`,
  observe: `  observe [--once] [KIND ID…]   read the named components now; or, with --once, one pass over
                                the due ones; or, with neither, run the schedule until stopped`,
  follow: `  follow status [--json]        each followed registry (TENDED_FOLLOW): its cursor, when it last
                                read, its lag, last contiguous read and faults, the backfill's
                                progress and today's reads by reason (event, threshold, backfill, sweep)`,
  check: `  check FILE|DIR [--url URL [--queue]] [--as-of DATE] [--format table|json|sarif|markdown|cyclonedx|spdx] [--fail-on STATES] [--scope direct|all] [--policy FILE] [--observe]
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
                                scanning, markdown for a pull-request comment; cyclonedx or spdx
                                writes the SBOM checked back, enriched (one file, in its own
                                format; the gate still applies). --observe reads
                                what the local record lacks first (a name no registry shows
                                public is not recorded); --queue asks the service to queue what
                                it does not hold`,
  census: `  census [KIND ID…]             read and record the dependents count of the watched npm, PyPI,
                                Maven, Go, crates.io, RubyGems and Packagist packages`,
  simulate: `  simulate [--scenario FILE] [--port N]
                                serve simulated upstreams on loopback (for tests and the demo)`,
  verify: `  verify [--url URL | --file EXPORT] [--key VKEY]
         [--witness VKEY …] [--witness-threshold K]
                                rebuild the Merkle tree from the store, a running service or an
                                export, and check it against the signed checkpoint; with --witness,
                                also that K (default all) of the named witnesses cosigned it`,
  export: `  export [--since DATE] [--out FILE]
                                write the log as JSON Lines (a header, then each leaf's exact bytes)
  export --daily [--dir DIR] [--partial]
                                one self-checking file per UTC day of leaves (TENDED_EXPORT_DIR);
                                finished days are never rewritten, the open day only with --partial`,
  import: `  import FILE [--key VKEY]      load a full export into an empty store; refuses anything that
                                does not verify`,
  keys: `  keys create [--label L] | keys revoke ID | keys list
                                API keys (X-API-Key raises the rate limit); a new key is printed
                                once, only its SHA-256 is stored`,
  signing: `  signing rotate                a new verdict key; the old one stays published, retired, and the
                                new key-set version is signed by it and logged`,
  'verify-verdict': `  verify-verdict ENVELOPE --keys KEYSET [--keys KEYSET…]
                                check a verdict offline against a pinned key set (exit 1 if not valid);
                                several versions (files, or a list in one file) must chain from the oldest`,
} as const;

export type CommandName = keyof typeof COMMAND_USAGE;

const EXIT_CODES = `exit codes:
  0  done; check: no component is in a failing state (a file naming none passes, said on stderr)
  1  the answer is no: check's gate failed (the components are named on stderr), the log does
     not verify, nothing was imported, a verdict is not valid
  2  a usage error: an unknown command or option, a bad argument or file, an invalid
     configuration, a --url that is no Tended service (or does not speak HTTP)
  3  what the command needs did not answer (the database, or the service at --url, which may
     also have answered 429 or 5xx): nothing was checked; run it again once it is up`;

const CONFIGURATION = 'configuration is read from the environment: see docs/configuration.md.';

/** `tended help`: every command, the exit codes, where the configuration is described. */
export const USAGE = `usage: tended <command> [options]

commands:
${Object.values(COMMAND_USAGE).join('\n')}
  help [COMMAND] | --version    this text, or one command's | the version of tended
                                (\`tended COMMAND --help\` too)

${EXIT_CODES}

${CONFIGURATION}`;

/** `tended CMD --help` (or `tended help CMD`): that command's usage and the exit codes. */
export function commandUsage(command: CommandName): string {
  return `usage: tended ${COMMAND_USAGE[command].trimStart()}

${EXIT_CODES}

${CONFIGURATION}`;
}

export function isCommand(name: string): name is CommandName {
  return Object.hasOwn(COMMAND_USAGE, name);
}

/** A request for help among a command's arguments (before a `--` that ends the options). */
export function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
}
