/**
 * What an enricher writes onto one SBOM component, in the format's own form: the result's facts as
 * `name=value` pairs (all in one namespace, so a later enrichment can find and replace them) and,
 * for an end of life, its date. Parsers know only this shape; which facts they are, and their
 * names, are the operations' (src/operations/sbom-enrichment.ts).
 */
export interface ComponentFacts {
  pairs: [name: string, value: string][];
  /** The end-of-life date (YYYY-MM-DD) when the result's state is `eol`. */
  endOfLife?: string;
}

/** The facts for a component's trimmed purl, or undefined when the answer holds no result for it. */
export type FactsOf = (purl: string) => ComponentFacts | undefined;

export function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/**
 * The indentation the document was written with (the leading blanks of its second line), so the
 * enriched SBOM reads like the one submitted: 0 for a document on one line.
 */
export function indentOf(text: string): string {
  const newline = text.indexOf('\n');
  if (newline < 0) return '';
  let end = newline + 1;
  while (end < text.length && end - newline <= 10 && (text[end] === ' ' || text[end] === '\t')) end++;
  return text.slice(newline + 1, end);
}
