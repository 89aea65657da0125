import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Vitest global setup: the suites that run `tended` as a process run the built CLI
 * (test/support/tended-bin.ts), so dist/ must be what src/ says. CI builds it in `npm ci`
 * (`prepare`); on a developer's machine a source edited since the last build rebuilds it here,
 * once, before any suite starts: a test never runs yesterday's CLI.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (!/\.test\.tsx?$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function builtAt(): number {
  try {
    return statSync(join(ROOT, 'dist', 'main.js')).mtimeMs;
  } catch {
    return 0;
  }
}

export default function setup(): void {
  const sources = Math.max(
    newestSource(join(ROOT, 'src')),
    statSync(join(ROOT, 'tsconfig.json')).mtimeMs,
    statSync(join(ROOT, 'tsconfig.build.json')).mtimeMs,
  );
  if (builtAt() >= sources) return;
  console.log('dist/ is older than src/: building it (npm run build) for the suites that run tended as a process');
  execFileSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  );
}
