import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckAnswer } from '../src/operations/check-components.js';
import { MANIFEST_FORMAT_FILES, MANIFEST_FORMATS } from '../src/parsers/reference.js';
import type { HeadAnswer } from '../src/operations/read-chain.js';
import type { EntityAnswer, OrgAnswer } from '../src/operations/read-entity.js';
import { parsedAs } from './support/json.js';
import type { ComponentToolAnswer, InclusionToolAnswer } from './support/mcp-answers.js';
import { observedRecord, serveApp, TODAY, type ObservedRecord, type ServedApp } from './support/mcp-server.js';
import { stringContaining, stringMatching } from './support/matchers.js';

// The official SDK clients against the app served over loopback, answering from a record the
// observer filled from the simulator on three dates.

let record: ObservedRecord;
let served: ServedApp;

beforeAll(async () => {
  record = await observedRecord();
  served = await serveApp(record.deps);
});
afterAll(async () => {
  await served.close();
  await record.dispose();
});

const endpoint = () => new URL('/mcp', served.url);
/** The structured content of a tools/call answer, of the shape `T`, after checking its text block mirrors it. */
const structured = <T>(answer: object): T => {
  const result = answer as { content?: unknown; structuredContent?: unknown };
  // structuredContent is mirrored as a JSON text block: an agent that reads only text gets the same facts.
  const text = (result.content as { type: string; text: string }[]).find((c) => c.type === 'text')!.text;
  expect(parsedAs(text)).toEqual(result.structuredContent);
  return result.structuredContent as T;
};

/** Either SDK's callTool or listTools; `structured` reads the answers. */
type CallTool = (name: string, args: Record<string, unknown>) => Promise<object>;
type ListTools = () => Promise<{
  tools: {
    name: string;
    title?: string;
    description?: string;
    annotations?: unknown;
    inputSchema: unknown;
    outputSchema?: unknown;
  }[];
}>;

