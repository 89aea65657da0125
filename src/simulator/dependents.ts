/** The simulated ecosyste.ms packages API: dependents counts (research §2.2), for every registry it indexes. */
import type { ComponentKind } from '../domain/component.js';
import { commonFailure, isCommonFail, json, notFound, type Ctx, type SimAnswer } from './answer.js';
import type { Fail } from './scenario.js';
import type { World } from './world.js';

/** ecosyste.ms's registry names (its registries' domains) → the kind of the scenario's components. */
const REGISTRY_KINDS: Readonly<Record<string, ComponentKind>> = {
  'pypi.org': 'pypi',
  'repo1.maven.org': 'maven',
  'proxy.golang.org': 'golang',
  'crates.io': 'cargo',
  'rubygems.org': 'gem',
  'packagist.org': 'composer',
};

interface Counted {
  from: string;
  status?: number;
  versions?: Record<string, unknown>;
  dependents?: number | null;
  dependents_fail?: Fail;
}

export function answerDependents(ctx: Ctx, world: World): SimAnswer {
  const m = /^\/api\/v1\/registries\/([^/]+)\/packages\/(.+?)\/?$/.exec(ctx.path);
  if (!m) return notFound('dependents', ctx);
  const registry = decodeURIComponent(m[1]!);
  const kind = registry === (world.scenario.dependents_registry ?? 'npmjs.org') ? 'npm' : REGISTRY_KINDS[registry];
  if (kind === undefined) return notFound('dependents', ctx);
  const name = decodeURIComponent(m[2]!);
  const p = world.phase<Counted>(`${kind}:${name}`, ctx);
  if (!p) return notFound('dependents', ctx);
  if (p.dependents_fail && isCommonFail(p.dependents_fail))
    return commonFailure('dependents', p.dependents_fail, ctx, p.status);
  if (p.dependents === undefined || p.dependents === null) return notFound('dependents', ctx);
  const times = Object.values(p.versions ?? {})
    .filter((t): t is string => typeof t === 'string')
    .sort();
  return json(200, {
    name,
    ecosystem: kind,
    registry_url: `https://${registry}/${name}`,
    dependent_packages_count: p.dependents,
    dependent_repos_count: p.dependents * 3,
    latest_release_published_at: times.at(-1) ?? null,
    status: null,
  });
}
