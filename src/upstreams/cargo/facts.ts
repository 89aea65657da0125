/**
 * What the crates reader keeps (research upstreams-more §3): from the sparse index file, one JSON
 * line per version with `yanked` and (for versions published since crates.io began writing it)
 * `pubtime`; from the crates API, one version's `created_at` when the index has no time for it.
 */
import type { FactsSpec } from '../http/facts-spec.js';
import { instant, latestInstant } from '../reading.js';
import { asJsonObject } from '../../domain/json-object.js';

export type IndexFacts = {
  versions: number;
  yanked: number;
  /** The last version line not yanked: the newest publish still offered. */
  latest_version: string | null;
  /** The latest pubtime over versions not yanked; null when none has one. */
  last_published: string | null;
};

export type VersionFacts = { created_at: string | null };

const MAX_LINES = 100_000;

export const INDEX_FACTS: FactsSpec<IndexFacts> = {
  version: 'crates-index/1',
  from: import.meta.url,
  extract(body) {
    if (typeof body !== 'string') return 'the index file is not text';
    const lines = body.split('\n', MAX_LINES).filter((l) => l.trim() !== '');
    const entries: Record<string, unknown>[] = [];
    for (const line of lines) {
      try {
        const entry = asJsonObject(JSON.parse(line));
        if (entry && typeof entry['vers'] === 'string') entries.push(entry);
      } catch {
        return 'a line of the index file is not JSON';
      }
    }
    if (entries.length === 0) return 'the index file lists no version';
    const offered = entries.filter((e) => e['yanked'] !== true);
    const latest = offered.at(-1);
    return {
      versions: entries.length,
      yanked: entries.length - offered.length,
      latest_version: typeof latest?.['vers'] === 'string' ? latest['vers'].slice(0, 100) : null,
      last_published: latestInstant(offered.map((e) => instant(e['pubtime']))),
    };
  },
};

export const VERSION_FACTS: FactsSpec<VersionFacts> = {
  version: 'crates-version/1',
  from: import.meta.url,
  extract(body) {
    const version = asJsonObject(asJsonObject(body)?.['version']);
    if (!version) return 'not a crates.io version answer (no version object)';
    return { created_at: instant(version['created_at']) };
  },
};