/** Lists the tools and checks each is read-only and fully described. */
async function listsReadOnlyTools(listTools: ListTools) {
  const { tools } = await listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(
    [
      'check_component',
      'check_manifest',
      'check_sbom',
      'get_chain_head',
      'get_org',
      'get_series',
      'prove_inclusion',
    ].sort(),
  );
  for (const t of tools) {
    expect(t.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(t.title).toBeTruthy();
    expect(t.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
    expect(t.outputSchema).toMatchObject({ type: 'object' });
  }
  // check_manifest's description and its `format` enum are written from one registry: every
  // format the enum offers is named in the description, by its files and by its format name.
  const manifest = tools.find((t) => t.name === 'check_manifest')!;
  const format = (manifest.inputSchema as { properties: { format: { enum: string[] } } }).properties.format;
  expect(format.enum).toEqual(MANIFEST_FORMATS);
  for (const f of MANIFEST_FORMATS) {
    expect(manifest.description).toContain(MANIFEST_FORMAT_FILES[f].files);
    expect(manifest.description).toMatch(new RegExp(`[ (]${f}[,)]`));
  }
}

/**
 * Calls every tool and checks each answer against the record. Both SDKs' callTool validate
 * structuredContent against each tool's outputSchema: these calls prove the schemas hold.
 */
async function callsEveryTool(callTool: CallTool) {
  const call = async <T>(name: string, args: Record<string, unknown>) => structured<T>(await callTool(name, args));
  const rocket = await call<ComponentToolAnswer>('check_component', { kind: 'github', name: 'acme/rocket' });
  expect(rocket).toMatchObject({
    purl: ['acme/rocket', 'pkg:github/acme/rocket'],
    state: 'archived',
    observation_date: TODAY,
    censoring_status: 'observed-on-date',
    source: stringContaining('/repos/acme/rocket'),
    license: 'CC-BY-4.0',
  });
  expect(rocket.leaf_index).toEqual(expect.any(Number));
  const earlier = await call<ComponentToolAnswer>('check_component', {
    kind: 'npm',
    name: 'left-padded',
    as_of: '2026-01-01',
  });
  expect(earlier).toMatchObject({
    as_of: '2026-01-01',
    observation_date: '2025-06-01',
    censoring_status: 'interval-censored',
  });
  // Issue 37: the successor Packagist's `abandoned` names is a field of the answer, in MCP as in the API;
  // a deprecation message that names no package (left-padded's "Use String.prototype.padStart()") gives none.
  const abandoned = await call<ComponentToolAnswer>('check_component', { kind: 'composer', name: 'acme/rocket-php' });
  expect(abandoned).toMatchObject({
    state: 'archived',
    observation_date: TODAY,
    successor: { kind: 'composer', name: 'acme/rocket-next' },
  });
  const padded = await call<ComponentToolAnswer>('check_component', { kind: 'npm', name: 'left-padded' });
  expect(padded).toMatchObject({ state: 'archived' });
  expect(padded).not.toHaveProperty('successor');
  const unheld = await call<ComponentToolAnswer>('check_component', { kind: 'pypi', name: 'never-watched' });
  expect(unheld).toMatchObject({
    state: 'not_observed',
    censoring_status: 'not-observed-at-date',
    observation_date: null,
    leaf_index: null,
  });
  // Issue 27 item 1: nothing was read, so the definition speaks of no check that met a failure.
  expect(unheld.state_definition).toMatch(/^not checked: /);
  expect(unheld.state_definition).not.toMatch(/403|429|time-out|network/);

  const manifest = await call<CheckAnswer>('check_manifest', {
    filename: 'requirements.txt',
    content: 'tiny-parser==1.0\nnever-watched>=2\n',
  });
  expect(manifest).toMatchObject({ format: 'requirements', results_count: 2, license: 'CC-BY-4.0' });
  expect(manifest.results.find((r) => r.input.name === 'tiny-parser')).toMatchObject({
    observation_date: TODAY,
    censoring_status: 'observed-on-date',
  });

  const bom = JSON.stringify({
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    components: [{ type: 'library', name: 'left-padded', version: '1.1.0', purl: 'pkg:npm/left-padded@1.1.0' }],
  });
  const sbom = await call<CheckAnswer>('check_sbom', { content: bom });
  expect(sbom).toMatchObject({ format: 'cyclonedx', results_count: 1 });
  expect(sbom.results[0]).toMatchObject({ purl: ['left-padded', 'pkg:npm/left-padded'], observation_date: TODAY });

  const series = await call<EntityAnswer>('get_series', { owner: 'acme', repo: 'rocket' });
  expect(series.series.map((r) => r.observation_date)).toEqual(['2025-06-01', '2026-01-10', TODAY]);
  expect(series.mutations.at(-1)).toMatchObject({
    to: 'archived',
    observed: TODAY,
    interval: { after: '2026-01-10', on_or_before: TODAY },
  });
  const pastSeries = await call<EntityAnswer>('get_series', { owner: 'acme', repo: 'rocket', as_of: '2026-01-10' });
  expect(pastSeries.series).toHaveLength(2);

  const org = await call<OrgAnswer>('get_org', { org: 'acme' });
  expect(org.components.map((c) => c.purl[0]).sort()).toEqual(['acme/rocket', 'acme/vanishing']);
  expect(org.components.find((c) => c.purl[0] === 'acme/vanishing')).toMatchObject({ state: 'deleted' });

  const head = await call<HeadAnswer>('get_chain_head', {});
  expect(head.tree_size).toBe(18);
  expect(head.checkpoint).toContain(`\n${head.tree_size}\n${head.root_hash}\n`);

  const proof = await call<InclusionToolAnswer>('prove_inclusion', { leaf_index: rocket.leaf_index });
  expect(proof).toMatchObject({
    index: rocket.leaf_index,
    size: head.tree_size,
    checkpoint: head.checkpoint,
    verifier_key: head.verifier_key,
  });
  expect(parsedAs(proof.leaf)).toMatchObject({ id: 'acme/rocket', observation_date: TODAY });
}

/**
 * The requests one connection made, from its initialize to its DELETE: exactly one GET (the
 * client's probe for a stream, answered 405, never polled), one DELETE, and the minted session
 * id and negotiated version echoed on everything after initialize.
 */
function oneConnection(mine: ServedApp['requests'], sessionId: string) {
  // The initialize POST is the last one without a session id (the v2 client in auto mode probes first).
  const initialize = mine.findLastIndex((r) => r.method === 'POST' && r.sessionId === null);
  expect(initialize).toBeGreaterThanOrEqual(0);
  const after = mine.slice(initialize + 1);
  expect(mine.filter((r) => r.method === 'GET')).toHaveLength(1);
  expect(mine.filter((r) => r.method === 'DELETE')).toHaveLength(1);
  expect(mine.at(-1)!.method).toBe('DELETE');
  expect(after.map((r) => r.sessionId)).toEqual(after.map(() => sessionId));
  expect(after.filter((r) => r.method === 'POST').every((r) => r.version === '2025-11-25')).toBe(true);
}

describe('the v1 SDK client (@modelcontextprotocol/sdk)', () => {
  it('connects, lists read-only tools, calls every tool, pings and terminates, with one GET per connection', async () => {
    const before = served.requests.length;
    const transport = new StreamableHTTPClientTransport(endpoint());
    const client = new Client({ name: 'tended-test', version: '0' });
    await client.connect(transport);
    const sessionId = transport.sessionId!;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.getServerVersion()).toMatchObject({ name: 'tended' });

    await listsReadOnlyTools(() => client.listTools());
    await callsEveryTool((name, args) => client.callTool({ name, arguments: args }));

    expect(await client.ping()).toEqual({});
    await transport.terminateSession();
    await client.close();

    const mine = served.requests.slice(before);
    expect(mine[0]).toMatchObject({ method: 'POST', sessionId: null });
    oneConnection(mine, sessionId);
  });

  it('makes no further request while idle: the GET is answered 405, never a stream to poll', async () => {
    const before = served.requests.length;
    const client = new Client({ name: 'tended-test', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(endpoint()));
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const mine = served.requests.slice(before);
    expect(mine.map((r) => r.method)).toEqual(['POST', 'POST', 'GET']);
    expect(mine[2]!.accept).toContain('text/event-stream');
    await client.close();
  });

  it('works with a made-up session id it never got from initialize', async () => {
    const transport = new StreamableHTTPClientTransport(endpoint(), { sessionId: 'made-up' });
    const client = new Client({ name: 'tended-test', version: '0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.length).toBe(7);
    const result = await client.callTool({ name: 'get_chain_head', arguments: {} });
    expect(result.isError).toBeFalsy();
    await transport.terminateSession();
    await client.close();
  });

  it('answers bad arguments with isError and a sentence, and an unknown tool with JSON-RPC -32602', async () => {
    const client = new Client({ name: 'tended-test', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(endpoint()));
    const badKind = await client.callTool({ name: 'check_component', arguments: { kind: 'conan', name: 'x' } });
    expect(badKind.isError).toBe(true);
    expect((badKind.content as { type: string; text: string }[])[0]!.text).toMatch(/kind/);
    const extra = await client.callTool({ name: 'get_chain_head', arguments: { verbose: true } });
    expect(extra.isError).toBe(true);
    expect((extra.content as { type: string; text: string }[])[0]!.text).toMatch(/verbose/);
    const future = await client.callTool({
      name: 'get_series',
      arguments: { owner: 'acme', repo: 'rocket', as_of: '2099-01-01' },
    });
    expect(future.isError).toBe(true);
    expect((future.content as { type: string; text: string }[])[0]!.text).toMatch(/as_of cannot be later than today/);
    const badName = await client.callTool({ name: 'check_component', arguments: { kind: 'github', name: 'no-slash' } });
    expect(badName.isError).toBe(true);
    expect((badName.content as { type: string; text: string }[])[0]!.text).toMatch(/owner\/repo/);
    const noLeaf = await client.callTool({ name: 'prove_inclusion', arguments: { leaf_index: 10_000 } });
    expect(noLeaf.isError).toBe(true);
    expect((noLeaf.content as { type: string; text: string }[])[0]!.text).toMatch(/18 leaves/);
    const unreadable = await client.callTool({ name: 'check_sbom', arguments: { content: 'hello' } });
    expect(unreadable.isError).toBe(true);
    expect((unreadable.content as { type: string; text: string }[])[0]!.text).toMatch(/CycloneDX/);
    await expect(client.callTool({ name: 'delete_everything', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });
});

describe('the v2 SDK client (@modelcontextprotocol/client) in auto version negotiation', () => {
  const connectV2 = async (transport: TransportV2) => {
    const client = new ClientV2({ name: 'tended-test-v2', version: '0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(transport);
    // The endpoint speaks the 2025-11-25 protocol: auto mode lands on the legacy handshake.
    expect(client.getProtocolEra()).toBe('legacy');
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    return client;
  };

  it('connects, lists read-only tools, calls every tool, pings and terminates, with one GET per connection', async () => {
    const before = served.requests.length;
    const transport = new TransportV2(endpoint());
    const client = await connectV2(transport);
    const sessionId = transport.sessionId!;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.getServerVersion()).toMatchObject({ name: 'tended' });

    await listsReadOnlyTools(() => client.listTools());
    await callsEveryTool((name, args) => client.callTool({ name, arguments: args }));
    const docker = structured<ComponentToolAnswer>(
      await client.callTool({ name: 'check_component', arguments: { kind: 'docker', name: 'node:18-alpine' } }),
    );
    expect(docker).toMatchObject({
      purl: ['docker.io/library/node:18-alpine', stringMatching(/^pkg:docker\//)],
      observation_date: TODAY,
    });

    expect(await client.ping()).toEqual({});
    await transport.terminateSession();
    await client.close();

    const mine = served.requests.slice(before);
    // Auto mode probes with a 2026-07-28 request first; the server does not speak it, so initialize follows.
    expect(mine.slice(0, 2)).toMatchObject([
      { method: 'POST', sessionId: null, version: '2026-07-28' },
      { method: 'POST', sessionId: null, version: null },
    ]);
    oneConnection(mine, sessionId);
  });

  it('makes no further request while idle: one GET, answered 405, never a stream to poll', async () => {
    const before = served.requests.length;
    const client = await connectV2(new TransportV2(endpoint()));
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const mine = served.requests.slice(before);
    // probe, initialize, notifications/initialized, then the one GET
    expect(mine.map((r) => r.method)).toEqual(['POST', 'POST', 'POST', 'GET']);
    expect(mine[3]!.accept).toContain('text/event-stream');
    await client.close();
  });

  it('works with a made-up session id it never got from initialize', async () => {
    const before = served.requests.length;
    const transport = new TransportV2(endpoint(), { sessionId: 'made-up' });
    const client = new ClientV2({ name: 'tended-test-v2', version: '0' }, { versionNegotiation: { mode: 'auto' } });
    // Given a session id, the client takes the session as already set up: no probe, no initialize.
    await client.connect(transport);
    // So it never learns the server's capabilities, and its listTools() answers [] without asking;
    // the request itself, over the made-up session, gets the full list from the server.
    const { tools } = await client.request({ method: 'tools/list' });
    expect(tools.map((t) => t.name)).toContain('get_chain_head');
    expect(tools).toHaveLength(7);
    const head = structured<HeadAnswer>(await client.callTool({ name: 'get_chain_head', arguments: {} }));
    expect(head.tree_size).toBe(18);
    const rocket = structured<ComponentToolAnswer>(
      await client.callTool({ name: 'check_component', arguments: { kind: 'github', name: 'acme/rocket' } }),
    );
    expect(rocket).toMatchObject({ state: 'archived', observation_date: TODAY });
    expect(await client.ping()).toEqual({});
    await transport.terminateSession();
    await client.close();

    const mine = served.requests.slice(before);
    expect(mine.every((r) => r.sessionId === 'made-up')).toBe(true);
    expect(mine.filter((r) => r.method === 'GET').length).toBeLessThanOrEqual(1);
    expect(mine.at(-1)!.method).toBe('DELETE');
  });
});
