/** The simulated Docker Hub API: one tag of one repository (research §5.1). */
import { createHash } from 'node:crypto';
import { commonFailure, isCommonFail, json, notFound, type Ctx, type SimAnswer } from './answer.js';
import type { World } from './world.js';

export function answerDockerhub(ctx: Ctx, world: World): SimAnswer {
  // The current path and the legacy one have the same answer.
  const m =
    /^\/v2\/(?:namespaces\/([^/]+)\/repositories\/([^/]+)|repositories\/([^/]+)\/([^/]+))\/tags\/([^/]+)\/?$/.exec(
      ctx.path,
    );
  if (!m) return notFound('dockerhub', ctx);
  const namespace = decodeURIComponent(m[1] ?? m[3] ?? '');
  const repository = decodeURIComponent(m[2] ?? m[4] ?? '');
  const tag = decodeURIComponent(m[5] ?? '');
  const id = `docker.io/${namespace}/${repository}:${tag}`;
  const p = world.docker(id, ctx);
  if (!p) return notFound('dockerhub', ctx);
  if (p.fail && isCommonFail(p.fail)) return commonFailure('dockerhub', p.fail, ctx, p.status);
  const pushed = p.tag_last_pushed ?? p.last_updated ?? `${p.from}T00:00:00.000000Z`;
  const digest = p.digest ?? `sha256:${createHash('sha256').update(`${id}@${pushed}`).digest('hex')}`;
  return json(200, {
    id: Number.parseInt(digest.slice(7, 14), 16),
    name: tag,
    repository: Number.parseInt(digest.slice(14, 20), 16),
    full_size: 50_123_456,
    v2: true,
    last_updated: p.last_updated ?? pushed,
    last_updater_username: 'doijanky',
    tag_status: p.tag_status ?? 'active',
    tag_last_pushed: p.tag_last_pushed ?? null,
    // An hour before the moment served: nothing the simulator says is later than its clock.
    tag_last_pulled: new Date((ctx.nowSec - 3600) * 1000).toISOString(),
    digest,
    images: [
      {
        architecture: 'amd64',
        os: 'linux',
        digest,
        size: 45_000_000,
        status: p.tag_status ?? 'active',
        last_pushed: pushed,
        last_pulled: null,
      },
    ],
  });
}
