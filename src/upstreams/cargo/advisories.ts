/**
 * RustSec's maintenance declarations through OSV (DESIGN §8e, docs/methodology.md): the OSV API's
 * answer to `POST /v1/query` for one crate, and the rule that reads a declaration out of it. An
 * advisory declares the crate unmaintained when one of its `affected` entries is that crates.io
 * package with `database_specific.informational == "unmaintained"` (RustSec's field in OSV), it
 * is not `withdrawn`, and its ranges name no `fixed` version (a fixed version means the declaration
 * was lifted from that release on). OSV carries no structured alternative: no successor is read.
 */
import type { FactsSpec } from '../http/facts-spec.js';
import { instant } from '../reading.js';
import { asJsonObject } from '../../domain/json-object.js';

export type OsvAdvisory = {
  id: string;
  published: string | null;
  modified: string | null;
  withdrawn: string | null;
  summary: string | null;
  /** RustSec's own page for the advisory, from its ADVISORY reference. */
  url: string | null;
  /** The crates.io packages it affects, each with its `informational` kind and whether a range is fixed. */
  affected: { name: string; informational: string | null; fixed: boolean }[];
};

export type OsvQueryFacts = {
  advisories: OsvAdvisory[];
  /** OSV pages a long answer (`next_page_token`); a crate's advisories never come near a page. */
  more_pages: boolean;
};

const MAX_ADVISORIES = 1_000;
const MAX_AFFECTED = 100;

function text(v: unknown, max: number): string | null {
  return typeof v === 'string' && v !== '' ? v.slice(0, max) : null;
}

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function hasFixed(ranges: unknown): boolean {
  return list(ranges).some((r) =>
    list(asJsonObject(r)?.['events']).some((e) => asJsonObject(e)?.['fixed'] !== undefined),
  );
}

/** One OSV record as the rule reads it (the API's answers and the export's `<ID>.json` alike); null without an id. */
export function advisoryOf(v: unknown): OsvAdvisory | null {
  const a = asJsonObject(v);
  const id = text(a?.['id'], 100);
  if (!a || id === null) return null;
  const affected: OsvAdvisory['affected'] = [];
  for (const entry of list(a['affected']).slice(0, MAX_AFFECTED).map(asJsonObject)) {
    const pkg = asJsonObject(entry?.['package']);
    const name = text(pkg?.['name'], 100);
    if (!entry || pkg?.['ecosystem'] !== 'crates.io' || name === null) continue;
    affected.push({
      name,
      informational: text(asJsonObject(entry['database_specific'])?.['informational'], 40),
      fixed: hasFixed(entry['ranges']),
    });
  }
  const advisoryRef = list(a['references'])
    .map(asJsonObject)
    .find((r) => r?.['type'] === 'ADVISORY');
  return {
    id,
    published: instant(a['published']),
    modified: instant(a['modified']),
    withdrawn: instant(a['withdrawn']),
    summary: text(a['summary'], 300),
    url: text(advisoryRef?.['url'], 500),
    affected,
  };
}

export const OSV_QUERY_FACTS: FactsSpec<OsvQueryFacts> = {
  version: 'osv-query/1',
  from: import.meta.url,
  extract(body) {
    const doc = asJsonObject(body);
    if (!doc) return 'not an OSV query answer (not a JSON object)';
    const vulns = doc['vulns'];
    // OSV answers `{}` for a package it holds nothing for.
    if (vulns !== undefined && !Array.isArray(vulns)) return 'not an OSV query answer (vulns is not a list)';
    const advisories: OsvAdvisory[] = [];
    for (const v of list(vulns).slice(0, MAX_ADVISORIES)) {
      const a = advisoryOf(v);
      if (!a) return 'an OSV record without an id';
      advisories.push(a);
    }
    return { advisories, more_pages: typeof doc['next_page_token'] === 'string' && doc['next_page_token'] !== '' };
  },
};

/** One OSV record as the export publishes it (`<ecosystem>/<ID>.json`). */
export const OSV_RECORD_FACTS: FactsSpec<OsvAdvisory> = {
  version: 'osv-record/1',
  from: import.meta.url,
  extract(body) {
    return advisoryOf(body) ?? 'not an OSV record (no id)';
  },
};

/**
 * The crates an advisory speaks of as unmaintained, withdrawn or lifted too: each of those changes
 * what the rule below answers for the crate, so each is worth a read when the advisory changes.
 */
export function unmaintainedCrates(a: OsvAdvisory): string[] {
  return [...new Set(a.affected.filter((e) => e.informational === 'unmaintained').map((e) => e.name))];
}

/** Crate names compare as crates.io compares them: case-insensitively, `-` and `_` alike. */
function sameCrate(a: string, b: string): boolean {
  const canonical = (s: string) => s.toLowerCase().replaceAll('_', '-');
  return canonical(a) === canonical(b);
}

export interface CrateDeclarations {
  /** Unmaintained advisories in force, earliest published first. */
  unmaintained: OsvAdvisory[];
  /** Unmaintained advisories OSV marks withdrawn: they declare nothing, and are named as such. */
  withdrawn: OsvAdvisory[];
}

/** The unmaintained advisories of `crate` in an OSV answer, in force and withdrawn. */
export function crateDeclarations(facts: OsvQueryFacts, crate: string): CrateDeclarations {
  const unmaintained: OsvAdvisory[] = [];
  const withdrawn: OsvAdvisory[] = [];
  for (const a of facts.advisories) {
    const entry = a.affected.find((e) => sameCrate(e.name, crate) && e.informational === 'unmaintained');
    if (!entry) continue;
    if (a.withdrawn !== null) withdrawn.push(a);
    else if (!entry.fixed) unmaintained.push(a);
  }
  unmaintained.sort((x, y) => (x.published ?? '').localeCompare(y.published ?? ''));
  return { unmaintained, withdrawn };
}
