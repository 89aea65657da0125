/**
 * The README and docs/ against the code they describe (issue 27 item 6): every list of kinds the
 * docs give as "the kinds" names the kinds the code knows, every route they document is served and
 * every route served is documented, the README's example answer is what the demo record answers,
 * the demo's component count is the scenario's, and nothing cites a document a reader of the
 * repository does not have. docs-links.test.ts beside this one checks the links.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_LIST } from '../src/api/mcp-tools.js';
import { PASS_OPTIONS } from '../src/cli/record.js';
import { runCli } from '../src/cli/run.js';
import type { CliWiring } from '../src/cli/wiring.js';
import { COMPONENT_KINDS } from '../src/domain/component.js';
import { NOT_CHECKED, NOT_CHECKED_MEANING, STATE_DEFINITIONS, STATES } from '../src/domain/state.js';
import { build } from '../src/http/app.js';
import { observeDue } from '../src/operations/observe.js';
import { demoScenario } from '../src/simulator/demo.js';
import { startHarness, type Harness } from '../src/simulator/harness.js';
import { scenarioComponents } from '../src/simulator/scenario.js';
import { parsedAs } from './support/json.js';
import { fixedClock, recordDeps, sqliteTestStore, testNotary, type TestStore } from './support/record.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).flatMap((f) => (f.endsWith('.md') ? [`docs/${f}`] : []))];
const KINDS = [...COMPONENT_KINDS].sort();
const NUMBER_WORDS = 'zero one two three four five six seven eight nine ten eleven twelve thirteen'.split(' ');

/**
 * The lists a text gives as "the kinds": "`kind` one of …" up to the next `;`, and "`KIND`: …" or
 * "KIND: …" up to the next `)`, each as its sorted words.
 */
function kindLists(text: string): string[][] {
  const lists: string[][] = [];
  for (const m of text.matchAll(/`kind` one of([^;]*);|\(`?KIND`?:([^)]*)\)/g)) {
    const words = (m[1] ?? m[2]!).replaceAll('`', '').match(/[a-z]+/g) ?? [];
    lists.push(words.sort());
  }
  return lists;
}

/** A route written without its optional parts: `/api/v1/entity/{owner}/{repo}[?as_of=…]` → `/api/v1/entity/{owner}/{repo}`. */
function withoutOptional(route: string): string {
  let out = '';
  let depth = 0;
  for (const c of route) {
    if (c === '[') depth += 1;
    else if (c === ']') depth -= 1;
    else if (depth === 0) out += c;
  }
  return out;
}

/** A path template as a pattern: each `{param}` matches itself or an example value (`/api/v1/exports/tended-2025-07-15.jsonl`). */
function templatePattern(template: string): string {
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  let out = '';
  let at = 0;
  for (let open = template.indexOf('{'); open !== -1; open = template.indexOf('{', at)) {
    const close = template.indexOf('}', open);
    out += `${escape(template.slice(at, open))}(?:\\{[a-z_]+\\}|[^\\s\`?#)]+)`;
    at = close + 1;
  }
  return out + escape(template.slice(at));
}

/** The service over an empty record, its upstreams the simulator's. */
async function emptyService(t: TestStore, harness: Harness): Promise<ReturnType<typeof build>> {
  const deps = recordDeps(t.store);
  await t.store.initialiseLog(deps.notary.seal);
  return build({ ...deps, sources: harness.sources, logError: () => undefined });
}

/** What `tended <args>` prints, from the CLI's own code. */
async function cliOutput(args: string[]): Promise<string> {
  let out = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      out += chunk.toString();
      done();
    },
  });
  const wiring: CliWiring = {
    openStore: () => Promise.reject(new Error('help opens no store')),
    env: {},
    stdout: sink,
    stderr: sink,
  };
  await runCli(args, wiring);
  return out;
}

