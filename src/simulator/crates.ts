/**
 * Simulated crates.io (research upstreams-more §3): the sparse index (one JSON line per version,
 * `yanked`, `pubtime` unless the scenario says the versions predate it) and the crates API's
 * version route, which refuses a request without a User-Agent as crates.io does.
 */
import { commonFailure, isCommonFail, json, text, type Ctx, type SimAnswer } from './answer.js';
import type { World } from './world.js';

const INDEX_PATH = /^\/(?:1|2|3\/[^/]|[^/]{2}\/[^/]{2})\/([^/]+)$/;
const VERSION_PATH = /^\/api\/v1\/crates\/([^/]+)\/([^/]+)$/;

export function answerCratesIndex(ctx: Ctx, world: World): SimAnswer {
  const m = INDEX_PATH.exec(ctx.path);
  const gone = () => text(404, 'not found', 'text/plain');
  if (!m) return gone();
  const p = world.cargo(decodeURIComponent(m[1]!), ctx);
  if (!p) return gone();
  if (p.fail && isCommonFail(p.fail)) return commonFailure('cratesindex', p.fail, ctx, p.status);
  const yanked = new Set(p.yanked ?? []);
  const lines = Object.entries(p.versions ?? {})
    .sort((a, b) => Date.parse(a[1]) - Date.parse(b[1]))
    .map(([vers, at]) =>
      JSON.stringify({
        name: m[1],
        vers,
        deps: [],
        cksum: '0'.repeat(64),
        features: {},
        yanked: yanked.has(vers),
        ...(p.no_pubtime ? {} : { pubtime: at.replace(/\.\d+Z$/, 'Z') }),
      }),
    );
  return text(200, `${lines.join('\n')}\n`, 'text/plain');
}

export function answerCratesApi(ctx: Ctx, world: World): SimAnswer {
  if (String(ctx.headers['user-agent'] ?? '') === '')
    return text(403, 'We require that all requests include a `User-Agent` header.', 'text/plain');
  const m = VERSION_PATH.exec(ctx.path);
  const missing = (what: string) => json(404, { errors: [{ detail: `crate \`${what}\` does not exist` }] });
  if (!m) return missing('?');
  const name = decodeURIComponent(m[1]!);
  const p = world.cargo(name, ctx);
  if (!p) return missing(name);
  if (p.fail && isCommonFail(p.fail)) return commonFailure('crates', p.fail, ctx, p.status);
  const vers = decodeURIComponent(m[2]!);
  const at = p.versions?.[vers];
  if (!at) return missing(`${name}@${vers}`);
  return json(200, { version: { crate: name, num: vers, created_at: at, yanked: (p.yanked ?? []).includes(vers) } });
}
