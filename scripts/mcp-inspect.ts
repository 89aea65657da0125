// npm run mcp:inspect — the MCP Inspector CLI (the protocol's own reference client) against the
// built service: lists the tools and calls every one of them with valid arguments, and exits 1 if
// the list or any call fails, answers isError, or a listed tool has no call here. It builds nothing:
// it serves dist/ (run `npm run build` first) over a small record the observer reads from the
// simulator, on a free loopback port. Needs the npm registry once, to fetch the Inspector.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckAnswer } from '../src/operations/check-components.js';
import type { HeadAnswer } from '../src/operations/read-chain.js';
import type { EntityAnswer, OrgAnswer } from '../src/operations/read-entity.js';
import { demoScenario } from '../src/simulator/demo.js';
import { upstreamEnv } from '../src/simulator/env.js';
import { startSimulator } from '../src/simulator/server.js';
import type { ComponentToolAnswer, InclusionToolAnswer } from '../test/support/mcp-answers.js';

const INSPECTOR = '@modelcontextprotocol/inspector@1.0.3';

/** What the Inspector prints for tools/list, as far as this script reads it. */
interface ToolList {
  tools: { name: string; title: string; annotations: object }[];
}
/** What the Inspector prints for tools/call: the call's result, its structured content of the shape `T`. */
interface ToolCall<T> {
  isError?: boolean;
  structuredContent: T;
}
/** The Inspector's own `engines`: on an older Node it fails inside npx with no word of why. */
const INSPECTOR_NODE = [22, 7, 5] as const;
const running = process.versions.node.split('.').map(Number);
const older = INSPECTOR_NODE.findIndex((n, i) => running[i] !== n);
if (older !== -1 && running[older]! < INSPECTOR_NODE[older]!) {
  console.error(
    `mcp:inspect needs Node ${INSPECTOR_NODE.join('.')} or later (the MCP Inspector's requirement); this is Node ${process.versions.node}. ` +
      'The MCP client tests (npx vitest run test/mcp.test.ts) check the same tools with both SDK clients on any Node the service runs on.',
  );
  process.exit(2);
}
const MAIN = new URL('../dist/main.js', import.meta.url).pathname;
if (!existsSync(MAIN)) {
  console.error('mcp:inspect serves dist/; run `npm run build` first.');
  process.exit(2);
}

const simulator = await startSimulator({ scenario: demoScenario(), clock: () => new Date() });
const dir = mkdtempSync(join(tmpdir(), 'tended-mcp-inspect-'));
const port = await freePort();
const env = {
  ...process.env,
  DATABASE_URL: `sqlite:${join(dir, 'tended.db')}`,
  TENDED_OBSERVER: 'off',
  PORT: String(port),
  HOST: '127.0.0.1',
  ...upstreamEnv(simulator.urls),
};

