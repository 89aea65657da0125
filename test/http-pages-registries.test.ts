import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../src/http/app.js';
import { jsonOf, type ValidationAnswer } from './support/json.js';
import { fillPageRecord, LAST_DAY } from './support/pages-record.js';
import { sqliteTestStore, type TestStore } from './support/record.js';

// The package pages of every registry with a census beyond npm (whose page test/http-pages.test.ts
// reads item by item): each page carries spec §2.2's items in its own registry's words.
let t: TestStore;
let filled: Awaited<ReturnType<typeof fillPageRecord>>;
let app: ReturnType<typeof build>;
const BASE = 'https://tended.example';

beforeAll(async () => {
  t = await sqliteTestStore();
  filled = await fillPageRecord(t.store);
  app = build({ ...filled, sources: filled.harness.sources, logError: (e) => console.error(e), publicUrl: BASE });
}, 60_000);
afterAll(async () => {
  await filled.harness.close();
  await t.dispose();
});

const html = { accept: 'text/html' };
const get = async (path: string, headers: Record<string, string> = html) => {
  const res = await app.request(path, { headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
};
const text = (page: string) =>
  page
    .replace(/<[^<>]+>/g, ' ')
    .replace(/&gt;/g, '>')
    .replace(/&lt;/g, '<')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

const PAGES = [
  {
    path: '/pypi/tiny-parser',
    name: 'tiny-parser',
    registry: 'PyPI (the Python Package Index)',
    registryPage: 'https://pypi.org/project/tiny-parser/',
    method: /Method Read from PyPI’s own metadata for the project: the latest upload over the files not yanked/,
    state: 'archived',
    published: '2025-02-10',
    version: '1.0',
    notice: 'classified Development Status :: 7 - Inactive',
    adoption: 12,
  },
  {
    path: '/maven/org.acme/rocket-core',
    name: 'org.acme:rocket-core',
    registry: 'Maven Central (the Java package repository)',
    registryPage: 'https://central.sonatype.com/artifact/org.acme/rocket-core',
    method: /Method Read from Maven Central’s own files for the artifact: maven-metadata.xml .* <relocation>/,
    state: 'alive',
    published: '2025-11-15',
    version: '1.1',
    notice: 'none on record',
    adoption: 9,
  },
  {
    path: '/golang/github.com/acme/rocket',
    name: 'github.com/acme/rocket',
    registry: 'the Go module proxy (proxy.golang.org)',
    registryPage: 'https://pkg.go.dev/github.com/acme/rocket',
    method: /Method Read from the Go module proxy: the time of the version @latest names/,
    state: 'alive',
    published: '2025-11-01',
    version: 'v1.1.0',
    notice: 'none on record',
    adoption: 7,
  },
  {
    path: '/cargo/rocket-rs',
    name: 'rocket-rs',
    registry: 'crates.io (the Rust package registry)',
    registryPage: 'https://crates.io/crates/rocket-rs',
    method: /Method Read from crates.io’s sparse index for the crate/,
    state: 'alive',
    published: '2025-10-15',
    version: '0.2.0',
    notice: 'none on record',
    adoption: 5,
  },
  {
    path: '/gem/rocket-rb',
    name: 'rocket-rb',
    registry: 'rubygems.org (the Ruby package registry)',
    registryPage: 'https://rubygems.org/gems/rocket-rb',
    method: /Method Read from rubygems.org’s versions of the gem/,
    state: 'abandoned',
    published: '2024-10-01',
    version: '1.0.0',
    notice: 'none on record',
    adoption: 4,
  },
  {
    path: '/composer/acme/rocket-php',
    name: 'acme/rocket-php',
    registry: 'Packagist (the PHP package repository)',
    registryPage: 'https://packagist.org/packages/acme/rocket-php',
    method: /Method Read from Packagist’s metadata for the package: .* abandoned flag/,
    state: 'archived',
    published: '2025-09-01',
    version: 'v1.1.0',
    notice: 'abandoned; the author suggests acme/rocket-next',
    adoption: 3,
  },
];

describe('package pages of every registry with a census', () => {
  it.each(PAGES)('$path carries every item of spec §2.2 in its registry’s words', async (p) => {
    const page = await get(p.path);
    expect(page.status).toBe(200);
    const body = text(page.text);
    expect(page.text).toContain(`<h1>is ${p.name} still maintained?</h1>`);
    expect(body).toContain(`State (latest) ${p.state}`);
    expect(body).toContain(`Latest published version ${p.version} (${p.published})`);
    expect(body).toContain(`Deprecation notice ${p.notice}`);
    expect(body).toContain(`Adoption ${p.adoption} dependent packages, read ${LAST_DAY}`);
    expect(body).toMatch(p.method);
    expect(body).toContain(`Registry ${p.registry}`);
    expect(body).toContain(`Observed as of ${LAST_DAY}`);
    expect(page.text).toContain(`<a href="${p.registryPage}">registry page</a>`);
    expect(page.text).toContain(`<link rel="canonical" href="${BASE}${p.path}"`);
    expect(page.text).not.toMatch(/npm registry|npmjs/);
  });

  it('dates each row of the series from its own observation, and names the notice when it appears', async () => {
    const body = text((await get('/composer/acme/rocket-php')).text);
    expect(body).toContain('alive → archived observed 2026-04-02');
    expect(body).toMatch(
      // Newest first.
      /2026-04-02 archived 2025-09-01 abandoned; the author suggests.*2025-11-20 alive 2025-09-01 —/,
    );
    const pypi = text((await get('/pypi/tiny-parser?as_of=2025-12-31')).text);
    expect(pypi).toContain('State as of 2025-12-31 dormant');
    expect(pypi).toContain('Deprecation notice none on record');
  });

  it('has a page for a NuGet package once observed, though its registry has no census', async () => {
    const page = await get('/nuget/acme.rocket');
    expect(page.status).toBe(200);
    const body = text(page.text);
    expect(body).toContain('Latest published version 2.0.0 (2025-11-20)');
    expect(body).toContain('Adoption not counted: Tended reads no dependents count for a NuGet package');
    expect(body).toContain('Registry nuget.org (the .NET package registry)');
    expect((await get('/nuget/never.seen')).status).toBe(404);
  });

  it('answers 404 with the reason, in the registry’s words, for a package without a page', async () => {
    const unwatched = await get('/cargo/never-watched');
    expect(unwatched.status).toBe(404);
    expect(text(unwatched.text)).toContain('Tended holds no reading of the crate never-watched');
    const machine = await jsonOf<{ detail: string }>(
      await app.request('/maven/org.example/unseen', { headers: { accept: 'application/json' } }),
    );
    expect(machine.detail).toContain('holds no reading of the Maven artifact org.example:unseen');
  });

  it('refuses a name its registry cannot hold with a 422 against the path', async () => {
    for (const [path, msg] of [
      ['/cargo/9lives', /crates.io/],
      ['/maven/org.acme/rocket%20core', /groupId or artifactId/],
      ['/golang/nodomain/x', /domain name/],
      ['/composer/acme/-bad', /vendor\/name/],
    ] as const) {
      const res = await app.request(path, { headers: { accept: 'application/json' } });
      expect(res.status, path).toBe(422);
      const { detail } = await jsonOf<ValidationAnswer>(res);
      expect(detail[0], path).toMatchObject({ loc: ['path', 'name'] });
      expect(detail[0]!.msg, path).toMatch(msg);
      const page = await get(path);
      expect(page.status, path).toBe(422);
      expect(text(page.text), path).toContain('is not a');
    }
  });

  it('leads the search box to the page from a registry and name, a purl, a module path or a registry address', async () => {
    for (const [q, to] of [
      ['pypi:tiny-parser', '/pypi/tiny-parser'],
      ['pypi:Tiny_Parser', '/pypi/tiny-parser'],
      ['https://pypi.org/project/Tiny.Parser/', '/pypi/tiny-parser'],
      ['maven:org.acme:rocket-core', '/maven/org.acme/rocket-core'],
      ['pkg:maven/org.acme/rocket-core@1.1', '/maven/org.acme/rocket-core'],
      ['https://central.sonatype.com/artifact/org.acme/rocket-core/1.1', '/maven/org.acme/rocket-core'],
      ['github.com/acme/rocket', '/golang/github.com/acme/rocket'],
      ['go:github.com/acme/rocket@v1.1.0', '/golang/github.com/acme/rocket'],
      ['https://pkg.go.dev/github.com/acme/rocket@v1.1.0', '/golang/github.com/acme/rocket'],
      ['cargo:Rocket-RS', '/cargo/rocket-rs'],
      ['https://crates.io/crates/rocket-rs', '/cargo/rocket-rs'],
      ['pkg:gem/rocket-rb@1.0.0', '/gem/rocket-rb'],
      ['https://rubygems.org/gems/rocket-rb', '/gem/rocket-rb'],
      ['composer:acme/rocket-php', '/composer/acme/rocket-php'],
      ['https://packagist.org/packages/acme/rocket-php', '/composer/acme/rocket-php'],
    ]) {
      const res = await app.request(`/search?q=${encodeURIComponent(q!)}`);
      expect(res.status, q).toBe(303);
      expect(res.headers.get('location'), q).toBe(to);
    }
    for (const [q, to] of [
      ['pkg:nuget/acme.rocket', '/nuget/acme.rocket'],
      ['https://www.nuget.org/packages/Acme.Rocket', '/nuget/acme.rocket'],
      ['pkg:deb/debian/curl@7.74.0?distro=debian-12', '/distro/debian/12'],
    ]) {
      const res = await app.request(`/search?q=${encodeURIComponent(q!)}`);
      expect(res.status, q).toBe(303);
      expect(res.headers.get('location'), q).toBe(to);
    }
    for (const [q, why] of [
      ['https://example.com/x', /an address of npmjs.com, pypi.org/],
      ['https://packagist.org/packages/acme', /names no package/],
    ] as const) {
      const page = await get(`/search?q=${encodeURIComponent(q)}`);
      expect(page.status, q).toBe(422);
      expect(text(page.text), q).toMatch(why);
    }
  });
});
