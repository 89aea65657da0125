import { createConfig, lintFromString, type NormalizedProblem } from '@redocly/openapi-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { build } from '../src/http/app.js';
import { closedSources } from './support/limits.js';
import { recordDeps, sqliteTestStore, type TestStore } from './support/record.js';

/**
 * The document GET /api/v1/docs serves, linted by Redocly's linter under its `recommended` rules:
 * what code generators and API catalogues read (operationId, security, servers, 4xx answers).
 * Linted as served, not as written, so a route added without them fails here.
 */
let t: TestStore;
let app: (publicUrl?: string) => ReturnType<typeof build>;

beforeEach(async () => {
  t = await sqliteTestStore();
  const deps = recordDeps(t.store, '2026-11-22T12:00:00Z');
  await t.store.initialiseLog(deps.notary.seal);
  app = (publicUrl) =>
    build({ ...deps, sources: closedSources(), logError: () => undefined, ...(publicUrl ? { publicUrl } : {}) });
});
afterEach(async () => {
  await t.dispose();
});

/** One line per problem: its rule, where it is, and what it says. */
function lines(problems: NormalizedProblem[]): string[] {
  return problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`);
}

interface Doc {
  servers: unknown;
  security: unknown;
  components: { securitySchemes: Record<string, unknown> };
  paths: Record<string, Record<string, { operationId?: string; responses: Record<string, unknown> }>>;
}

describe('the OpenAPI document', () => {
  it('has no errors and no warnings under Redocly recommended', async () => {
    const res = await app('https://tended.test').request('/api/v1/docs');
    expect(res.status).toBe(200);
    const source = await res.text();
    expect((JSON.parse(source) as Doc).servers).toEqual([{ url: 'https://tended.test' }]);
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source, absoluteRef: 'https://tended.test/api/v1/docs', config });
    expect(lines(problems.filter((p) => p.severity === 'error'))).toEqual([]);
    expect(lines(problems.filter((p) => p.severity === 'warn'))).toEqual([]);
  });

  it('names the address each reader asked at when no public URL is set, never an earlier reader’s Host', async () => {
    const served = app();
    const servers = async (host: string) =>
      ((await (await served.request(`http://${host}/api/v1/docs`)).json()) as Doc).servers;
    expect(await servers('evil.test')).toEqual([{ url: 'http://evil.test' }]);
    expect(await servers('tended.test:8080')).toEqual([{ url: 'http://tended.test:8080' }]);
  });

  it('offers the key as an optional security scheme, and gives every operation an id and the edge’s 4xx', async () => {
    const doc = (await (await app().request('/api/v1/docs')).json()) as Doc;
    expect(doc.security).toEqual([{}, { ApiKey: [] }]);
    expect(doc.components.securitySchemes['ApiKey']).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    const operations = Object.values(doc.paths).flatMap((item) => Object.values(item));
    const ids = operations.map((o) => o.operationId);
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const o of operations) expect(Object.keys(o.responses)).toEqual(expect.arrayContaining(['401', '429']));
  });
});