function run(
  command: string,
  args: string[],
  extraEnv: NodeJS.ProcessEnv = env,
): Promise<{ code: number | null; out: string }> {
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
    const answer = JSON.parse(out.slice(start)) as Partial<ToolList & ToolCall<unknown>>;
    if (Array.isArray(answer.tools)) {
      return answer.tools
        .map(
          (t: { name: string; title: string; annotations: object }) =>
            `  ${t.name} — ${t.title} ${JSON.stringify(t.annotations)}`,
        )
        .join('\n');
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
  const observed = await run(process.execPath, [
    MAIN,
    'observe',
    'github',
    'acme/rocket',
    'npm',
    'left-padded',
    'docker',
    'node:18-alpine',
  ]);
  if (observed.code !== 0) throw new Error(`observe failed:\n${observed.out}`);
  server = spawn(process.execPath, [MAIN, 'serve'], { env, stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/mcp`;
  for (
    let i = 0;
    i < 100 &&
    !(await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    ));
    i++
  )
    await new Promise((r) => setTimeout(r, 100));

  const inspector = (args: string[]) =>
    run('npx', ['-y', INSPECTOR, '--cli', url, '--transport', 'http', ...args], process.env);
  /** The Inspector's JSON answer, or null when it printed none. */
  const answer = <A>(out: string): A | null => {
    try {
      return JSON.parse(out.slice(out.indexOf('{'))) as A;
    } catch {
      return null;
    }
  };
  // The Inspector JSON-parses each --tool-arg value before it looks at the tool's schema, so a
  // string that is itself JSON (a manifest, an SBOM) goes in JSON-encoded once more.
  const text = (value: string) => JSON.stringify(value);
  const step = async <A>(name: string, args: string[], ok: (answer: A) => boolean) => {
    const result = await inspector(args);
    console.log(`$ npx ${INSPECTOR} --cli ${url} --transport http ${args.join(' ')}\n${summary(result.out)}\n`);
    const parsed = answer<A>(result.out);
    let passed: boolean;
    try {
      passed = result.code === 0 && parsed !== null && ok(parsed);
    } catch {
      passed = false;
    }
    if (!passed) {
      console.error(`mcp:inspect: ${name} failed (exit ${result.code})`);
      failed = true;
    }
    return parsed;
  };
  const called = new Set<string>();
  const call = <T>(tool: string, args: Record<string, string>, ok: (structured: T) => boolean) => {
    called.add(tool);
    const flags = Object.entries(args).flatMap(([k, v]) => ['--tool-arg', `${k}=${v}`]);
    return step<ToolCall<T>>(
      `tools/call ${tool}`,
      ['--method', 'tools/call', '--tool-name', tool, ...flags],
      (a) => a.isError !== true && ok(a.structuredContent),
    ).then((a) => a?.structuredContent);
  };

  const listed = await step<ToolList>(
    'tools/list',
    ['--method', 'tools/list'],
    (a) => Array.isArray(a.tools) && a.tools.length > 0,
  );
  const names: string[] = (listed?.tools ?? []).map((t) => t.name);

  const rocket = await call<ComponentToolAnswer>(
    'check_component',
    { kind: 'github', name: 'acme/rocket' },
    (r) => r.censoring_status === 'observed-on-date' && Number.isInteger(r.leaf_index),
  );
  await call<CheckAnswer>(
    'check_manifest',
    { filename: 'package.json', content: text(JSON.stringify({ dependencies: { 'left-padded': '^1.0.0' } })) },
    (r) => r.results_count === 1 && r.results[0]!.observation_date !== null,
  );
  const bom = {
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    components: [{ type: 'library', name: 'left-padded', version: '1.1.0', purl: 'pkg:npm/left-padded@1.1.0' }],
  };
  await call<CheckAnswer>(
    'check_sbom',
    { content: text(JSON.stringify(bom)) },
    (r) => r.format === 'cyclonedx' && r.results_count === 1 && r.results[0]!.observation_date !== null,
  );
  await call<EntityAnswer>('get_series', { owner: 'acme', repo: 'rocket' }, (r) => r.series.length >= 1);
  await call<OrgAnswer>('get_org', { org: 'acme' }, (r) => r.components.some((c) => c.purl[0] === 'acme/rocket'));
  const head = await call<HeadAnswer>(
    'get_chain_head',
    {},
    (r) => Number.isInteger(r.tree_size) && r.tree_size > 0 && typeof r.checkpoint === 'string',
  );
  await call<InclusionToolAnswer>(
    'prove_inclusion',
    { leaf_index: String(rocket?.leaf_index ?? 0) },
    (r) => r.index === rocket?.leaf_index && r.size === head?.tree_size,
  );

  const uncalled = names.filter((n) => !called.has(n));
  const unlisted = [...called].filter((n) => !names.includes(n));
  if (uncalled.length > 0 || unlisted.length > 0) {
    console.error(
      `mcp:inspect: listed but not called here: [${uncalled.join(', ')}]; called but not listed: [${unlisted.join(', ')}]`,
    );
    failed = true;
  }
} catch (error) {
  console.error(`mcp:inspect: ${(error as Error).message}`);
  failed = true;
} finally {
  server?.kill('SIGTERM');
  await simulator.close();
  rmSync(dir, { recursive: true, force: true });
}
console.log(failed ? 'mcp:inspect: FAILED' : 'mcp:inspect: the Inspector listed the tools and called every one');
process.exit(failed ? 1 : 0);
