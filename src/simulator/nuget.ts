/**
 * Simulated nuget.org registration (research upstreams-more §5): the index with its leaves inlined,
 * or (for a `paged` package) a page to fetch; unlisted versions published "1900"; deprecation on
 * leaves; Azure's XML BlobNotFound for an unknown id.
 */
import { commonFailure, isCommonFail, json, notFound, type Ctx, type SimAnswer } from './answer.js';
import type { NugetPhase } from './scenario-phases.js';
import type { World } from './world.js';

const INDEX = /^\/v3\/registration5-gz-semver2\/([^/]+)\/(index|page)\.json$/;

function leaves(id: string, p: NugetPhase, ctx: Ctx) {
  const unlisted = new Set(p.unlisted ?? []);
  const versions = Object.entries(p.versions ?? {}).sort((a, b) => Date.parse(a[1]) - Date.parse(b[1]));
  const latest = versions.at(-1)?.[0];
  return versions.map(([version, at]) => {
    const deprecated = p.deprecated_all || (version === latest && p.deprecation);
    return {
      '@id': `${ctx.base}/v3/registration5-gz-semver2/${id}/${version}.json`,
      '@type': 'Package',
      catalogEntry: {
        id,
        version,
        listed: !unlisted.has(version),
        published: unlisted.has(version) ? '1900-01-01T00:00:00+00:00' : at,
        ...(deprecated
          ? {
              deprecation: {
                reasons: p.deprecation ?? ['Other'],
                ...(p.alternate_package ? { alternatePackage: { id: p.alternate_package, range: '*' } } : {}),
              },
            }
          : {}),
      },
    };
  });
}

export function answerNuget(ctx: Ctx, world: World): SimAnswer {
  const m = INDEX.exec(ctx.path);
  if (!m) return notFound('nuget', ctx);
  const id = decodeURIComponent(m[1]!);
  const p = world.nuget(id, ctx);
  if (!p) return notFound('nuget', ctx);
  if (p.fail && isCommonFail(p.fail)) return commonFailure('nuget', p.fail, ctx, p.status);
  const items = leaves(id, p, ctx);
  const pageUrl = `${ctx.base}/v3/registration5-gz-semver2/${id}/page.json`;
  const page = {
    '@id': pageUrl,
    count: items.length,
    lower: items[0]?.catalogEntry.version,
    upper: items.at(-1)?.catalogEntry.version,
  };
  if (m[2] === 'page') return p.paged ? json(200, { ...page, items }) : notFound('nuget', ctx);
  // Packages with many versions are paged: the index names the page and leaves it out.
  return json(200, { count: 1, items: [p.paged ? page : { ...page, items }] });
}
