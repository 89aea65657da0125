/**
 * SPDX 2.3 JSON written back enriched (DESIGN §8e): each package whose purl has a result gets one
 * annotation (type OTHER) by the annotator given, its comment the result's facts one `name=value`
 * a line, after the package's own annotations, which stay untouched and in order. An earlier
 * annotation by the same tool (any version: `Tool: tended-…`) is replaced, so enriching an
 * enriched SBOM gives the same SBOM. The annotation's date is the answer's date (midnight UTC),
 * not the moment of the request, for the same reason.
 */
import { isObject, type FactsOf } from '../sbom-enrichment.js';
import { purlOf } from './parse.js';

export interface SpdxAnnotation {
  /** `Tool: tended-VERSION`. */
  annotator: string;
  /** What every earlier annotation of ours begins its annotator with. */
  annotatorPrefix: string;
  /** ISO 8601 date and time, UTC. */
  date: string;
}

export function enrichSpdx(doc: Record<string, unknown>, annotation: SpdxAnnotation, factsOf: FactsOf): void {
  const packages = doc['packages'];
  if (!Array.isArray(packages)) return;
  for (const p of packages) {
    if (!isObject(p)) continue;
    const existing = p['annotations'];
    if (existing !== undefined && !Array.isArray(existing)) continue;
    const kept = (existing ?? []).filter(
      (a: unknown) =>
        !(isObject(a) && typeof a['annotator'] === 'string' && a['annotator'].startsWith(annotation.annotatorPrefix)),
    );
    const purl = purlOf(p['externalRefs']);
    const facts = typeof purl === 'string' ? factsOf(purl.trim()) : undefined;
    if (facts !== undefined)
      kept.push({
        annotationDate: annotation.date,
        annotationType: 'OTHER',
        annotator: annotation.annotator,
        comment: facts.pairs.map(([name, value]) => `${name}=${value}`).join('\n'),
      });
    if (existing === undefined && kept.length === 0) continue;
    p['annotations'] = kept;
  }
}
