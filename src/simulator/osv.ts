/**
 * Simulated OSV API (api.osv.dev, https://google.github.io/osv.dev/api/): `POST /v1/query` with a
 * package answers `{"vulns": [...]}`, or `{}` when the package has none; `GET /v1/vulns/{id}` one
 * record. Errors are gRPC-gateway JSON (`{"code": 3, "message": …}`) as OSV's are. The records are
 * a crate phase's `advisories`, so an advisory appears on the date its phase begins.
 */
import { commonFailure, isCommonFail, json, notFound, type Ctx, type SimAnswer } from './answer.js';
import type { World } from './world.js';
import { asJsonObject } from '../domain/json-object.js';

const VULN_PATH = /^\/v1\/vulns\/([^/]+)$/;

export function answerOsv(ctx: Ctx, world: World): SimAnswer {
  if (ctx.path === '/v1/query') return answerQuery(ctx, world);
  const m = VULN_PATH.exec(ctx.path);
  if (!m) return notFound('osv', ctx);
  const id = decodeURIComponent(m[1]!);
  for (const key of Object.keys(world.scenario.components)) {
    if (!key.startsWith('cargo:')) continue;
    const found = world.cargo(key.slice('cargo:'.length), ctx)?.advisories?.find((a) => a['id'] === id);
    if (found) return json(200, found);
  }
  return json(404, { code: 5, message: 'Bug not found.' });
}

function answerQuery(ctx: Ctx, world: World): SimAnswer {
  let query: Record<string, unknown> | null;
  try {
    query = asJsonObject(JSON.parse(ctx.body ?? ''));
  } catch {
    query = null;
  }
  const pkg = asJsonObject(query?.['package']);
  const name = pkg?.['name'];
  if (typeof name !== 'string' || name === '') return json(400, { code: 3, message: 'Invalid query.' });
  if (pkg?.['ecosystem'] !== 'crates.io') return json(200, {});
  const p = world.cargo(name, ctx);
  if (p?.osv_fail && isCommonFail(p.osv_fail)) return commonFailure('osv', p.osv_fail, ctx, p.status);
  // OSV answers an empty object, not an empty list, for a package it holds nothing for.
  const vulns = p?.advisories ?? [];
  return json(200, vulns.length > 0 ? { vulns } : {}, {}, false);
}
