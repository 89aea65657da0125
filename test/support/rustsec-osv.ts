/**
 * A vendored RustSec advisory (test/fixtures/rustsec/, CC0-1.0) turned into the OSV record that
 * RustSec's own export publishes for it (rustsec's `OsvAdvisory::from_rustsec`, see SOURCE.md),
 * so the simulated OSV API serves exactly what api.osv.dev serves for these advisories.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'smol-toml';

const DIR = new URL('../fixtures/rustsec/', import.meta.url);

/** Each vendored advisory's last commit in advisory-db (SOURCE.md): OSV's `modified`. */
const MODIFIED: Record<string, string> = {
  'RUSTSEC-2020-0036': '2024-02-10T10:57:43-05:00',
  'RUSTSEC-2020-0016': '2020-10-01T18:29:11-07:00',
  'RUSTSEC-2021-0003': '2026-07-17T17:52:38+02:00',
  'RUSTSEC-2020-0054': '2022-08-16T12:38:08+10:00',
  'RUSTSEC-2025-0014': '2025-03-12T18:41:50-06:00',
  'RUSTSEC-2022-0044': '2025-04-28T12:35:27+02:00',
};

const utc = (at: string) => new Date(at).toISOString().replace('.000Z', 'Z');
const noon = (date: string) => `${date}T12:00:00Z`;

function lowerBound(range: string): string | null {
  const m = /^>=\s*([^\s,]+)$/.exec(range.split(',')[0]?.trim() ?? '');
  return m?.[1] ?? null;
}

/** The OSV record of one vendored advisory, by its id. */
export function rustsecOsvRecord(id: string): Record<string, unknown> {
  const source = readFileSync(new URL(`${id}.md`, DIR), 'utf8');
  const toml = source.slice(source.indexOf('```toml') + 7, source.indexOf('```', source.indexOf('```toml') + 7));
  const body = source.slice(source.indexOf('```', source.indexOf('```toml') + 7) + 3).trim();
  const doc = parse(toml) as {
    advisory: Record<string, unknown>;
    versions: { patched?: string[]; unaffected?: string[] };
  };
  const a = doc.advisory;
  const title = /^# (.+)$/m.exec(body)?.[1] ?? '';
  const details = body.slice(body.indexOf('\n') + 1).trim();
  const modified = MODIFIED[id];
  if (!modified) throw new Error(`no modified time recorded for ${id}`);
  const introduced = (doc.versions.unaffected ?? []).map((u) => /^<\s*(\S+)$/.exec(u)?.[1]).find(Boolean) ?? '0.0.0-0';
  const events: Record<string, string>[] = [{ introduced }];
  for (const p of doc.versions.patched ?? []) {
    const fixed = lowerBound(p);
    if (fixed) events.push({ fixed });
  }
  const pkg = String(a['package']);
  const references = [
    `https://crates.io/crates/${pkg}`,
    `https://rustsec.org/advisories/${id}.html`,
    ...(typeof a['url'] === 'string' ? [a['url']] : []),
  ].map((url) => ({
    type: url.includes('/issues/')
      ? 'REPORT'
      : url.includes('/advisories/')
        ? 'ADVISORY'
        : url.includes('://crates.io/crates/')
          ? 'PACKAGE'
          : 'WEB',
    url,
  }));
  return {
    id,
    modified: utc(modified),
    published: noon(String(a['date'])),
    ...(typeof a['withdrawn'] === 'string' ? { withdrawn: noon(a['withdrawn']) } : {}),
    aliases: a['aliases'] ?? [],
    related: [],
    summary: title,
    details,
    severity: [],
    affected: [
      {
        package: { ecosystem: 'crates.io', name: pkg, purl: `pkg:cargo/${pkg}` },
        ranges: [{ type: 'SEMVER', events }],
        versions: [],
        ecosystem_specific: { affects: { arch: [], os: [], functions: [] } },
        database_specific: {
          categories: a['categories'] ?? [],
          cvss: a['cvss'] ?? null,
          informational: a['informational'] ?? null,
        },
      },
    ],
    references,
    database_specific: { license: 'CC0-1.0' },
  };
}
