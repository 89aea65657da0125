/**
 * docs/api.md against the code (issue 36 item 9): each row of its error table is the status and
 * the body shape a request of that kind gets, and every JSON example in it parses and names only
 * fields the OpenAPI document gives the route it was taken from.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { build } from '../src/http/app.js';
import type { RateLimiter } from '../src/limits/limiter.js';
import { limitedApp } from './support/limits.js';
import { parsedAs } from './support/json.js';
import { recordDeps, sqliteTestStore, type TestStore } from './support/record.js';

const API_MD = readFileSync(fileURLToPath(new URL('../docs/api.md', import.meta.url)), 'utf8');

type Shape = 'list' | 'sentence' | 'image';
interface Row {
  statuses: number[];
  when: string;
  shape: Shape;
}

/** The rows of the table under "## Errors": statuses, when, and the body's shape. */
function errorTable(): Row[] {
  const section = API_MD.slice(API_MD.indexOf('## Errors'));
  const table = section.slice(section.indexOf('| status |'), section.indexOf('\n\n', section.indexOf('| status |')));
  return table
    .split('\n')
    .slice(2)
    .map((line) => {
      const [statuses, when, body] = line.split(' | ').map((cell) => cell.replace(/^\| ?| ?\|$/g, ''));
      const shape: Shape = body!.includes('[{"loc"')
        ? 'list'
        : body!.includes('"<sentence>"')
          ? 'sentence'
          : body!.includes('image')
            ? 'image'
            : (() => {
                throw new Error(`the error table's row for ${statuses} names no body shape: ${body}`);
              })();
      return { statuses: statuses!.split(',').map((s) => Number(s.trim())), when: when!, shape };
    });
}

let t: TestStore;
let app: ReturnType<typeof build>;
let tight: ReturnType<typeof build>;
const limiters: RateLimiter[] = [];

beforeAll(async () => {
  t = await sqliteTestStore();
  await t.store.initialiseLog(recordDeps(t.store).notary.seal);
  const roomy = limitedApp(t.store, { free: 100_000 });
  const spent = limitedApp(t.store, { free: 1 });
  limiters.push(roomy.limiter, spent.limiter);
  app = roomy.app;
  tight = spent.app;
});
afterAll(async () => {
  for (const l of limiters) await l.close();
  await t.dispose();
});

const post = (path: string, body: string, type: string) =>
  app.request(path, { method: 'POST', body, headers: { 'content-type': type } });

/** Requests that get each status the table lists, as a user would send them. */
const REQUESTS: Record<number, (() => Response | Promise<Response>)[]> = {
  422: [
    () => app.request('/api/v1/entity/acme/rocket?as_of=2025-02-30'),
    () => app.request('/v1/trust_score/conan/openssl'),
    () => post('/api/v1/manifest', '{"components": [', 'application/json'),
    () => post('/api/v1/manifest', '', 'application/json'),
    () => post('/api/v1/manifest', '', 'text/plain'),
    () => post('/api/v1/sbom', '', 'application/vnd.cyclonedx+json'),
    () => post('/api/v1/dispute', '{"kind":', 'application/json'),
    () => post('/api/v1/dispute', '{}', 'application/json'),
  ],
  400: [
    () =>
      app.request('/api/v1/entity/acme/rocket', { method: 'DELETE', body: 'x', headers: { 'content-length': '1' } }),
    () => app.request('/badge/npm/Bad%20Name.svg'),
  ],
  401: [() => app.request('/api/v1/entity/acme/rocket', { headers: { 'X-API-Key': 'definitely-not-a-key' } })],
  404: [() => app.request('/api/v1/nothing-here'), () => app.request('/badge/conan/openssl.svg')],
  405: [() => app.request('/api/v1/entity/acme/rocket', { method: 'DELETE' })],
  413: [() => post('/api/v1/sbom', ' '.repeat(5_600_000), 'application/vnd.cyclonedx+json')],
  415: [() => post('/api/v1/manifest', 'x', 'image/png')],
  429: [
    async () => {
      await tight.request('/healthz');
      return tight.request('/healthz');
    },
  ],
};

