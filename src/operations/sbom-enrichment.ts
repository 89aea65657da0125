/**
 * The SBOM written back (DESIGN §8e, docs/api.md "The SBOM written back"): the submitted SBOM, in
 * its own format, every field as it was, each component that has a result carrying it in the
 * `tended:` namespace. Used by `POST /api/v1/sbom?format=` and `tended check --format`. The SBOM is
 * enriched in memory and returned, never stored or logged, like every submission.
 */
import { API_VERSION } from '../domain/api-version.js';
import { isCalendarDate } from '../domain/calendar.js';
import { componentPurls } from '../domain/component.js';
import { ValidationError } from '../domain/errors.js';
import { componentFromPurl } from '../domain/purl-component.js';
import { enrichCycloneDx } from '../parsers/cyclonedx/enrich.js';
import type { ParseResult } from '../parsers/reference.js';
import { indentOf, isObject, type ComponentFacts } from '../parsers/sbom-enrichment.js';
import { enrichSpdx } from '../parsers/spdx/enrich.js';
import type { CheckedResult } from './entity-answer.js';

/** Every property (CycloneDX) and comment line (SPDX) Tended writes begins with it. */
export const ENRICHMENT_NAMESPACE = 'tended:';
export const SBOM_FORMATS = ['cyclonedx', 'spdx'] as const;
export type SbomFormat = (typeof SBOM_FORMATS)[number];

export const ENRICHED_MEDIA_TYPES: Record<SbomFormat, string> = {
  cyclonedx: 'application/vnd.cyclonedx+json',
  spdx: 'application/spdx+json',
};

/** What is needed of a result: the answer's own, or an SBOM answer's with the input it came from. */
type Enrichable = Pick<
  CheckedResult,
  'kind' | 'purl' | 'state' | 'as_of' | 'observation_date' | 'censoring_status' | 'source' | 'leaf_index' | 'evidence'
> &
  Pick<Partial<CheckedResult>, 'successor'>;

/**
 * The facts, in the order they are written. Values are one line each (the SPDX comment holds one
 * fact a line); a null fact (nothing observed, so no date and no log leaf) is left out.
 */
export function componentFacts(r: Enrichable): ComponentFacts {
  const pairs: [string, string][] = [
    ['state', r.state],
    ['as_of', r.as_of],
    ['observation_date', r.observation_date],
    ['censoring_status', r.censoring_status],
    ['source', r.source],
    ['leaf_index', r.leaf_index === null ? null : String(r.leaf_index)],
    ['successor', r.successor === undefined ? null : successorPurl(r.successor)],
  ]
    .filter((pair): pair is [string, string] => pair[1] !== null)
    .map(([name, value]) => [`${ENRICHMENT_NAMESPACE}${name}`, value.replace(/[\r\n]+/g, ' ')]);
  if (r.state !== 'eol') return { pairs };
  // The listing's own end-of-life date (docker and distro readings keep it as eol_from); without
  // one, the date the record saw the end of life declared, by which it had come.
  const declared = r.evidence?.['eol_from'];
  const endOfLife = typeof declared === 'string' && isCalendarDate(declared) ? declared : r.observation_date;
  return endOfLife === null ? { pairs } : { pairs, endOfLife };
}

/** A successor as a purl, which SBOM tools read; its kind and name when no purl can be made of them. */
function successorPurl(s: NonNullable<CheckedResult['successor']>): string {
  try {
    return componentPurls({ kind: s.kind, id: s.name })[1];
  } catch {
    return `${s.kind}:${s.name}`;
  }
}

/** A submitted SBOM read for writing back: checked before any result is looked up. */
export interface WritableSbom {
  format: SbomFormat;
  doc: Record<string, unknown>;
  /** The document's own indentation, kept in the answer. */
  indent: string;
  mediaType: string;
}

/** How the refusals name the option and the way back to the plain answer: the API's words by default. */
export interface FormatWords {
  /** The option as the asker wrote it, given a format: `format=cyclonedx`, `--format cyclonedx`. */
  option: (format: SbomFormat) => string;
  /** How to ask for the plain answer instead. */
  plain: string;
  /** What was sent: a submission to the API, a file to the CLI. */
  sent: string;
}

const API_WORDS: FormatWords = {
  option: (f) => `format=${f}`,
  plain: 'leave format out for the JSON answer',
  sent: 'submission',
};

