import { fileURLToPath } from 'node:url';

const PRELOAD = fileURLToPath(new URL('./clock-preload.mjs', import.meta.url));

/**
 * How to start a `tended` process (test/support/tended-bin.ts) whose clock reads `at` (`YYYY-MM-DD HH:MM:SS`, UTC) at
 * its start: the node arguments to put before the script, and the variable the preload reads.
 */
export function clockedNode(at: string): { args: string[]; env: { TENDED_TEST_CLOCK: string } } {
  const iso = /^\d{4}-\d{2}-\d{2}$/.test(at) ? `${at}T00:00:00Z` : `${at.replace(' ', 'T')}Z`;
  return { args: ['--import', PRELOAD], env: { TENDED_TEST_CLOCK: iso } };
}