describe('kind lists in the docs, `tended help` and the MCP tools', () => {
  it('name every kind the code knows, wherever a list is given as the kinds', async () => {
    const found: { where: string; kinds: string[] }[] = [];
    for (const path of DOCS) for (const kinds of kindLists(read(path))) found.push({ where: path, kinds });
    for (const kinds of kindLists(await cliOutput(['help']))) found.push({ where: 'tended help', kinds });
    // api.md's fact routes, cli.md's `watch add` and `tended help`'s watch: finding fewer means the reader broke.
    expect(found.map((f) => f.where)).toEqual(expect.arrayContaining(['docs/api.md', 'docs/cli.md', 'tended help']));
    for (const { where, kinds } of found) expect(kinds, where).toEqual(KINDS);
  });

  it('count the kinds in words as the code counts them', () => {
    for (const path of DOCS) {
      for (const m of read(path).matchAll(/\b([a-z]+) kinds\b/g)) {
        const n = NUMBER_WORDS.indexOf(m[1]!);
        if (n !== -1) expect(n, `${path}: "${m[0]}"`).toBe(KINDS.length);
      }
    }
  });

  it('list every kind in the methodology’s table of what each kind is read from', () => {
    const text = read('docs/methodology.md');
    const table = text.slice(text.indexOf('### What each kind is read from'));
    const rows = table.slice(0, table.indexOf('\n\n', table.indexOf('|'))).split('\n');
    const kinds = rows.flatMap((row) => /^\| `([a-z]+)`/.exec(row)?.[1] ?? []).sort();
    expect(kinds).toEqual(KINDS);
  });

  it('describe every kind in the MCP check_component tool', () => {
    const tool = TOOL_LIST.find((t) => t.name === 'check_component')!;
    const kind = (tool.inputSchema['properties'] as { kind: { description: string } }).kind.description;
    for (const k of KINDS) expect(kind, k).toMatch(new RegExp(`\\b${k}\\b`));
    const registries = ['GitHub', 'npm', 'PyPI', 'Maven', 'Go', 'crates.io', 'NuGet', 'RubyGems', 'Packagist'];
    for (const word of [...registries, 'container image', 'distribution release'])
      expect(tool.description, word).toContain(word);
  });

  it('name every MCP tool in api.md', () => {
    const text = read('docs/api.md');
    const sentence = text.slice(text.indexOf('Tools: '), text.indexOf('\n\n', text.indexOf('Tools: ')));
    const named = [...sentence.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!);
    expect(named.sort()).toEqual(TOOL_LIST.map((t) => t.name).sort());
  });
});

