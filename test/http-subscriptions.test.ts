import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../src/http/app.js';
import { createRateLimiter, type RateLimiter } from '../src/limits/limiter.js';
import { createApiKey } from '../src/operations/api-keys.js';
import { SUBSCRIPTIONS_PER_KEY_MAX } from '../src/domain/subscription.js';
import { jsonOf } from './support/json.js';
import { stringMatching } from './support/matchers.js';
import { closedSources } from './support/limits.js';
import { recordDeps, sqliteTestStore, type TestStore } from './support/record.js';

/**
 * What POST/GET/DELETE /api/v1/subscriptions refuse, each with a sentence (never a 500), under the
 * default address rules (TENDED_WEBHOOK_ALLOW_PRIVATE off). Deliveries: test/webhooks.test.ts.
 */
let t: TestStore;
let limiter: RateLimiter;
let app: ReturnType<typeof build>;
let key: string;
let otherKey: string;
/** A public address written as an IP: no DNS lookup is needed to check it, and nothing is sent to it. */
const PUBLIC = 'https://93.184.216.34/hook';

beforeAll(async () => {
  t = await sqliteTestStore();
  const deps = recordDeps(t.store);
  await t.store.initialiseLog(deps.notary.seal);
  limiter = createRateLimiter({ free: 100_000, keyed: 100_000 });
  app = build({ ...deps, sources: closedSources(), logError: () => {}, limiter });
  key = (await createApiKey(t.store, 'a', new Date())).key;
  otherKey = (await createApiKey(t.store, 'b', new Date())).key;
});
afterAll(async () => {
  await limiter.close();
  await t.dispose();
});

