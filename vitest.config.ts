import { defineConfig } from 'vitest/config';

/**
 * The suites that bound time itself (a parse's cost per MB, an answer's latency while hostile
 * requests run, a budget's pace): they run last, one file at a time and alone, so no neighbour's
 * work is measured as theirs.
 */
const TIMED = [
  'test/parse-timing.test.ts',
  'test/http-adversarial.test.ts',
  'test/mcp-adversarial.test.ts',
  'test/parse-pool.test.ts',
  'test/http-slow-uploads.test.ts',
  'test/huge-bodies.test.ts',
  'test/http-fairness.test.ts',
  'test/http-hardening.test.ts',
  'test/http-sitemap-index.test.ts',
  'test/regex-safety.test.ts',
  'test/followers-refused-pages.test.ts',
  'test/upstream-budget-sends.test.ts',
  'test/upstream-budgets.test.ts',
];

/**
 * Files this run leaves out (comma-separated): `.ci/run` runs each slow end-to-end file under one of
 * its two Node runs only, and names the other run's here (vitest's --exclude does not reach a
 * project with an exclude list of its own).
 */
const LEFT_TO_THE_OTHER_RUN = (process.env.TENDED_TEST_EXCLUDE ?? '').split(',').filter((f) => f !== '');

export default defineConfig({
  test: {
    pool: 'threads',
    // Where the PostgreSQL suites run (TENDED_TEST_POSTGRES_URL, the machine's server, or a throw-away
    // embedded one), and dist/ built for the suites that run `tended` as a process (tended-bin.ts).
    globalSetup: ['test/support/postgres-setup.ts', 'test/support/dist-setup.ts'],
    // The CLI suites spawn `tended` processes: on a loaded 2-core CI machine a test of six spawns took
    // 23 s, too near 30.
    testTimeout: 60_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'suites',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...TIMED, ...LEFT_TO_THE_OTHER_RUN],
          // Two files at a time on CI's 2 cores (vitest's default would leave one idle): most suites
          // wait on servers, child processes and PostgreSQL more than they compute.
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'timed',
          include: TIMED,
          exclude: LEFT_TO_THE_OTHER_RUN,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
