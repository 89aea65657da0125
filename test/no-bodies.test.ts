import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/operations/api-keys.js';
import type { CheckAnswer } from '../src/operations/check-components.js';
import { openSqliteStore } from '../src/storage/sqlite/open.js';
import { parsedAs } from './support/json.js';
import type { RpcAnswer, ToolCallResult } from './support/mcp-answers.js';
import { TENDED_MAIN as MAIN } from './support/tended-bin.js';

// "Bodies are never stored or logged": the real `serve` process, its log kept in a file as an
// operator would keep it, is sent manifests and SBOMs carrying a marker no other run could hold,
// in answers of every kind (200, 400, 413, 422); the marker is then looked for in the log and in
// every database file.

const HOST = '127.0.0.1';
const MARKER = `bodymarker${randomUUID().replaceAll('-', '')}`;
/** A string the store must hold: shows the search reads the database files at all. */
const KEY_LABEL = `keylabel${randomUUID().replaceAll('-', '')}`;

/**
 * One POST over loopback. `chunked` sends no Content-Length, so a body over the limit is read
 * until it passes the limit rather than refused from its declared length.
 */
function post(port: number, path: string, type: string, body: string, chunked = false) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const bytes = Buffer.from(body);
    const headers: Record<string, string | number> = { 'Content-Type': type };
    if (!chunked) headers['Content-Length'] = bytes.length;
    let answered = false;
    const req = request({ host: HOST, port, path, method: 'POST', headers }, (res) => {
      answered = true;
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    // A server that answers before the whole body is sent may close the socket under the writer.
    req.on('error', (error) => (answered ? undefined : reject(error)));
    if (chunked) {
      for (let at = 0; at < bytes.length; at += 64 * 1024) req.write(bytes.subarray(at, at + 64 * 1024));
      req.end();
    } else {
      req.end(bytes);
    }
  });
}