/**
 * The SBOM ready to be written back, or a ValidationError (a 422 at the API, a usage error in the
 * CLI) when the format asked is not the SBOM's, or the SBOM is in a form that cannot be written back.
 */
export function writableSbom(
  text: string,
  parsed: Pick<ParseResult, 'format' | 'variant'>,
  asked: SbomFormat,
  words: FormatWords = API_WORDS,
): WritableSbom {
  const variant = parsed.variant ?? parsed.format;
  const refuse = (msg: string) => new ValidationError([{ loc: ['query', 'format'], msg, type: 'value_error.format' }]);
  if (parsed.format !== asked) {
    const own =
      parsed.format === 'cyclonedx' || parsed.format === 'spdx' ? ` ask ${words.option(parsed.format)} for it, or` : '';
    throw refuse(
      `${words.option(asked)} returns the submitted SBOM enriched in its own format, and this ${words.sent} is ${variant}, not ${asked === 'cyclonedx' ? 'CycloneDX' : 'SPDX'}: Tended does not convert between formats;${own} ${words.plain}.`,
    );
  }
  if (!/ JSON$/.test(variant) || (asked === 'spdx' && !/^SPDX 2\.[23] /.test(variant)))
    throw refuse(
      `${variant} cannot be written back yet: ${words.option(asked)} enriches CycloneDX JSON (1.3 and later) and SPDX 2.2/2.3 JSON; convert the SBOM to one of them (for example with cyclonedx-cli or spdx-tools), or ${words.plain}.`,
    );
  const body = text.replace(/^\uFEFF/, '');
  const doc = JSON.parse(body) as unknown;
  if (!isObject(doc)) throw refuse('The SBOM is not a JSON object, so there is nothing to enrich.');
  const indent = indentOf(body);
  if (asked === 'spdx') return { format: asked, doc, indent, mediaType: ENRICHED_MEDIA_TYPES.spdx };
  const spec = typeof doc['specVersion'] === 'string' ? doc['specVersion'] : '';
  // Component properties came in CycloneDX 1.3: adding them to an older document would make it invalid.
  if (!/^1\.(?:[3-9]|\d{2,})$/.test(spec))
    throw refuse(
      `CycloneDX ${spec.slice(0, 10) || '(no specVersion)'} has no component properties (they came in 1.3), so nothing can be written into it; upgrade the SBOM to 1.3 or later (cyclonedx-cli convert), or ${words.plain}.`,
    );
  return { format: asked, doc, indent, mediaType: `${ENRICHED_MEDIA_TYPES.cyclonedx}; version=${spec}` };
}

/** The SBOM enriched with `results` (its document is changed in place), as text in its own format. */
export function enrichedSbom(sbom: WritableSbom, results: readonly Enrichable[]): string {
  const factsOf = factsByPurl(results);
  if (sbom.format === 'cyclonedx') enrichCycloneDx(sbom.doc, ENRICHMENT_NAMESPACE, factsOf);
  else {
    const asOf = results[0]?.as_of ?? '1970-01-01';
    enrichSpdx(
      sbom.doc,
      { annotator: `Tool: tended-${API_VERSION}`, annotatorPrefix: 'Tool: tended-', date: `${asOf}T00:00:00Z` },
      factsOf,
    );
  }
  return `${JSON.stringify(sbom.doc, null, sbom.indent)}${sbom.indent === '' ? '' : '\n'}`;
}

/** The result for a purl as the parser read it: by the component it names, each purl resolved once. */
function factsByPurl(results: readonly Enrichable[]): (purl: string) => ComponentFacts | undefined {
  const byComponent = new Map<string, Enrichable>();
  for (const r of results) byComponent.set(`${r.kind}:${r.purl[0]}`, r);
  const seen = new Map<string, ComponentFacts | undefined>();
  return (purl) => {
    if (seen.has(purl)) return seen.get(purl);
    let facts: ComponentFacts | undefined;
    try {
      const ref = componentFromPurl(purl);
      const r = byComponent.get(`${ref.kind}:${ref.id}`);
      facts = r === undefined ? undefined : componentFacts(r);
    } catch {
      // A purl Tended cannot read has no result: the component is left as it was.
      facts = undefined;
    }
    seen.set(purl, facts);
    return facts;
  };
}

/** `?format=` / `--format` read: undefined for the JSON answer. */
export function isSbomFormat(value: string): value is SbomFormat {
  return (SBOM_FORMATS as readonly string[]).includes(value);
}
