/** What the reader keeps from an endoflife.date v1 product answer (research §4.2). */
import { isCalendarDate } from '../../domain/calendar.js';
import type { FactsSpec } from '../http/facts-spec.js';
import { asJsonObject } from '../../domain/json-object.js';

export type ReleaseFacts = {
  name: string;
  codename: string | null;
  is_eol: boolean;
  /** Calendar date (YYYY-MM-DD) or null when unknown. */
  eol_from: string | null;
  is_maintained: boolean | null;
  eoes_from: string | null;
  /** The cycle's latest release (a point release) and its date, when the listing gives them. */
  latest: string | null;
  latest_date: string | null;
};

export type ProductFacts = {
  name: string;
  releases: ReleaseFacts[];
};

/** The listing writes dates as YYYY-MM-DD; anything else (a boolean in v0 style, a typo) is no date. */
function date(v: unknown): string | null {
  return typeof v === 'string' && isCalendarDate(v.slice(0, 10)) ? v.slice(0, 10) : null;
}

export const PRODUCT_FACTS: FactsSpec<ProductFacts> = {
  // /2: adds each cycle's latest release and its date; cached /1 facts are re-read.
  version: 'endoflife-product/2',
  from: import.meta.url,
  extract(body) {
    const result = asJsonObject(asJsonObject(body)?.['result']);
    if (!result || typeof result['name'] !== 'string' || !Array.isArray(result['releases'])) {
      return 'not an endoflife.date v1 product (no result.name and result.releases)';
    }
    const releases: ReleaseFacts[] = [];
    for (const raw of result['releases']) {
      const r = asJsonObject(raw);
      if (!r || typeof r['name'] !== 'string') continue;
      releases.push({
        name: r['name'],
        codename: typeof r['codename'] === 'string' ? r['codename'] : null,
        is_eol: r['isEol'] === true,
        eol_from: date(r['eolFrom']),
        is_maintained: typeof r['isMaintained'] === 'boolean' ? r['isMaintained'] : null,
        eoes_from: date(r['eoesFrom']),
        latest:
          typeof asJsonObject(r['latest'])?.['name'] === 'string'
            ? String(asJsonObject(r['latest'])!['name']).slice(0, 50)
            : null,
        latest_date: date(asJsonObject(r['latest'])?.['date']),
      });
    }
    return { name: result['name'], releases };
  },
};

/**
 * End of life on `today`: the listing says so, or its end-of-life date has come (the listing's
 * own flag was computed when it was generated, which may be before today). Paid or extended
 * support (`isMaintained`) does not undo it; it is recorded beside.
 */
export function isEolOn(release: ReleaseFacts, today: string): boolean {
  return release.is_eol || (release.eol_from !== null && release.eol_from <= today);
}

/**
 * Supported on `today` (DESIGN §3, revised 2026-11-26): not end-of-life, and the listing either
 * says some support goes on (`isMaintained`) or dates the end of life after today. A release
 * whose listing says neither (no support flag, no end-of-life date) is not taken as supported:
 * the record does not guess, and such a release ages by its latest point release.
 */
export function isSupportedOn(release: ReleaseFacts, today: string): boolean {
  if (isEolOn(release, today)) return false;
  if (release.is_maintained !== null) return release.is_maintained;
  return release.eol_from !== null && release.eol_from > today;
}
