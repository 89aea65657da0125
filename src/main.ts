#!/usr/bin/env node
// The composition root: the only file that names the storage adapters (DESIGN §4).
import { runCli } from './cli/run.js';
import { openPostgresStore } from './storage/postgres/open.js';
import { openSqliteStore } from './storage/sqlite/open.js';

process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  openStore: (config) =>
    config.databaseUrl.startsWith('sqlite:')
      ? openSqliteStore(config.databaseUrl.slice('sqlite:'.length))
      : openPostgresStore(config.databaseUrl),
});
