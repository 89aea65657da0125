/** What the Go reader keeps from the module proxy (research upstreams-more §2): `@latest` and the latest go.mod. */
import { instant } from '../reading.js';
import type { FactsSpec } from '../http/facts-spec.js';
import { readGoMod } from './go-mod.js';
import { asJsonObject } from '../../domain/json-object.js';

export type LatestFacts = {
  version: string | null;
  /** The version's commit time, as the proxy reports it. */
  time: string | null;
  /** Where the proxy fetched it from (recent versions only). */
  origin_url: string | null;
};

export type GoModFactsValue = { deprecated: string | null; retracted: string[] };

export const LATEST_FACTS: FactsSpec<LatestFacts> = {
  version: 'goproxy-latest/1',
  from: import.meta.url,
  extract(body) {
    const doc = asJsonObject(body);
    if (!doc) return 'the @latest answer is not a JSON object';
    const version = typeof doc['Version'] === 'string' ? doc['Version'].slice(0, 100) : null;
    if (version === null) return 'the @latest answer names no Version';
    const url = asJsonObject(doc['Origin'])?.['URL'];
    return {
      version,
      time: instant(doc['Time']),
      origin_url: typeof url === 'string' ? url.slice(0, 300) : null,
    };
  },
};

export const GO_MOD_FACTS: FactsSpec<GoModFactsValue> = {
  version: 'go-mod/1',
  from: import.meta.url,
  extract(body) {
    if (typeof body !== 'string') return 'the go.mod is not text';
    const facts = readGoMod(body);
    return { deprecated: facts.deprecated, retracted: facts.retracted };
  },
};
