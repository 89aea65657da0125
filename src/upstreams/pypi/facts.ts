/** What the reader keeps from PyPI's JSON API and Simple API answers (research §3). */
import type { FactsSpec } from '../http/facts-spec.js';
import { instant } from '../reading.js';
import { asJsonObject } from '../../domain/json-object.js';

export const INACTIVE_CLASSIFIER = 'Development Status :: 7 - Inactive';

export type ProjectFacts = {
  name: string | null;
  version: string | null;
  inactive_classifier: boolean;
  /** Max upload_time_iso_8601 over the files that are not yanked. */
  last_upload: string | null;
  last_upload_version: string | null;
  releases: number;
  files: number;
  yanked_files: number;
};

export type SimpleFacts = {
  api_version: string | null;
  /** PEP 792 project-status (`active` when absent). */
  project_status: string;
  project_status_reason: string | null;
};

export const PROJECT_FACTS: FactsSpec<ProjectFacts> = {
  version: 'pypi-json/1',
  from: import.meta.url,
  extract(body) {
    const doc = asJsonObject(body);
    const info = asJsonObject(doc?.['info']);
    if (!doc || !info) return 'not a PyPI project document (no info object)';
    const releases = asJsonObject(doc['releases']) ?? {};
    let files = 0;
    let yanked = 0;
    let last: string | null = null;
    let lastMs = -Infinity;
    let lastVersion: string | null = null;
    for (const [version, list] of Object.entries(releases)) {
      if (!Array.isArray(list)) continue;
      for (const file of list) {
        const f = asJsonObject(file);
        if (!f) continue;
        files++;
        // `yanked` is per release, repeated on each file.
        if (f['yanked'] === true) {
          yanked++;
          continue;
        }
        const at = instant(f['upload_time_iso_8601']);
        const ms = at === null ? Number.NaN : Date.parse(at);
        if (at !== null && ms > lastMs) {
          last = at;
          lastMs = ms;
          lastVersion = version;
        }
      }
    }
    const classifiers = Array.isArray(info['classifiers']) ? info['classifiers'] : [];
    return {
      name: typeof info['name'] === 'string' ? info['name'] : null,
      version: typeof info['version'] === 'string' ? info['version'] : null,
      inactive_classifier: classifiers.includes(INACTIVE_CLASSIFIER),
      last_upload: last,
      last_upload_version: lastVersion,
      releases: Object.keys(releases).length,
      files,
      yanked_files: yanked,
    };
  },
};

export const SIMPLE_FACTS: FactsSpec<SimpleFacts> = {
  version: 'pypi-simple/1',
  from: import.meta.url,
  extract(body) {
    const doc = asJsonObject(body);
    if (!doc) return 'not a Simple API JSON document';
    const status = asJsonObject(doc['project-status']);
    const apiVersion = asJsonObject(doc['meta'])?.['api-version'];
    return {
      api_version: typeof apiVersion === 'string' ? apiVersion : null,
      project_status: typeof status?.['status'] === 'string' ? status['status'].slice(0, 40) : 'active',
      project_status_reason: typeof status?.['reason'] === 'string' ? status['reason'].slice(0, 500) : null,
    };
  },
};
