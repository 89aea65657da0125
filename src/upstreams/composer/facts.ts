/**
 * What the Packagist reader keeps from `p2/{vendor}/{name}.json` (research upstreams-more §6): the
 * tagged releases' publication times and the `abandoned` flag. The file is minified ("composer/2.0"):
 * each entry repeats only what changed since the one before it, and "__unset" removes a field.
 */
import type { FactsSpec } from '../http/facts-spec.js';
import { instant, latestInstant } from '../reading.js';
import { asJsonObject } from '../../domain/json-object.js';

export type P2Facts = {
  name: string | null;
  versions: number;
  latest_version: string | null;
  /** The latest publication over the tagged releases (published-time, else the tag's time). */
  last_published: string | null;
  /** `abandoned` on the newest release: true, or the package the author suggests instead. */
  abandoned: boolean | string;
};

const MAX_VERSIONS = 100_000;

/** The entries of a minified p2 list, each with the fields it inherits. */
function expanded(list: unknown[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  let previous: Record<string, unknown> = {};
  for (const raw of list.slice(0, MAX_VERSIONS)) {
    const entry = asJsonObject(raw);
    if (!entry) continue;
    const merged: Record<string, unknown> = { ...previous };
    for (const [k, v] of Object.entries(entry)) {
      if (v === '__unset') delete merged[k];
      else merged[k] = v;
    }
    out.push(merged);
    previous = merged;
  }
  return out;
}

export const P2_FACTS: FactsSpec<P2Facts> = {
  version: 'packagist-p2/1',
  from: import.meta.url,
  extract(body) {
    const packages = asJsonObject(asJsonObject(body)?.['packages']);
    if (!packages) return 'not a Packagist p2 document (no packages object)';
    const [name, list] = Object.entries(packages)[0] ?? [null, []];
    if (!Array.isArray(list)) return 'the package entry is not a list of versions';
    const versions = expanded(list);
    const newest = versions[0];
    const abandoned = newest?.['abandoned'];
    return {
      name: typeof name === 'string' ? name.slice(0, 200) : null,
      versions: versions.length,
      latest_version: typeof newest?.['version'] === 'string' ? newest['version'].slice(0, 100) : null,
      last_published: latestInstant(versions.map((v) => instant(v['published-time']) ?? instant(v['time']))),
      abandoned: typeof abandoned === 'string' ? abandoned.slice(0, 200) || true : abandoned === true,
    };
  },
};