/**
 * Statuses a request in this file cannot bring about cheaply (a slow upload, an upstream re-read,
 * a database going away): the suite that sends each, which checks its status and sentence.
 */
const ELSEWHERE: Record<number, string> = {
  408: 'test/http-slow-uploads.test.ts',
  409: 'test/http-record.test.ts',
  503: 'test/faults.test.ts',
};

describe("docs/api.md's error table", () => {
  const rows = errorTable();

  it('lists the statuses the API answers errors with', () => {
    const listed = [...new Set(rows.flatMap((r) => r.statuses))].sort();
    expect(listed).toEqual([...Object.keys(REQUESTS), ...Object.keys(ELSEWHERE)].map(Number).sort());
    for (const [status, file] of Object.entries(ELSEWHERE))
      expect(readFileSync(fileURLToPath(new URL(`../${file}`, import.meta.url)), 'utf8')).toContain(status);
  });

  it('is the status and the body shape each request gets', async () => {
    for (const row of rows) {
      const answers = (
        await Promise.all(row.statuses.flatMap((s) => REQUESTS[s] ?? []).map(async (r) => await r()))
      ).filter((a) => row.statuses.includes(a.status));
      if (row.statuses.every((s) => s in ELSEWHERE)) continue;
      expect(answers.length, `a request gets ${row.statuses.join(', ')}`).toBeGreaterThan(0);
      for (const answer of answers) {
        const type = answer.headers.get('content-type') ?? '';
        const isImage = type.startsWith('image/') || (type.includes('json') && answer.url.includes('/badge/'));
        if (row.shape === 'image') {
          // Only the badge requests belong to the image row; the others are checked by their own row.
          if (!isImage) continue;
          expect(type).toMatch(/^image\/svg\+xml/);
          continue;
        }
        if (isImage) continue;
        expect(type).toMatch(/^application\/json/);
        const body = parsedAs<{ detail: unknown }>(await answer.text());
        if (row.shape === 'list') {
          expect(Array.isArray(body.detail), `${answer.status}: ${JSON.stringify(body)}`).toBe(true);
          for (const issue of body.detail as Record<string, unknown>[]) {
            expect(Object.keys(issue).sort()).toEqual(['loc', 'msg', 'type']);
            expect([Array.isArray(issue['loc']), typeof issue['msg'], typeof issue['type']]).toEqual([
              true,
              'string',
              'string',
            ]);
            // A sentence, never the JavaScript parser's message.
            expect(issue['msg']).not.toMatch(/Unexpected end of JSON input|Unexpected token|starts with ""/);
          }
        } else {
          expect(typeof body.detail, `${answer.status}: ${JSON.stringify(body)}`).toBe('string');
        }
      }
    }
  });

  it('says what the sentences say: where JSON broke, an empty body, and the local check past 4 MB', async () => {
    const broken = parsedAs<{ detail: { msg: string }[] }>(
      await (await post('/api/v1/manifest', '{"components": [\n  {"name": "x",}', 'application/json')).text(),
    );
    expect(broken.detail[0]!.msg).toMatch(/^The body is not valid JSON at line 2, column \d+: /);
    const empty = parsedAs<{ detail: { msg: string }[] }>(
      await (await post('/api/v1/sbom', '', 'application/vnd.cyclonedx+json')).text(),
    );
    expect(empty.detail[0]!.msg).toMatch(/^The body is empty\. Send the SBOM itself/);
    const large = await post('/api/v1/sbom', ' '.repeat(5_600_000), 'application/vnd.cyclonedx+json');
    expect(parsedAs<{ detail: string }>(await large.text()).detail).toMatch(/larger than 4 MB.*`tended check FILE`/);
  });
});

