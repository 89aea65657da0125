/**
 * rubygems.org's compact index `/versions` (research §1.6; rubygems/compact_index conformance
 * fixtures@3e889b282c45): a `created_at:` header and `---`, then one line per gem
 * `name v1,v2,… md5`, and lines appended during the month for each publication (`name v md5`) and
 * yank (`name -v md5`). At the start of each month the file is rebuilt: yanks folded in, the header's
 * created_at moved, offsets no longer valid. Served with `Range: bytes=N-` (206, or 416 past the end).
 */
import { createHash } from 'node:crypto';
import { text, type SimAnswer } from '../answer.js';
import { isoAt, type FeedRequest } from './feed-request.js';
import type { GeneratedRegistry } from './registry.js';

/** The start of the UTC month of `ms`: when the file was last rebuilt. */
export function rebuiltAt(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** The MD5 of the gem's /info file, which changes whenever its versions do. */
function infoChecksum(name: string, versions: string[]): string {
  return createHash('md5')
    .update(`${name}:${versions.join(',')}`)
    .digest('hex');
}

/** The whole file as it stands at `nowMs`. */
export function versionsFile(reg: GeneratedRegistry, nowMs: number): string {
  const rebuilt = Math.max(rebuiltAt(nowMs), reg.startMs);
  const parts: string[] = [`created_at: ${isoAt(rebuilt).replace(/\.\d{3}Z$/, 'Z')}\n---\n`];
  const count = reg.packagesBy(rebuilt);
  for (let i = 0; i < count; i++) {
    const facts = reg.facts(i, rebuilt);
    // A gem every version of which was yanked has no line after a rebuild.
    if (!facts || facts.deletedAt !== null) continue;
    const versions = facts.versions.map((v) => v.version);
    parts.push(`${facts.name} ${versions.join(',')} ${infoChecksum(facts.name, versions)}\n`);
  }
  const events = reg.eventsBy(nowMs);
  for (let k = reg.eventsBy(rebuilt); k < events; k++) {
    const e = reg.eventAt(k);
    if (!e) continue;
    const name = reg.nameOf(e.package);
    const facts = reg.facts(e.package, e.at)!;
    const versions = facts.versions.map((v) => v.version);
    if (e.kind === 'delete') {
      // A deletion yanks every version: one line each.
      for (const v of versions) parts.push(`${name} -${v} ${infoChecksum(name, [`-${v}`, ...versions])}\n`);
    } else if (e.kind !== 'deprecate') parts.push(`${name} ${e.version} ${infoChecksum(name, versions)}\n`);
  }
  return parts.join('');
}

export function answerRubygemsVersions(f: FeedRequest): SimAnswer | null {
  if (f.ctx.path !== '/versions') return null;
  const body = versionsFile(f.registry, f.nowMs);
  const bytes = Buffer.byteLength(body);
  const etag = `"${createHash('md5').update(body).digest('hex')}"`;
  const headers = { etag, 'accept-ranges': 'bytes' };
  const range = /^bytes=(\d+)-$/.exec(String(f.ctx.headers['range'] ?? ''));
  if (!range) return text(200, body, 'text/plain; charset=utf-8', headers, false);
  const from = Number(range[1]);
  if (from >= bytes)
    return text(416, '', 'text/plain; charset=utf-8', { ...headers, 'content-range': `bytes */${bytes}` }, false);
  const slice = Buffer.from(body).subarray(from).toString('utf8');
  return text(
    206,
    slice,
    'text/plain; charset=utf-8',
    { ...headers, 'content-range': `bytes ${from}-${bytes - 1}/${bytes}` },
    false,
  );
}
