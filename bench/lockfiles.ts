// bench:lockfiles — a generated pnpm-lock.yaml (9.0) and package-lock.json (3) of ENTRIES packages
// (100,000 unless set), each with a dependency or two, parsed by Tended (parseManifest, as a
// request is) against the plain reader of the same text in the same run (`yaml`'s parse,
// JSON.parse): milliseconds, the ratio, and the peak memory each parse adds, each in a process of
// its own. No HTTP answer is timed: such a file (22–30 MB) is past the service's 4 MB body bound
// and answered 413 as it streams in; `tended check` parses it locally, as measured here.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { parseManifest } from '../src/operations/parse-submission.js';

const ENTRIES = Number(process.env.ENTRIES ?? 100_000);

function pnpmLock(n: number): string {
  const parts = [
    "lockfileVersion: '9.0'\n\nsettings:\n  autoInstallPeers: true\n  excludeLinksFromLockfile: false\n\nimporters:\n\n  .:\n    dependencies:\n",
  ];
  for (let i = 0; i < Math.min(n, 50); i += 1)
    parts.push(`      pkg-${i}:\n        specifier: ^1.0.0\n        version: 1.0.${i}\n`);
  parts.push('\npackages:\n\n');
  for (let i = 0; i < n; i += 1)
    parts.push(
      `  pkg-${i}@1.0.${i}:\n    resolution: {integrity: sha512-${'A'.repeat(86)}==}\n    engines: {node: '>=18'}\n\n`,
    );
  parts.push('snapshots:\n\n');
  for (let i = 0; i < n; i += 1) {
    const deps = [2 * i + 1, 2 * i + 2].filter((j) => j < n);
    parts.push(
      `  pkg-${i}@1.0.${i}:${deps.length === 0 ? ' {}\n' : `\n    dependencies:\n${deps.map((j) => `      pkg-${j}: 1.0.${j}\n`).join('')}`}\n`,
    );
  }
  return parts.join('');
}

function packageLock(n: number): string {
  const packages: Record<string, unknown> = {
    '': {
      name: 'bench',
      version: '1.0.0',
      dependencies: Object.fromEntries(Array.from({ length: Math.min(n, 50) }, (_, i) => [`pkg-${i}`, '^1.0.0'])),
    },
  };
  for (let i = 0; i < n; i += 1) {
    const deps = [2 * i + 1, 2 * i + 2].filter((j) => j < n);
    packages[`node_modules/pkg-${i}`] = {
      version: `1.0.${i}`,
      resolved: `https://registry.npmjs.org/pkg-${i}/-/pkg-${i}-1.0.${i}.tgz`,
      integrity: `sha512-${'A'.repeat(86)}==`,
      ...(deps.length > 0 ? { dependencies: Object.fromEntries(deps.map((j) => [`pkg-${j}`, '^1.0.0'])) } : {}),
    };
  }
  return JSON.stringify({ name: 'bench', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2);
}

/**
 * One parse in a process of its own, so neither parse's garbage is counted against the other: the
 * time, and the peak resident memory it added to a process that already holds the text (maxRSS,
 * the figure a server's memory graph shows; heapUsed before and after missed the peak and could
 * read negative when a collection ran inside the parse).
 */
function child(file: string, filename: string, which: 'plain' | 'tended'): void {
  const text = readFileSync(file, 'utf8');
  const baseline = process.resourceUsage().maxRSS;
  const start = performance.now();
  const parsed =
    which === 'tended'
      ? parseManifest(text, { filename }).references.length
      : filename.endsWith('.yaml')
        ? Object.keys((parseYaml(text, { uniqueKeys: false }) as { packages: object }).packages).length
        : Object.keys((JSON.parse(text) as { packages: object }).packages).length;
  const ms = performance.now() - start;
  const grownMb = (process.resourceUsage().maxRSS - baseline) / 1024;
  process.stdout.write(JSON.stringify({ ms, grownMb, parsed }));
}

function measure(label: string, file: string, filename: string, which: 'plain' | 'tended') {
  const run = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, '--child', file, filename, which], {
    encoding: 'utf8',
    maxBuffer: 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`${label} failed: ${run.stderr.slice(0, 2000)}`);
  const result = JSON.parse(run.stdout) as { ms: number; grownMb: number; parsed: number };
  console.log(
    `  ${label.padEnd(28)} ${result.ms.toFixed(0).padStart(7)} ms   peak memory +${result.grownMb.toFixed(0)} MB`,
  );
  return result;
}

if (process.argv[2] === '--child') {
  child(process.argv[3]!, process.argv[4]!, process.argv[5] as 'plain' | 'tended');
} else {
  const dir = mkdtempSync(join(tmpdir(), 'tended-bench-lockfiles-'));
  try {
    for (const [name, filename, text] of [
      ['package-lock.json v3', 'package-lock.json', packageLock(ENTRIES)],
      ['pnpm-lock.yaml 9.0', 'pnpm-lock.yaml', pnpmLock(ENTRIES)],
    ] as const) {
      const file = join(dir, filename);
      writeFileSync(file, text);
      console.log(`${name}: ${ENTRIES.toLocaleString('en')} packages, ${(text.length / (1024 * 1024)).toFixed(1)} MB`);
      const base = measure(filename.endsWith('.yaml') ? 'yaml parse' : 'JSON.parse', file, filename, 'plain');
      const ours = measure('Tended parseManifest', file, filename, 'tended');
      if (ours.parsed !== ENTRIES) throw new Error(`${name}: ${ours.parsed} references, expected ${ENTRIES}`);
      console.log(
        `  ratio ${(ours.ms / base.ms).toFixed(2)}× the plain parse's time, ${(ours.grownMb / Math.max(1, base.grownMb)).toFixed(2)}× its peak memory`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