/** The JSON examples of docs/api.md, each with the URL of the curl it was taken from (null for none). */
function jsonExamples(): { json: string; url: string | null; at: number }[] {
  const examples: { json: string; url: string | null; at: number }[] = [];
  const lastCurl = (before: number): string | null => {
    const text = API_MD.slice(0, before);
    const at = text.lastIndexOf('curl ');
    // Only a curl in the block just before (or in the same block) names the route.
    if (at === -1 || before - at > 600) return null;
    return /https?:\/\/127\.0\.0\.1:8080(\/[^\s'"?]*)/.exec(text.slice(at))?.[1] ?? null;
  };
  for (const block of API_MD.matchAll(/```(json|console|text)\n([\s\S]*?)```/g)) {
    const start = block.index + block[1]!.length + 4;
    if (block[1] === 'json') {
      examples.push({ json: block[2]!, url: lastCurl(block.index), at: start });
      continue;
    }
    let offset = start;
    for (const line of block[2]!.split('\n')) {
      if (line.startsWith('{')) examples.push({ json: line, url: lastCurl(offset), at: offset });
      offset += line.length + 1;
    }
  }
  return examples;
}

type Schema = { [key: string]: unknown };

/** Every property name a schema (and what it refers to, nested) can hold. */
function propertyNames(schema: unknown, doc: Schema, into = new Set<string>(), seen = new Set<unknown>()): Set<string> {
  if (schema === null || typeof schema !== 'object' || seen.has(schema)) return into;
  seen.add(schema);
  const s = schema as Schema;
  // An OpenAPI document's refs point into components.schemas; a JSON Schema's own definitions are
  // walked below with every other value.
  const named = (doc['components'] as Schema | undefined)?.['schemas'] as Schema | undefined;
  if (typeof s['$ref'] === 'string' && named !== undefined)
    propertyNames(named[s['$ref'].split('/').pop()!], doc, into, seen);
  if (s['properties']) for (const key of Object.keys(s['properties'])) into.add(key);
  for (const value of Object.values(s)) propertyNames(value, doc, into, seen);
  return into;
}

/** Every key of a JSON value, nested. */
function keysOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysOf(v, into);
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      into.add(k);
      keysOf(v, into);
    }
  return into;
}

describe("docs/api.md's JSON examples", () => {
  it('each parses, and names only fields the API description gives its route', async () => {
    const doc = parsedAs<Schema>(await (await app.request('/api/v1/docs')).text());
    const paths = doc['paths'] as Record<string, Schema>;
    // The SBOM route answers `?format=cyclonedx|spdx` in the SBOM's own standard: an example of
    // that shape names the standard's fields, checked against its official schema instead.
    const sbomSchemas = ['bom-1.6.schema.json', 'spdx-2.3.schema.json'].map((file) =>
      parsedAs<Schema>(readFileSync(fileURLToPath(new URL(`fixtures/sbom-schemas/${file}`, import.meta.url)), 'utf8')),
    );
    const standards = new Set(sbomSchemas.flatMap((schema) => [...propertyNames(schema, schema)]));
    const everything = new Set([...propertyNames(doc, doc), ...standards]);
    const routeOf = (url: string): string | undefined =>
      Object.keys(paths).find((template) => {
        const pattern = template
          .split(/(\{[a-z_]+\})/)
          .map((part) =>
            part.startsWith('{') ? (part === '{id}' ? '.+' : '[^/]+') : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'),
          )
          .join('');
        return new RegExp(`^${pattern}$`).test(url);
      });
    const examples = jsonExamples();
    expect(examples.length).toBeGreaterThan(8);
    for (const { json, url, at } of examples) {
      const where = `docs/api.md at character ${at}: ${json.slice(0, 80)}`;
      let value: unknown;
      expect(() => (value = parsedAs(json)), where).not.toThrow();
      const route = url === null ? undefined : routeOf(url);
      const known = route === undefined ? everything : propertyNames(paths[route], doc);
      const unknown = [...keysOf(value)].filter((k) => !known.has(k));
      expect(unknown, `${where} (route ${route ?? 'any'})`).toEqual([]);
    }
  });
});
