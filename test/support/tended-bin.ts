import { fileURLToPath } from 'node:url';

/**
 * The `tended` a test runs as a process: the built CLI, dist/main.js, as `npx tended` runs it for
 * a user, not the sources under tsx (which spent ~1.7 of every spawn's 2.5 s compiling them).
 * test/support/dist-setup.ts builds dist/ before the suites when a source is newer than it.
 */
export const TENDED_MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
