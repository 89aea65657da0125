// npm run mcp:inspect — the MCP Inspector CLI (the protocol's own reference client) against the
// built service: lists the tools and calls one, and fails if either fails. It builds nothing:
// it serves dist/ (run `npm run build` first) over a small record the observer reads from the
// simulator, on a free loopback port. Needs the npm registry once, to fetch the Inspector.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoScenario } from '../src/simulator/demo.js';
import { upstreamEnv } from '../src/simulator/env.js';
import { startSimulator } from '../src/simulator/server.js';

const INSPECTOR = '@modelcontextprotocol/inspector@1.0.3';
const MAIN = new URL('../dist/main.js', import.meta.url).pathname;
if (!existsSync(MAIN)) {
  console.error('mcp:inspect serves dist/; run `npm run build` first.');
  process.exit(2);
}

const simulator = await startSimulator({ scenario: demoScenario(), clock: () => new Date() });
const dir = mkdtempSync(join(tmpdir(), 'tended-mcp-inspect-'));
const port = await freePort();
const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'tended.db')}`, TENDED_OBSERVER: 'off', PORT: String(port), HOST: '127.0.0.1', ...upstreamEnv(simulator.urls) };

function run(command: string, args: string[], extraEnv: NodeJS.ProcessEnv = env): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: extraEnv });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

/** The Inspector's JSON answer, shortened: the tool list to one line a tool, a call to its structured content. */
function summary(out: string): string {
  const start = out.indexOf('{');
  try {
    const answer = JSON.parse(out.slice(start));
    if (Array.isArray(answer.tools)) {
      return answer.tools.map((t: { name: string; title: string; annotations: object }) => `  ${t.name} — ${t.title} ${JSON.stringify(t.annotations)}`).join('\n');
    }
    return JSON.stringify({ isError: answer.isError ?? false, structuredContent: answer.structuredContent }, null, 2);
  } catch {
    return out.trim();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

let server: ReturnType<typeof spawn> | null = null;
let failed = false;
try {
  const observed = await run(process.execPath, [MAIN, 'observe', 'github', 'acme/rocket', 'npm', 'left-padded', 'docker', 'node:18-alpine']);
  if (observed.code !== 0) throw new Error(`observe failed:\n${observed.out}`);
  server = spawn(process.execPath, [MAIN, 'serve'], { env, stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/mcp`;
  for (let i = 0; i < 100 && !(await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false)); i++) await new Promise((r) => setTimeout(r, 100));

  const inspector = (args: string[]) => run('npx', ['-y', INSPECTOR, '--cli', url, '--transport', 'http', ...args], process.env);
  const steps: [string, string[], (out: string) => boolean][] = [
    ['tools/list', ['--method', 'tools/list'], (out) => ['check_component', 'get_series', 'prove_inclusion'].every((t) => out.includes(`"${t}"`))],
    [
      'tools/call check_component github acme/rocket',
      ['--method', 'tools/call', '--tool-name', 'check_component', '--tool-arg', 'kind=github', '--tool-arg', 'name=acme/rocket'],
      (out) => out.includes('"censoring_status"') && out.includes('"leaf_index"') && !/"isError":\s*true/.test(out),
    ],
  ];
  for (const [name, args, ok] of steps) {
    const result = await inspector(args);
    console.log(`$ npx ${INSPECTOR} --cli ${url} --transport http ${args.join(' ')}\n${summary(result.out)}\n`);
    if (result.code !== 0 || !ok(result.out)) {
      console.error(`mcp:inspect: ${name} failed (exit ${result.code})`);
      failed = true;
    }
  }
} catch (error) {
  console.error(`mcp:inspect: ${(error as Error).message}`);
  failed = true;
} finally {
  server?.kill('SIGTERM');
  await simulator.close();
  rmSync(dir, { recursive: true, force: true });
}
console.log(failed ? 'mcp:inspect: FAILED' : 'mcp:inspect: the Inspector listed the tools and called one');
process.exit(failed ? 1 : 0);