let dir: string;
let log = '';
const answers: Record<string, { status: number; text: string }> = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tended-nobodies-'));
  const store = await openSqliteStore(join(dir, 'tended.db'));
  await createApiKey(store, KEY_LABEL, new Date());
  await store.close();
  const logPath = join(dir, 'service.log');
  const logFd = openSync(logPath, 'w');
  // No Redis: in-process rate-limit buckets (nothing here is about them).
  const { REDIS_URL: _redis, ...inherited } = process.env;
  const child = spawn(process.execPath, [MAIN, 'serve'], {
    stdio: ['ignore', logFd, logFd],
    env: {
      ...inherited,
      DATABASE_URL: `sqlite:${join(dir, 'tended.db')}`,
      HOST,
      PORT: '0',
      TENDED_OBSERVER: 'off',
      TENDED_RATE_LIMIT_FREE: '1000',
    },
  });
  closeSync(logFd);
  try {
    const deadline = Date.now() + 25_000;
    while (!/listening on http:\/\/[^:]+:\d+/.test(log) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      log = readFileSync(logPath, 'utf8');
    }
    const port = Number(/listening on http:\/\/[^:]+:(\d+)/.exec(log)?.[1]);
    if (!port) throw new Error(`the server did not start: ${log}`);

    const M = MARKER;
    // Read and answered (200): the marker as component names and as the fields around them.
    answers.components = await post(
      port,
      '/api/v1/manifest',
      'application/json',
      JSON.stringify({
        components: [
          { name: `${M}-pkg`, kind: 'npm' },
          { name: `acme/${M}`, kind: 'github' },
        ],
      }),
    );
    answers.pasted = await post(
      port,
      '/api/v1/manifest',
      'application/json',
      JSON.stringify({
        filename: 'package.json',
        content: JSON.stringify({ name: M, description: `about ${M}`, dependencies: { [`${M}-dep`]: '^1.0.0' } }),
      }),
    );
    answers.requirements = await post(
      port,
      '/api/v1/manifest?format=requirements',
      'text/plain',
      `${M}==1.0\n# ${M} comment\n`,
    );
    answers.workflow = await post(
      port,
      '/api/v1/manifest',
      'application/json',
      JSON.stringify({
        filename: '.github/workflows/ci.yml',
        content: `name: ${M}\non: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ${M}/action@v1\n`,
      }),
    );
    answers.cyclonedx = await post(
      port,
      '/api/v1/sbom',
      'application/vnd.cyclonedx+json',
      JSON.stringify({
        bomFormat: 'CycloneDX',
        specVersion: '1.6',
        metadata: { component: { type: 'application', name: M } },
        components: [
          { type: 'library', name: M, version: '1.0.0', purl: `pkg:npm/${M}@1.0.0`, description: `the ${M}` },
        ],
      }),
    );
    // Refused (400, 422, 413): the error paths, where a body is likeliest to be echoed to a log.
    answers.malformed = await post(port, '/api/v1/manifest', 'application/json', `{"components": [{"name": "${M}`);
    answers.badKind = await post(
      port,
      '/api/v1/manifest',
      'application/json',
      JSON.stringify({ components: [{ name: M, kind: 'conan' }] }),
    );
    answers.badName = await post(
      port,
      '/api/v1/manifest',
      'application/json',
      JSON.stringify({ components: [{ name: `no slash ${M}`, kind: 'github' }] }),
    );
    answers.unreadableSbom = await post(port, '/api/v1/sbom', 'text/plain', `this is not an SBOM: ${M}`);
    const big = `${M}\n`.repeat(Math.ceil((4 * 1024 * 1024 + 1) / (M.length + 1)));
    answers.tooLargeDeclared = await post(port, '/api/v1/sbom', 'text/plain', big);
    answers.tooLargeChunked = await post(port, '/api/v1/manifest', 'text/plain', big, true);
    // The same bodies through the MCP endpoint's tools.
    const rpc = (id: number, name: string, args: object) =>
      post(
        port,
        '/mcp',
        'application/json',
        JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }),
      );
    answers.mcpSbom = await rpc(1, 'check_sbom', { content: `not an SBOM either: ${M}` });
    answers.mcpManifest = await rpc(2, 'check_manifest', { filename: 'requirements.txt', content: `${M}==2.0\n` });
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    log = readFileSync(logPath, 'utf8');
  }
}, 90_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('submitted bodies', () => {
  it('were really read: answered by what they held, on the success and the error paths', () => {
    expect(answers.components).toMatchObject({ status: 200 });
    expect(JSON.parse(answers.components!.text)).toMatchObject({ format: 'components', results_count: 2 });
    expect(answers.components!.text).toContain(`${MARKER}-pkg`);
    expect(answers.pasted!.status).toBe(200);
    expect(answers.pasted!.text).toContain(`${MARKER}-dep`);
    expect(answers.requirements!.status).toBe(200);
    expect(answers.requirements!.text).toContain(MARKER);
    expect(answers.workflow!.status).toBe(200);
    expect(answers.workflow!.text).toContain(`${MARKER}/action`);
    expect(answers.cyclonedx!.status).toBe(200);
    expect(JSON.parse(answers.cyclonedx!.text)).toMatchObject({ format: 'cyclonedx', results_count: 1 });
    expect(answers.malformed!.status).toBe(422);
    expect(answers.badKind!.status).toBe(422);
    expect(answers.badName!.status).toBe(422);
    expect(answers.unreadableSbom!.status).toBe(422);
    expect(answers.tooLargeDeclared!.status).toBe(413);
    expect(answers.tooLargeChunked!.status).toBe(413);
    expect(parsedAs<RpcAnswer>(answers.mcpSbom!.text).result).toMatchObject({ isError: true });
    expect(
      parsedAs<RpcAnswer<ToolCallResult<CheckAnswer>>>(answers.mcpManifest!.text).result!.structuredContent,
    ).toMatchObject({ results_count: 1 });
  });

  it('appear nowhere in the log or the database files', () => {
    expect(log).toMatch(/tended listening/);
    const files = readdirSync(dir).filter((f) => f.startsWith('tended.db'));
    expect(files).toContain('tended.db');
    const db = files.map((f) => readFileSync(join(dir, f)).toString('latin1')).join('\n');
    // The search does see what the store holds.
    expect(db).toContain(KEY_LABEL);
    for (const [name, text] of [
      ['log', log],
      ...files.map((f) => [f, readFileSync(join(dir, f)).toString('latin1')]),
    ] as const) {
      expect(text.includes(MARKER), `the marker in ${name}`).toBe(false);
      // Nor in the UTF-16 a database could hold text in.
      expect(
        Buffer.from(text, 'latin1').includes(Buffer.from(MARKER, 'utf16le')),
        `the marker in ${name} (UTF-16)`,
      ).toBe(false);
    }
  });
});
