/** What the reader keeps from a Docker Hub tag answer (research §5.1). */
import type { FactsSpec } from '../http/facts-spec.js';
import { instant } from '../reading.js';

export type TagFacts = {
  name: string | null;
  tag_last_pushed: string | null;
  last_updated: string | null;
  /** `active` or `inactive`: pushed to or pulled in the past month. */
  tag_status: string | null;
  digest: string | null;
};

export const TAG_FACTS: FactsSpec<TagFacts> = {
  version: 'dockerhub-tag/1',
  from: import.meta.url,
  extract(body) {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'not a Docker Hub tag object';
    const t = body as Record<string, unknown>;
    const str = (v: unknown, max: number) => (typeof v === 'string' ? v.slice(0, max) : null);
    return {
      name: str(t['name'], 128),
      tag_last_pushed: instant(t['tag_last_pushed']),
      last_updated: instant(t['last_updated']),
      tag_status: str(t['tag_status'] ?? t['status'], 20),
      digest: str(t['digest'], 100),
    };
  },
};
