/** The simulated npm registry: full packuments, unpublished and security-holding packages (research §2). */
import { createHash } from 'node:crypto';
import { commonFailure, isCommonFail, json, notFound, type Ctx, type SimAnswer } from './answer.js';
import type { NpmPhase } from './scenario-phases.js';
import type { World } from './world.js';

function dist(name: string, version: string, ctx: Ctx) {
  const shasum = createHash('sha1').update(`${name}@${version}`).digest('hex');
  const file = name.startsWith('@') ? name.slice(name.indexOf('/') + 1) : name;
  return {
    tarball: `${ctx.base}/${name}/-/${file}-${version}.tgz`,
    shasum,
    integrity: `sha512-${Buffer.from(shasum).toString('base64')}`,
  };
}

function maxTime(times: string[]): string | undefined {
  return [...times].sort((a, b) => Date.parse(a) - Date.parse(b)).at(-1);
}

function packument(name: string, p: NpmPhase, ctx: Ctx, first: string): unknown {
  const versions = p.versions ?? {};
  const names = Object.keys(versions);
  const latest = p.latest ?? names.sort((a, b) => Date.parse(versions[a]!) - Date.parse(versions[b]!)).at(-1);
  const all = [...Object.values(versions), ...Object.values(p.removed_versions ?? {})];
  const created = [...all].sort((a, b) => Date.parse(a) - Date.parse(b))[0] ?? `${first}T00:00:00.000Z`;
  return {
    _id: name,
    _rev: `1-${createHash('md5').update(JSON.stringify(p)).digest('hex')}`,
    name,
    ...(p.description !== undefined ? { description: p.description } : {}),
    'dist-tags': latest ? { latest } : {},
    versions: Object.fromEntries(
      names.map((v) => [
        v,
        {
          name,
          version: v,
          dist: dist(name, v, ctx),
          ...(v === latest ? latestManifest(p) : {}),
          _npmUser: { name: 'acme' },
        },
      ]),
    ),
    // `time` keeps an entry for every version ever published, unpublished ones included.
    time: { created, modified: maxTime(all) ?? created, ...p.removed_versions, ...versions },
    maintainers: [{ name: 'acme', email: 'dev@acme.example' }],
    ...(p.repository ? { repository: { type: 'git', url: p.repository } } : {}),
  };
}

/** What the latest version declares: deprecation, license, engines, exports, types, dependencies. */
function latestManifest(p: NpmPhase): Record<string, unknown> {
  return {
    ...(p.deprecated ? { deprecated: p.deprecated } : {}),
    ...(p.license !== undefined ? { license: p.license } : {}),
    ...(p.engines ? { engines: p.engines } : {}),
    ...(p.exports ? { exports: { '.': { import: './index.mjs', require: './index.cjs' } } } : {}),
    ...(p.types ? { types: './index.d.ts' } : {}),
    ...(p.dependencies ? { dependencies: p.dependencies } : {}),
  };
}

export function answerNpm(ctx: Ctx, world: World): SimAnswer {
  // `/@scope%2fname` (what npm's client sends) and `/@scope/name` name the same package.
  const name = decodeURIComponent(ctx.path.slice(1)).replace(/\/$/, '');
  const p = world.npm(name, ctx);
  if (!p) return notFound('npm', ctx);
  const first = world.firstDate(`npm:${name}`);
  if (p.fail && isCommonFail(p.fail)) return commonFailure('npm', p.fail, ctx, p.status);
  if (p.fail === 'unpublished') {
    const published = Object.entries(p.versions ?? { '1.0.0': `${first}T00:00:00.000Z` });
    // At the start of the phase's first day: an unpublish the simulator reports has happened by the time it is served.
    const at = `${p.from}T00:00:00.000Z`;
    // Unpublished: still 200, with no versions and no dist-tags.
    return json(200, {
      _id: name,
      name,
      time: {
        created: published[0]?.[1] ?? at,
        ...Object.fromEntries(published),
        modified: at,
        unpublished: { time: at, versions: published.map(([v]) => v) },
      },
    });
  }
  if (p.fail === 'security_holding') {
    const at = `${p.from}T00:00:00.000Z`;
    return json(200, {
      _id: name,
      name,
      description: 'security holding package',
      'dist-tags': { latest: '0.0.1-security' },
      versions: {
        '0.0.1-security': {
          name,
          version: '0.0.1-security',
          description: 'security holding package',
          dist: dist(name, '0.0.1-security', ctx),
        },
      },
      time: { created: at, modified: at, '0.0.1-security': at },
      repository: { type: 'git', url: 'npm/security-holder' },
    });
  }
  const full = packument(name, p, ctx, first) as Record<string, unknown>;
  // The abbreviated ("corgi") document has no `time`: a reader asking for it cannot date a publish.
  if (String(ctx.headers['accept'] ?? '').includes('application/vnd.npm.install-v1+json')) {
    const answer = json(200, {
      name,
      modified: (full['time'] as Record<string, string>)['modified'],
      'dist-tags': full['dist-tags'],
      versions: full['versions'],
    });
    answer.headers['content-type'] = 'application/vnd.npm.install-v1+json';
    return answer;
  }
  return json(200, full);
}
