/** The simulated endoflife.date v1 API: products, their aliases (301) and the HTML 404 (research §4.2). */
import { commonFailure, isCommonFail, json, notFound, type Ctx, type SimAnswer } from './answer.js';
import type { EolRelease } from './scenario-phases.js';
import type { World } from './world.js';

function release(r: EolRelease, today: string) {
  const eolFrom = r.eolFrom ?? null;
  // Computed on the simulator's date, as the listing is regenerated daily.
  const isEol = r.eol ?? (eolFrom !== null && eolFrom <= today);
  const eoesFrom = r.eoesFrom ?? null;
  return {
    name: r.name,
    codename: r.codename ?? null,
    label: r.codename ? `${r.name} '${r.codename}'` : r.name,
    releaseDate: r.releaseDate ?? null,
    isLts: r.isLts ?? false,
    ltsFrom: null,
    isEol,
    eolFrom,
    isEoes: eoesFrom !== null ? eoesFrom <= today : null,
    eoesFrom,
    // Any level of support, extended included (Debian LTS after security EOL).
    isMaintained: !isEol || (eoesFrom !== null && eoesFrom > today),
    latest: r.latest ? { name: r.latest, date: r.latestDate ?? r.releaseDate ?? null, link: null } : null,
    custom: null,
  };
}

export function answerEndoflife(ctx: Ctx, world: World): SimAnswer {
  const m = /^\/api\/v1\/products\/([^/]+)\/?$/.exec(ctx.path);
  if (!m) return notFound('endoflife', ctx);
  const asked = decodeURIComponent(m[1]!);
  const name = world.eolName(asked);
  if (name === null) return notFound('endoflife', ctx);
  // Aliases and renamed products answer 301 to the canonical product (Netlify _redirects).
  if (name !== asked) {
    const location = `${ctx.base}/api/v1/products/${name}/`;
    return { status: 301, headers: { location, 'content-type': 'text/plain' }, body: `Redirecting to ${location}` };
  }
  const found = world.eol(name, ctx);
  if (!found?.phase) return notFound('endoflife', ctx);
  const { product, phase } = found;
  if (phase.fail && isCommonFail(phase.fail)) return commonFailure('endoflife', phase.fail, ctx, phase.status ?? 502);
  return json(200, {
    schema_version: '1.2.1',
    generated_at: `${ctx.today}T00:00:00+00:00`,
    last_modified: `${phase.from}T00:00:00+00:00`,
    result: {
      name,
      label: product.label ?? name,
      aliases: product.aliases ?? [],
      category: 'lang',
      tags: [],
      identifiers: [],
      labels: {},
      links: {},
      releases: (phase.releases ?? []).map((r) => release(r, ctx.today)),
    },
  });
}
