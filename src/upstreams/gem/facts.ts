/** What the RubyGems reader keeps from `/api/v1/versions/{name}.json` (research upstreams-more §4): the public versions. */
import type { FactsSpec } from '../http/facts-spec.js';
import { instant, latestInstant } from '../reading.js';
import { asJsonObject } from '../../domain/json-object.js';

export type VersionsFacts = {
  versions: number;
  /** The latest publish over the public versions (yanked ones are not listed). */
  last_published: string | null;
  last_published_version: string | null;
};

const MAX_VERSIONS = 100_000;

export const VERSIONS_FACTS: FactsSpec<VersionsFacts> = {
  version: 'rubygems-versions/1',
  from: import.meta.url,
  extract(body) {
    if (!Array.isArray(body)) return 'the versions answer is not a JSON list';
    const versions = body
      .slice(0, MAX_VERSIONS)
      .map(asJsonObject)
      .filter((v): v is Record<string, unknown> => v !== null);
    const last = latestInstant(versions.map((v) => instant(v['created_at'])));
    const newest = last === null ? undefined : versions.find((v) => instant(v['created_at']) === last);
    return {
      versions: versions.length,
      last_published: last,
      last_published_version: typeof newest?.['number'] === 'string' ? newest['number'].slice(0, 100) : null,
    };
  },
};
