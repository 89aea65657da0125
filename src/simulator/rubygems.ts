/** Simulated rubygems.org (research upstreams-more §4): the versions API, yanked versions left out, its plain-text 404. */
import { commonFailure, isCommonFail, json, text, type Ctx, type SimAnswer } from './answer.js';
import type { World } from './world.js';

const NOT_FOUND = 'This rubygem could not be found.';

export function answerRubygems(ctx: Ctx, world: World): SimAnswer {
  const m = /^\/api\/v1\/versions\/([^/]+)\.json$/.exec(ctx.path);
  const gone = () => text(404, NOT_FOUND, 'text/plain; charset=utf-8');
  if (!m) return gone();
  const name = decodeURIComponent(m[1]!);
  const p = world.gem(name, ctx);
  if (!p) return gone();
  if (p.fail && isCommonFail(p.fail)) return commonFailure('rubygems', p.fail, ctx, p.status);
  const yanked = new Set(p.yanked ?? []);
  const versions = Object.entries(p.versions ?? {})
    .filter(([v]) => !yanked.has(v))
    .sort((a, b) => Date.parse(b[1]) - Date.parse(a[1]));
  // Every version yanked: the API has nothing public to show, and says so as for a gem that never was.
  if (p.fail === 'all_yanked' || versions.length === 0) return gone();
  return json(
    200,
    versions.map(([number, created]) => ({
      authors: 'Acme',
      built_at: created,
      created_at: created,
      description: `${name} does things`,
      downloads_count: 1000,
      number,
      platform: 'ruby',
      prerelease: /[a-z]/i.test(number),
      summary: name,
    })),
  );
}