const post = (body: unknown, headers: Record<string, string> = { 'x-api-key': key }) =>
  app.request('/api/v1/subscriptions', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const issues = async (res: Response) => {
  expect(res.status).toBe(422);
  return (await jsonOf<{ detail: { loc: (string | number)[]; msg: string }[] }>(res)).detail;
};

describe('POST /api/v1/subscriptions refuses bad input with a sentence', () => {
  it('needs an API key', async () => {
    const res = await post({ endpoint: PUBLIC, states: ['archived'] }, {});
    expect(res.status).toBe(401);
    expect((await jsonOf<{ detail: string }>(res)).detail).toMatch(
      /^Subscriptions need an API key: send it in X-API-Key/,
    );
  });

  it('refuses http, loopback, private, link-local and unique-local endpoints (SSRF), and credentials in the URL', async () => {
    const cases: [string, RegExp][] = [
      ['http://93.184.216.34/hook', /must be an https:\/\/ URL/],
      ['https://127.0.0.1/hook', /loopback, private, link-local or otherwise non-public/],
      ['https://localhost:8443/hook', /loopback, private/],
      ['https://[::1]/hook', /loopback, private/],
      ['https://10.0.0.5/hook', /loopback, private/],
      ['https://169.254.169.254/latest/meta-data', /loopback, private/],
      ['https://[fd12::1]/hook', /loopback, private/],
      ['https://user:pw@93.184.216.34/hook', /must not carry a user name or password/],
      ['not a url', /not an absolute URL/],
      ['ftp://93.184.216.34/hook', /must be an https:\/\/ URL/],
    ];
    for (const [endpoint, msg] of cases) {
      const [issue] = await issues(await post({ endpoint, states: ['archived'] }));
      expect(issue, endpoint).toMatchObject({ loc: ['body', 'endpoint'] });
      expect(issue!.msg, endpoint).toMatch(msg);
    }
  });

  it('names each bad entry: an unknown state, a bad component or owner, too many names, nothing to watch', async () => {
    expect(await issues(await post({ endpoint: PUBLIC, states: ['gone'] }))).toMatchObject([
      {
        loc: ['body', 'states', 0],
        msg: stringMatching(/^a state is one of alive, dormant, abandoned, archived, deleted, eol/),
      },
    ]);
    expect(
      await issues(await post({ endpoint: PUBLIC, components: ['npm/ok', 'conan/openssl', 'left-pad'] })),
    ).toMatchObject([
      { loc: ['body', 'components', 1], msg: stringMatching(/^kind must be one of/) },
      { loc: ['body', 'components', 2], msg: stringMatching(/purl \(pkg:npm\/left-pad\) or kind\/name/) },
    ]);
    expect(await issues(await post({ endpoint: PUBLIC, owners: ['pypi/requests'] }))).toMatchObject([
      { loc: ['body', 'owners', 0], msg: stringMatching(/pypi names have no owner namespace/) },
    ]);
    const many = Array.from({ length: 1_001 }, (_, i) => `npm/p${i}`);
    expect(await issues(await post({ endpoint: PUBLIC, components: many }))).toMatchObject([
      {
        loc: ['body', 'components'],
        msg: stringMatching(/^at most 1000 components per subscription; got 1001/),
      },
    ]);
    expect(await issues(await post({ endpoint: PUBLIC }))).toMatchObject([
      { loc: ['body'], msg: stringMatching(/^name what to watch/) },
    ]);
    expect(await issues(await post({ endpoint: PUBLIC, states: 'archived' }))).toMatchObject([
      { loc: ['body', 'states'], msg: 'states must be a list of strings' },
    ]);
    expect(await issues(await post('[1]'))).toMatchObject([
      { loc: ['body'], msg: stringMatching(/^The body must be a JSON object/) },
    ]);
    expect(await issues(await post('{"endpoint":'))).toMatchObject([{ loc: ['body'] }]);
    const wrongType = await app.request('/api/v1/subscriptions', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'x-api-key': key },
      body: 'x',
    });
    expect(wrongType.status).toBe(415);
  });

  it(`holds at most ${SUBSCRIPTIONS_PER_KEY_MAX} subscriptions per key (409), and shows a subscription only to its key`, async () => {
    const made: string[] = [];
    for (let i = 0; i < SUBSCRIPTIONS_PER_KEY_MAX; i++) {
      const res = await post({ endpoint: PUBLIC, components: [`npm/p${i}`] });
      expect(res.status).toBe(201);
      made.push((await jsonOf<{ id: string }>(res)).id);
    }
    const over = await post({ endpoint: PUBLIC, states: ['deleted'] });
    expect(over.status).toBe(409);
    expect((await jsonOf<{ detail: string }>(over)).detail).toMatch(/already holds 25 subscriptions/);
    const mine = await app.request(`/api/v1/subscriptions/${made[0]}`, { headers: { 'x-api-key': key } });
    expect(mine.status).toBe(200);
    expect(await jsonOf(mine)).toMatchObject({
      filter: { components: [{ kind: 'npm', id: 'p0' }] },
      delivery: { paused: false },
    });
    expect(
      JSON.stringify(
        await jsonOf(await app.request(`/api/v1/subscriptions/${made[0]}`, { headers: { 'x-api-key': key } })),
      ),
    ).not.toContain('whsec_');
    for (const path of [`/api/v1/subscriptions/${made[0]}`, `/api/v1/subscriptions/${made[0]}/feed`]) {
      const theirs = await app.request(path, { headers: { 'x-api-key': otherKey } });
      expect(theirs.status, path).toBe(404);
      expect((await jsonOf<{ detail: string }>(theirs)).detail).toMatch(/belongs to this API key/);
    }
    expect(
      (await app.request(`/api/v1/subscriptions/${made[0]}`, { method: 'DELETE', headers: { 'x-api-key': otherKey } }))
        .status,
    ).toBe(404);
    expect((await app.request('/api/v1/subscriptions/sub_nope', { headers: { 'x-api-key': key } })).status).toBe(404);
    expect((await app.request(`/api/v1/subscriptions/${made[0]}`)).status).toBe(401);
    const badCursor = await app.request(`/api/v1/subscriptions/${made[0]}/feed?after=-1`, {
      headers: { 'x-api-key': key },
    });
    expect(badCursor.status).toBe(422);
    const badFormat = await app.request(`/api/v1/subscriptions/${made[0]}/feed?format=rss`, {
      headers: { 'x-api-key': key },
    });
    expect(badFormat.status).toBe(422);
    // Deleting one makes room again.
    expect(
      (await app.request(`/api/v1/subscriptions/${made[0]}`, { method: 'DELETE', headers: { 'x-api-key': key } }))
        .status,
    ).toBe(204);
    expect((await post({ endpoint: PUBLIC, states: ['deleted'] })).status).toBe(201);
  });
});