describe('routes in docs/api.md', () => {
  let t: TestStore;
  let harness: Harness;
  let app: ReturnType<typeof build>;
  let paths: Record<string, Record<string, unknown>>;
  beforeAll(async () => {
    t = await sqliteTestStore();
    harness = await startHarness({ scenario: demoScenario(), today: '2026-11-22' });
    app = await emptyService(t, harness);
    paths = parsedAs<{ paths: typeof paths }>(await (await app.request('/api/v1/docs')).text()).paths;
  });
  afterAll(async () => {
    await harness.close();
    await t.dispose();
  });

  /** The routes api.md names as `METHOD /path`, alternatives `{a|b}` spelt out, `[…]` and queries left off. */
  function documentedRoutes(): { method: string; path: string }[] {
    const routes: { method: string; path: string }[] = [];
    for (const m of read('docs/api.md').matchAll(/`(GET|POST|DELETE) (\/[^`\s]*)`/g)) {
      const path = withoutOptional(m[2]!).split('?')[0]!;
      // One segment may offer alternatives: /v1/{trust_score|schema_history|dependency_risk}/….
      const segments = path.split('/');
      const choice = segments.findIndex((s) => s.startsWith('{') && s.includes('|'));
      const spelt =
        choice === -1
          ? [path]
          : segments[choice]!.slice(1, -1)
              .split('|')
              .map((c) => segments.with(choice, c).join('/'));
      for (const p of spelt) routes.push({ method: m[1]!, path: p });
    }
    return routes;
  }

  it('every route documented is served', async () => {
    const routes = documentedRoutes();
    expect(routes.length).toBeGreaterThan(20);
    for (const { method, path } of routes) {
      if (paths[path]?.[method.toLowerCase()] !== undefined) continue;
      // Routes outside the API description (the description itself): served, not a 404.
      const answer = await app.request(path, { method });
      expect(answer.status, `${method} ${path} is neither described nor served`).not.toBe(404);
    }
  });

  it('every route served is documented, as a template or an example', () => {
    const text = read('docs/api.md');
    for (const path of Object.keys(paths)) {
      expect(text, path).toMatch(new RegExp(`${templatePattern(path)}(?![\\w/])`));
    }
  });

  it('every `kind` path parameter of the API description names every kind', () => {
    let seen = 0;
    for (const [path, operations] of Object.entries(paths)) {
      for (const operation of Object.values(operations) as {
        parameters?: { name: string; in: string; description?: string }[];
      }[]) {
        for (const p of operation.parameters ?? []) {
          if (p.name !== 'kind' || p.in !== 'path') continue;
          seen += 1;
          for (const k of KINDS) expect(p.description ?? '', `${path}: ${k}`).toMatch(new RegExp(`\\b${k}\\b`));
        }
      }
    }
    expect(seen).toBeGreaterThanOrEqual(5);
  });

  it('the 422 example for a kind the code does not know is the answer the code gives', async () => {
    const text = read('docs/api.md');
    const example = /^(\{"detail":\[\{"loc":\["path","kind"\].*)$/m.exec(text)![1]!;
    const answer = await (await app.request('/v1/trust_score/conan/openssl')).text();
    expect(parsedAs(answer)).toEqual(parsedAs(example));
  });
});

describe('the demo in the README and development.md', () => {
  const components = scenarioComponents(demoScenario()).length;

  it('says how many components the demo watches', () => {
    const said = DOCS.flatMap((path) =>
      [...read(path).matchAll(/(?:watches its|simulated upstreams,) (\S+) components/g)].map((m) => ({
        path,
        count: m[1]!,
      })),
    );
    expect(said.map((s) => s.path)).toEqual(expect.arrayContaining(['README.md', 'docs/development.md']));
    for (const { path, count } of said) expect(count, path).toBe(String(components));
  });

  it("answers the README's example as the README shows it", async () => {
    const text = read('README.md');
    const curl = "curl 'http://127.0.0.1:8080/api/v1/entity/acme/rocket?as_of=2025-07-01'";
    expect(text).toContain(curl);
    const block = text.slice(text.indexOf('```json', text.indexOf(curl)) + '```json'.length);
    const shown = parsedAs<Record<string, unknown>>(block.slice(0, block.indexOf('```')));

    // The demo's record as `npm run demo` fills it up to its second pass: every component watched
    // at 06:00 on its first date, then `observe --once` at 08:00 on each date.
    const t = await sqliteTestStore();
    try {
      const scenario = demoScenario();
      const notary = testNotary();
      const clock = fixedClock('2025-01-15T06:00:00Z');
      await t.store.initialiseLog(notary.seal);
      await t.store.watchAdd(scenarioComponents(scenario), clock.now().toISOString());
      let answer: Record<string, unknown> = {};
      for (const day of ['2025-01-15', '2025-04-15']) {
        // The service's own patience, not a unit test's 300 ms: a read timed out under load is not the demo's record.
        const harness = await startHarness({ scenario, today: day, timeoutMs: 10_000 });
        try {
          clock.set(`${day}T08:00:00Z`);
          const deps = { store: t.store, notary, clock, sources: harness.sources };
          expect(await observeDue(deps, { ...PASS_OPTIONS })).toMatchObject({ failed: 0 });
          if (day !== '2025-04-15') continue;
          clock.set('2025-07-02T12:00:00Z');
          const app = build({ ...deps, logError: () => undefined });
          answer = parsedAs(await (await app.request('/api/v1/entity/acme/rocket?as_of=2025-07-01')).text());
        } finally {
          await harness.close();
        }
      }
      // The simulator's address differs from run to run; "…" in the README stands for evidence left out.
      const origin = (s: unknown) => String(s).replace(/^http:\/\/127\.0\.0\.1:\d+/, 'http://127.0.0.1:PORT');
      const { '…': _, ...evidence } = shown['evidence'] as Record<string, unknown>;
      expect(Object.keys(shown)).toEqual(Object.keys(answer));
      expect({ ...shown, source: origin(shown['source']), evidence }).toEqual({
        ...answer,
        source: origin(answer['source']),
        evidence: Object.fromEntries(
          Object.keys(evidence).map((k) => [k, (answer['evidence'] as Record<string, unknown>)[k]]),
        ),
      });
    } finally {
      await t.dispose();
    }
  });
});

