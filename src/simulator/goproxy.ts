/**
 * A simulated Go module proxy (GOPROXY protocol, research upstreams-more §2): `@latest`,
 * `@v/list`, `@v/{version}.info` and `.mod`, paths case-encoded with "!". The go.mod carries a
 * `// Deprecated:` notice and `retract` directives when the scenario says so.
 */
import { commonFailure, isCommonFail, json, notFound, text, type Ctx, type SimAnswer } from './answer.js';
import type { GolangPhase } from './scenario-phases.js';
import type { World } from './world.js';

/** `github.com/!burnt!sushi/toml` → `github.com/BurntSushi/toml`. */
function unescape(path: string): string {
  return path.replace(/!([a-z])/g, (_m, c: string) => c.toUpperCase());
}

function latestOf(p: GolangPhase): string | undefined {
  const versions = p.versions ?? {};
  return (
    p.latest ??
    Object.keys(versions)
      .sort((a, b) => Date.parse(versions[a]!) - Date.parse(versions[b]!))
      .at(-1)
  );
}

function goMod(module: string, p: GolangPhase, latest: boolean): string {
  const lines: string[] = [];
  if (latest && p.deprecated) lines.push(`// Deprecated: ${p.deprecated}`);
  lines.push(`module ${module}`, '', 'go 1.21', '');
  if (latest && p.retracted) for (const r of p.retracted) lines.push(`retract ${r}`);
  return `${lines.join('\n')}\n`;
}

export function answerGoproxy(ctx: Ctx, world: World): SimAnswer {
  const at = ctx.path.indexOf('/@');
  if (at <= 0) return notFound('goproxy', ctx);
  const module = unescape(decodeURIComponent(ctx.path.slice(1, at)));
  const rest = ctx.path.slice(at + 1);
  const p = world.golang(module, ctx);
  if (!p) return notFound('goproxy', ctx);
  if (p.fail && isCommonFail(p.fail)) return commonFailure('goproxy', p.fail, ctx, p.status);
  if (p.fail === 'gone_410')
    return text(410, `not found: ${module}@latest: unknown revision latest`, 'text/plain; charset=utf-8');
  const versions = p.versions ?? {};
  const latest = latestOf(p);
  const info = (v: string) => ({
    Version: v,
    Time: versions[v],
    Origin: { VCS: 'git', URL: `https://${module.split('/').slice(0, 3).join('/')}`, Ref: `refs/tags/${v}` },
  });
  // The proxy's recorded answers are cacheable for hours but carry no validators.
  const headers = { 'cache-control': 'public, max-age=10800' };
  if (rest === '@latest') return latest ? json(200, info(latest), headers, false) : notFound('goproxy', ctx);
  if (rest === '@v/list')
    return text(200, Object.keys(versions).join('\n'), 'text/plain; charset=utf-8', headers, false);
  const m = /^@v\/(.+)\.(info|mod)$/.exec(rest);
  const version = m ? unescape(decodeURIComponent(m[1]!)) : '';
  if (!m || versions[version] === undefined) return notFound('goproxy', ctx);
  if (m[2] === 'info') return json(200, info(version), headers, false);
  return text(200, goMod(module, p, version === latest), 'text/plain; charset=utf-8', headers, false);
}
