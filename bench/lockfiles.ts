// bench:lockfiles — a generated pnpm-lock.yaml (9.0) and package-lock.json (3) of ENTRIES packages
// (100,000 unless set), each with a dependency or two, parsed by Tended (parseManifest, as a
// request is) against the plain reader of the same text in the same run (`yaml`'s parse,
// JSON.parse): milliseconds, the ratio, and the heap each leaves grown (process.memoryUsage,
// after a collection when run with --expose-gc). The HTTP answer time is not measured here.
import { parse as parseYaml } from 'yaml';
import { parseManifest } from '../src/operations/parse-submission.js';

const ENTRIES = Number(process.env.ENTRIES ?? 100_000);
const gc = (globalThis as { gc?: () => void }).gc;

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

function measure(label: string, f: () => unknown): { ms: number; heapMb: number } {
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const start = performance.now();
  const kept = f();
  const ms = performance.now() - start;
  const heapMb = (process.memoryUsage().heapUsed - before) / (1024 * 1024);
  console.log(`  ${label.padEnd(28)} ${ms.toFixed(0).padStart(7)} ms   heap +${heapMb.toFixed(0)} MB`);
  if (kept === undefined) throw new Error('nothing parsed');
  return { ms, heapMb };
}

for (const [name, filename, text, plain] of [
  ['package-lock.json v3', 'package-lock.json', packageLock(ENTRIES), (t: string) => JSON.parse(t) as unknown],
  [
    'pnpm-lock.yaml 9.0',
    'pnpm-lock.yaml',
    pnpmLock(ENTRIES),
    (t: string) => parseYaml(t, { uniqueKeys: false }) as unknown,
  ],
] as const) {
  console.log(`${name}: ${ENTRIES.toLocaleString('en')} packages, ${(text.length / (1024 * 1024)).toFixed(1)} MB`);
  const base = measure(filename === 'pnpm-lock.yaml' ? 'yaml parse' : 'JSON.parse', () => plain(text));
  let references = 0;
  const ours = measure('Tended parseManifest', () => {
    const r = parseManifest(text, { filename });
    references = r.references.length;
    return r;
  });
  if (references !== ENTRIES) throw new Error(`${name}: ${references} references, expected ${ENTRIES}`);
  console.log(
    `  ratio ${(ours.ms / base.ms).toFixed(2)}× the plain parse's time, ${(ours.heapMb / Math.max(1, base.heapMb)).toFixed(2)}× its heap`,
  );
}