describe('citations', () => {
  // DESIGN.md and the interface specification are not in the repository: a reader cannot follow "DESIGN §3".
  const UNREADABLE = /DESIGN(?:\.md)?\s*§|\bspec(?:ification)?\s*§|interface spec\b/i;

  it('the README and docs/ cite no document the repository does not hold', () => {
    for (const path of DOCS) {
      read(path)
        .split('\n')
        .forEach((line, i) => expect(line, `${path}:${i + 1}`).not.toMatch(UNREADABLE));
    }
  });

  it('the pages and the API description cite none either', async () => {
    const t = await sqliteTestStore();
    const harness = await startHarness({ scenario: demoScenario(), today: '2026-11-22' });
    try {
      const app = await emptyService(t, harness);
      for (const path of ['/', '/methodology', '/terms', '/separation', '/verify', '/api/v1/docs', '/llms.txt']) {
        const answer = await app.request(path, { headers: { accept: 'text/html' } });
        expect(await answer.text(), path).not.toMatch(UNREADABLE);
      }
    } finally {
      await harness.close();
      await t.dispose();
    }
  });
});

// Issue 36 item 11: llms.txt is what a language model reads of the service; it must name routes that
// are served and say what each state means in the words the API uses.
describe('llms.txt', () => {
  let t: TestStore;
  let harness: Harness;
  let app: ReturnType<typeof build>;
  beforeAll(async () => {
    t = await sqliteTestStore();
    harness = await startHarness({ scenario: demoScenario(), today: '2026-11-22' });
    app = await emptyService(t, harness);
  });
  afterAll(async () => {
    await harness.close();
    await t.dispose();
  });

  it('names only routes the service serves, the trust facts and the badge among them', async () => {
    const text = await (await app.request('/llms.txt')).text();
    const routes = [...text.matchAll(/(GET|POST) (\/[^\s:?,]+)/g)].map((m) => [m[1]!, m[2]!] as const);
    expect(routes.map(([, path]) => path)).toEqual(
      expect.arrayContaining(['/v1/trust_score/{kind}/{id}', '/badge/{kind}/{id}.svg']),
    );
    for (const [method, template] of routes) {
      // A template filled with names the demo holds; an unknown address is a 404, a served one never is.
      const path = template
        .replace('{kind}/{id}', 'npm/left-padded')
        .replace('{owner}/{repo}', 'acme/rocket')
        .replace('{org}', 'acme')
        .replace('{index}', '0');
      const answer = await app.request(path, {
        method,
        headers: { 'content-type': 'application/json' },
        body: method === 'POST' ? '{}' : undefined,
      });
      expect(answer.status, `${method} ${path}`).not.toBe(404);
    }
  });

  it('glosses every state with the definition the API answers with, and tells "not checked" from a failed read', async () => {
    const text = await (await app.request('/llms.txt')).text();
    for (const state of STATES) expect(text).toContain(`${state} (${STATE_DEFINITIONS[state]})`);
    expect(text).toContain(`${NOT_CHECKED}: ${NOT_CHECKED_MEANING}`);
    expect(text).not.toMatch(/not_observed \(the check failed/);
  });
});
