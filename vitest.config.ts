import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'threads',
    // Where the PostgreSQL suites run: TENDED_TEST_POSTGRES_URL, the machine's server, or a throw-away embedded one.
    globalSetup: ['test/support/postgres-setup.ts'],
    // The CLI suites spawn `tended` processes (each a few seconds through tsx): on a loaded 2-core CI machine
    // a test of six spawns took 23 s, too near 30.
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
