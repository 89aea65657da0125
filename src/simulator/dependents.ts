/** The simulated ecosyste.ms packages API: dependents counts (research §2.2). */
import { commonFailure, isCommonFail, json, notFound, type Ctx, type SimAnswer } from './answer.js';
import type { World } from './world.js';

export function answerDependents(ctx: Ctx, world: World): SimAnswer {
  const m = /^\/api\/v1\/registries\/([^/]+)\/packages\/(.+?)\/?$/.exec(ctx.path);
  if (!m || decodeURIComponent(m[1]!) !== (world.scenario.dependents_registry ?? 'npmjs.org'))
    return notFound('dependents', ctx);
  const name = decodeURIComponent(m[2]!);
  const p = world.npm(name, ctx.today);
  if (!p) return notFound('dependents', ctx);
  if (p.dependents_fail && isCommonFail(p.dependents_fail))
    return commonFailure('dependents', p.dependents_fail, ctx, p.status);
  if (p.dependents === undefined || p.dependents === null) return notFound('dependents', ctx);
  const times = Object.values(p.versions ?? {}).sort();
  return json(200, {
    name,
    ecosystem: 'npm',
    registry_url: `https://www.npmjs.com/package/${name}`,
    dependent_packages_count: p.dependents,
    dependent_repos_count: p.dependents * 3,
    latest_release_published_at: times.at(-1) ?? null,
    status: null,
  });
}
