import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckAnswer } from '../src/operations/check-components.js';
import { checkPageApp, MOCHA_LOCK, TRIVY_SBOM } from './support/check-record.js';

let checked: Awaited<ReturnType<typeof checkPageApp>>;
beforeAll(async () => {
  checked = await checkPageApp();
}, 60_000);
afterAll(async () => {
  await checked.close();
});

/** Posts fields as the page's form does (multipart/form-data); a Blob field is a chosen file. */
const postForm = async (path: string, fields: Record<string, string | { name: string; text: string }>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new Blob([value.text]), value.name);
  }
  return checked.app.request(path, { method: 'POST', body: form });
};
const rowsOf = (page: string) => page.split('<tbody>')[1]?.split('</tbody>')[0]?.match(/<tr>/g)?.length ?? 0;
const escaped = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');

describe('/check, the page to check a file', () => {
  it('serves a form that posts without JavaScript', async () => {
    const res = await checked.app.request('/check');
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toMatch(/<form class="check-form" action="\/check" method="post" enctype="multipart\/form-data">/);
    expect(page).toContain('name="content"');
    expect(page).toContain('type="file" name="file"');
    expect(page).not.toMatch(/<script(?! type="application\/ld\+json")/);
  });

  it('is linked from the home page and the site navigation', async () => {
    const home = await (await checked.app.request('/')).text();
    expect(home.match(/href="\/check"/g)?.length).toBeGreaterThanOrEqual(2);
  });

  it('answers a pasted lockfile with one row per component the API answers, states and sources shown', async () => {
    const api = (await (
      await checked.app.request('/api/v1/manifest', {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: MOCHA_LOCK,
      })
    ).json()) as CheckAnswer;
    const res = await postForm('/check', { content: MOCHA_LOCK });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const page = await res.text();
    expect(api.results_count).toBeGreaterThan(500);
    expect(rowsOf(page)).toBe(api.results_count);
    const row = (name: string) => page.split(`<span class="mono">${name}</span>`)[1]!.split('</tr>')[0]!;
    expect(row('chokidar')).toContain('<span class="state state-alive">alive</span>');
    expect(row('chokidar')).toContain('2026-11-01');
    expect(row('chokidar')).toContain('href="https://registry.npmjs.org/chokidar"');
    expect(row('debug')).toContain('state-dormant');
    // The tree the lockfile gives: scope and the path from a direct dependency.
    expect(page).toMatch(/data-label="In the tree">.*transitive/);
    expect(page).toMatch(/data-label="In the tree">.*via /);
    // The SARIF is offered (the file goes back in the form); a lockfile is no SBOM to write back.
    expect(page).toContain('Download SARIF');
    expect(page).not.toContain('/check/sbom');
  });

  it('reads a chosen file by its name', async () => {
    const res = await postForm('/check', { content: '', file: { name: 'package-lock.json', text: MOCHA_LOCK } });
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('<title>Results: package-lock.json');
    expect(page).toContain('<input type="hidden" name="filename" value="package-lock.json"/>');
  });

  it('says on the page that a file over 4 MB is too large, and where it can be checked', async () => {
    const big = 'x'.repeat(4 * 1024 * 1024 + 10);
    const streamed = await postForm('/check', { content: big });
    const declared = await checked.app.request('/check', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(big.length + 8) },
      body: `content=${big}`,
    });
    for (const res of [streamed, declared]) {
      expect(res.status).toBe(413);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const page = await res.text();
      expect(page).toContain('The body is larger than 4 MB, the most this route reads; nothing was kept.');
      expect(page).toContain('<code>tended check FILE</code>'.replace(/<\/?code>/g, '`'));
      expect(page).toContain('<textarea');
    }
  });

  it('says on the page, with status 422, the sentence the API gives for a file it cannot read', async () => {
    const text = 'this is no manifest at all: just words';
    const api = await checked.app.request('/api/v1/manifest', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: text,
    });
    expect(api.status).toBe(422);
    const { detail } = (await api.json()) as { detail: { msg: string }[] };
    const res = await postForm('/check', { content: text });
    expect(res.status).toBe(422);
    const page = await res.text();
    expect(page).toContain(escaped(detail[0]!.msg));
    expect(page).toContain('role="alert"');
    const empty = await postForm('/check', { content: '  ' });
    expect(empty.status).toBe(422);
    expect(await empty.text()).toContain('Nothing was sent: paste the file’s text or choose the file.');
  });

  it('downloads the SARIF of the file posted again, as an attachment holding every result', async () => {
    const res = await postForm('/check/sarif', { content: MOCHA_LOCK, filename: 'package-lock.json' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="package-lock.json.tended.sarif"');
    const sarif = JSON.parse(await res.text()) as {
      version: string;
      runs: { results: { ruleId: string; properties: { component: string; state: string } }[] }[];
    };
    expect(sarif.version).toBe('2.1.0');
    const results = sarif.runs[0]!.results;
    expect(results.length).toBeGreaterThan(500);
    expect(results.find((r) => r.properties.component === 'npm:chokidar')?.ruleId).toBe('alive');
    expect(results.find((r) => r.properties.component === 'npm:debug')?.properties.state).toBe('dormant');
  });

  it('offers an SBOM back with the results written in, and downloads it', async () => {
    const page = await (await postForm('/check', { content: TRIVY_SBOM })).text();
    expect(page).toContain('formaction="/check/sbom"');
    const res = await postForm('/check/sbom', { content: TRIVY_SBOM });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="tended.cdx.json"');
    const sbom = JSON.parse(await res.text()) as {
      bomFormat: string;
      components: { properties?: { name: string }[] }[];
    };
    expect(sbom.bomFormat).toBe('CycloneDX');
    expect(sbom.components.some((c) => c.properties?.some((p) => p.name === 'tended:state'))).toBe(true);
    const lockfile = await postForm('/check/sbom', { content: MOCHA_LOCK });
    expect(lockfile.status).toBe(422);
    expect(await lockfile.text()).toContain('only an SBOM can be returned with the results written in');
  });
});
