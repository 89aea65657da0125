/**
 * Builds the GitHub Action's one file, action/dist/index.js, from action/main.ts: `npm run
 * build:action`. The bundle is committed (a JavaScript action runs from the checkout of its
 * repository, with no install step), and test/action.test.ts fails when it is stale.
 */
import { build } from 'esbuild';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BUNDLE = fileURLToPath(new URL('./dist/index.js', import.meta.url));

/** The bundle's text, the same on every machine for the same sources and esbuild version. */
export async function bundleAction(): Promise<string> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ['action/main.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    // The runner's runtime is node24 (action.yml); node20 keeps the bundle runnable by the tests here too.
    target: 'node20',
    // node_modules may be a link (a worktree's); the paths in the bundle's comments then stay the
    // same on every machine, so the staleness test compares like with like.
    preserveSymlinks: true,
    // CommonJS dependencies (npm-package-arg) require Node's built-ins; an ESM bundle has no `require`.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
    },
    legalComments: 'eof',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(BUNDLE, await bundleAction());
  console.log(`wrote ${BUNDLE}`);
}
