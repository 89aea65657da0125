/** Simulated repo.packagist.org (research upstreams-more §6): minified p2 files, `abandoned`, and its JSON-string 404. */
import { commonFailure, isCommonFail, json, type Ctx, type SimAnswer } from './answer.js';
import type { World } from './world.js';

export function answerPackagist(ctx: Ctx, world: World): SimAnswer {
  const m = /^\/p2\/([^/]+)\/([^/~]+)\.json$/.exec(ctx.path);
  const gone = () => json(404, '404 not found, no packages here');
  if (!m) return gone();
  const name = `${decodeURIComponent(m[1]!)}/${decodeURIComponent(m[2]!)}`;
  const p = world.composer(name, ctx);
  if (!p) return gone();
  if (p.fail && isCommonFail(p.fail)) return commonFailure('packagist', p.fail, ctx, p.status);
  const versions = Object.entries(p.versions ?? {}).sort((a, b) => Date.parse(b[1]) - Date.parse(a[1]));
  // Minified: the first entry is whole; later ones carry only what differs from the one before.
  const entries = versions.map(([version, time], i) => ({
    ...(i === 0
      ? {
          name,
          description: `${name} does things`,
          license: ['MIT'],
          ...(p.abandoned !== undefined ? { abandoned: p.abandoned } : {}),
        }
      : {}),
    version,
    version_normalized: `${version.replace(/^v/, '')}.0`,
    time,
  }));
  return json(200, { minified: 'composer/2.0', packages: { [name]: entries } });
}
