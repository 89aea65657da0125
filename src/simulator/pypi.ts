/** The simulated PyPI: the JSON API and the Simple API's JSON form (research §3). */
import { createHash } from 'node:crypto';
import { pep503 } from '../domain/component.js';
import { commonFailure, html, isCommonFail, json, notFound, type Ctx, type SimAnswer } from './answer.js';
import type { PypiPhase } from './scenario-phases.js';
import type { World } from './world.js';

const SIMPLE_JSON = 'application/vnd.pypi.simple.v1+json';

interface File {
  filename: string;
  upload: string;
  yanked: boolean;
}

function files(name: string, p: PypiPhase): Record<string, File[]> {
  const yanked = new Set(p.yanked ?? []);
  const all = p.fail === 'all_yanked';
  return Object.fromEntries(
    Object.entries(p.releases ?? {}).map(([version, spec]) => {
      const list = typeof spec === 'string' ? [{ upload_time: spec }] : spec;
      return [
        version,
        list.map((f, i) => ({
          filename: f.filename ?? `${name.replace(/-/g, '_')}-${version}${i === 0 ? '.tar.gz' : `-py3-none-any.whl`}`,
          upload: f.upload_time,
          yanked: all || yanked.has(version) || ('yanked' in f && f.yanked === true),
        })),
      ];
    }),
  );
}

function fileJson(f: File, ctx: Ctx) {
  const digest = createHash('sha256').update(f.filename).digest('hex');
  return {
    filename: f.filename,
    packagetype: f.filename.endsWith('.whl') ? 'bdist_wheel' : 'sdist',
    upload_time: f.upload.replace(/(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/, ''),
    upload_time_iso_8601: f.upload,
    yanked: f.yanked,
    yanked_reason: f.yanked ? 'simulated yank' : null,
    digests: { sha256: digest },
    url: `${ctx.base}/packages/${digest.slice(0, 2)}/${f.filename}`,
  };
}

/** Warehouse's "latest": releases with a file not yanked first, then the latest upload. */
function latestVersion(byVersion: Record<string, File[]>): string | null {
  const rank = ([, fs]: [string, File[]]) =>
    [fs.some((f) => !f.yanked) ? 1 : 0, Math.max(0, ...fs.map((f) => Date.parse(f.upload)))] as const;
  const sorted = Object.entries(byVersion).sort((a, b) => rank(a)[0] - rank(b)[0] || rank(a)[1] - rank(b)[1]);
  return sorted.at(-1)?.[0] ?? null;
}

export function answerPypi(ctx: Ctx, world: World): SimAnswer {
  const m = /^\/(pypi|simple)\/([^/]+)(?:\/json)?\/?$/.exec(ctx.path);
  if (!m) return notFound('pypi', ctx);
  const api = m[1] as 'pypi' | 'simple';
  const raw = decodeURIComponent(m[2]!);
  const name = pep503(raw);
  // A name that is not the normalised one is redirected to it.
  if (raw !== name) {
    const location = api === 'pypi' ? `${ctx.base}/pypi/${name}/json` : `${ctx.base}/simple/${name}/`;
    return { status: 301, headers: { location, 'content-type': 'text/html' }, body: '' };
  }
  const p = world.pypi(name, ctx);
  if (!p) return notFound('pypi', ctx);
  if (p.fail && isCommonFail(p.fail)) return commonFailure('pypi', p.fail, ctx, p.status);
  const byVersion = files(name, p);
  const latest = latestVersion(byVersion);
  if (api === 'simple') return simple(name, p, byVersion, ctx);
  // Warehouse answers 404 for a project without releases, and for a quarantined one.
  if (latest === null || p.project_status === 'quarantined') return notFound('pypi', ctx);
  const serial = Number.parseInt(createHash('sha1').update(JSON.stringify(p)).digest('hex').slice(0, 7), 16);
  return json(
    200,
    {
      info: {
        name,
        version: latest,
        summary: `The ${name} project (simulated)`,
        classifiers: p.classifiers ?? ['Programming Language :: Python :: 3'],
        project_urls: { Source: `https://github.com/acme/${name}` },
        requires_python: '>=3.9',
        yanked: byVersion[latest]?.every((f) => f.yanked) ?? false,
        yanked_reason: null,
      },
      last_serial: serial,
      releases: Object.fromEntries(Object.entries(byVersion).map(([v, fs]) => [v, fs.map((f) => fileJson(f, ctx))])),
      urls: (byVersion[latest] ?? []).map((f) => fileJson(f, ctx)),
      vulnerabilities: [],
    },
    { 'x-pypi-last-serial': String(serial) },
  );
}

function simple(name: string, p: PypiPhase, byVersion: Record<string, File[]>, ctx: Ctx): SimAnswer {
  const accept = String(ctx.headers['accept'] ?? '');
  const all = Object.values(byVersion).flat();
  if (!accept.includes(SIMPLE_JSON)) {
    return html(
      200,
      `<!DOCTYPE html><html><body><h1>Links for ${name}</h1>${all.map((f) => `<a href="#">${f.filename}</a><br/>`).join('')}</body></html>`,
    );
  }
  const answer = json(200, {
    meta: { 'api-version': '1.4', '_last-serial': 1 },
    name,
    versions: Object.keys(byVersion),
    files: all.map((f) => ({
      filename: f.filename,
      url: `${ctx.base}/packages/${f.filename}`,
      hashes: {},
      'upload-time': f.upload,
      yanked: f.yanked,
    })),
    ...(p.project_status && p.project_status !== 'active'
      ? {
          'project-status': {
            status: p.project_status,
            ...(p.project_status_reason ? { reason: p.project_status_reason } : {}),
          },
        }
      : {}),
  });
  answer.headers['content-type'] = SIMPLE_JSON;
  return answer;
}
