// bench:sbom-enrich — the SBOM written back: the time to answer POST /api/v1/sbom?format=cyclonedx
// against the plain JSON answer of the same SBOM, measured in the same run (median of ROUNDS
// interleaved pairs), for the largest corpus CycloneDX JSON SBOM and the generated ~4 MB one.
import { fork } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logNotary } from '../src/operations/deps.js';
import { openSqliteStore } from '../src/storage/sqlite/open.js';
import { sbomBody } from './sbom-body.js';

const ROUNDS = Number(process.env.ROUNDS ?? 9);
const corpus = readFileSync(new URL('../test/corpus/cyclonedx/juice-shop-bare.1.4.json', import.meta.url), 'utf8');
const bodies: [string, string][] = [
  ['juice-shop-bare.1.4.json (corpus, 1,115 components)', corpus],
  ['generated (10,000 components)', sbomBody],
];

const dir = mkdtempSync(join(tmpdir(), 'tended-bench-sbom-enrich-'));
const store = await openSqliteStore(join(dir, 'tended.db'));
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const notary = logNotary('bench/log', privateKey, publicKey);
await store.initialiseLog(notary.seal);
// A fifth of each SBOM's npm packages held, as in bench:sbom: the rest are answered not observed.
const names = new Set<string>();
for (const [, body] of bodies)
  for (const m of body.matchAll(/"purl"\s*:\s*"pkg:npm\/([^@"]+)/g)) names.add(decodeURIComponent(m[1]!));
const held = [...names].filter((_, i) => i % 5 === 0);
await store.appendObservations(
  held.map((id) => ({
    component: { kind: 'npm' as const, id },
    observed_at: '2026-11-01T06:00:00Z',
    observation_date: '2026-11-01',
    state: 'alive' as const,
    source: `https://registry.npmjs.org/${id}`,
    evidence: { http_status: 200 },
    method: 'npm: latest publish and deprecation of latest',
    corrects: null,
  })),
  notary.seal,
);
await store.close();

// A port the OS says is free, handed to the server process.
const port = await new Promise<number>((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const p = (probe.address() as { port: number }).port;
    probe.close(() => resolve(p));
  });
});
const server = fork(new URL('./sbom-server.ts', import.meta.url).pathname, [String(port), join(dir, 'tended.db')], {
  execArgv: ['--import', 'tsx'],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
process.on('exit', () => server.kill());
await new Promise((resolve) => server.once('message', resolve));

async function post(query: string, body: string): Promise<number> {
  const t = performance.now();
  const response = await fetch(`http://127.0.0.1:${port}/api/v1/sbom${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/vnd.cyclonedx+json' },
    body,
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${query || 'JSON'}: ${response.status} ${text.slice(0, 200)}`);
  return performance.now() - t;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [name, body] of bodies) {
  // Warm-up: both paths loaded and compiled before anything is timed.
  for (let i = 0; i < 2; i++) {
    await post('', body);
    await post('?format=cyclonedx', body);
  }
  const plain: number[] = [];
  const enriched: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    plain.push(await post('', body));
    enriched.push(await post('?format=cyclonedx', body));
  }
  const [p, e] = [median(plain), median(enriched)];
  console.log(
    `${name}, ${(body.length / (1024 * 1024)).toFixed(2)} MB: JSON answer ${p.toFixed(0)} ms, ` +
      `?format=cyclonedx ${e.toFixed(0)} ms; ratio enriched/JSON = ${(e / p).toFixed(2)} (median of ${ROUNDS} interleaved pairs)`,
  );
}
server.kill();
rmSync(dir, { recursive: true, force: true });
