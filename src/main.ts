#!/usr/bin/env node
// The composition root: the only file that names the storage adapters (DESIGN §4).
import { runCli } from './cli/run.js';
import { openPostgresStore } from './storage/postgres/open.js';
import { openSqliteStore } from './storage/sqlite/open.js';

// `tended watch list | head`: the reader went away. Stop quietly, as Unix tools do, rather than
// with an EPIPE stack trace.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });

process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  openStore: (config) =>
    config.databaseUrl.startsWith('sqlite:')
      ? openSqliteStore(config.databaseUrl.slice('sqlite:'.length))
      : openPostgresStore(config.databaseUrl),
});
