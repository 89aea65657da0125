import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'threads',
    // Where the PostgreSQL suites run: TENDED_TEST_POSTGRES_URL, the machine's server, or a throw-away embedded one.
    globalSetup: ['test/support/postgres-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
