/**
 * CycloneDX JSON written back enriched (DESIGN §8e): each component whose purl has a result gets
 * the result's facts as `properties`, after its own, which stay untouched and in order. Properties
 * already in the namespace are replaced, so enriching an enriched SBOM gives the same SBOM. An
 * end of life is also written as the taxonomy's `cdx:lifecycle:milestone:endOfLife` (an ISO 8601
 * date), unless the component already carries one: the SBOM's own word is kept.
 */
import { isObject, type FactsOf } from '../sbom-enrichment.js';

/** The CycloneDX property taxonomy's end-of-life milestone (github.com/CycloneDX/cyclonedx-property-taxonomy, cdx/lifecycle.md). */
export const CDX_END_OF_LIFE = 'cdx:lifecycle:milestone:endOfLife';

/**
 * Enriches the parsed document in place. The components are those the parser reads
 * (`components` and `metadata.component.components`, nested to any depth the parser accepted);
 * `metadata.component`, the SBOM's subject, has no result and is left alone.
 */
export function enrichCycloneDx(doc: Record<string, unknown>, namespace: string, factsOf: FactsOf): void {
  const metadata = doc['metadata'];
  const lists: unknown[] = [doc['components']];
  if (isObject(metadata) && isObject(metadata['component'])) lists.push(metadata['component']['components']);
  // A stack, not recursion: the walk's depth is the document's, whatever it is.
  while (lists.length > 0) {
    const list = lists.pop();
    if (!Array.isArray(list)) continue;
    for (const component of list) {
      if (!isObject(component)) continue;
      enrichComponent(component, namespace, factsOf);
      if (component['components'] !== undefined) lists.push(component['components']);
    }
  }
}

function enrichComponent(component: Record<string, unknown>, namespace: string, factsOf: FactsOf): void {
  const existing = component['properties'];
  // Properties that are not a list make the SBOM invalid already; they are not ours to mend.
  if (existing !== undefined && !Array.isArray(existing)) return;
  const kept = (existing ?? []).filter((p: unknown) => !(isObject(p) && ourName(p['name'], namespace)));
  const purl = component['purl'];
  const facts = typeof purl === 'string' ? factsOf(purl.trim()) : undefined;
  if (facts !== undefined) {
    // Before our own properties, so that a second enrichment (which keeps it) gives the same order.
    if (facts.endOfLife !== undefined && !kept.some((p: unknown) => isObject(p) && p['name'] === CDX_END_OF_LIFE))
      kept.push({ name: CDX_END_OF_LIFE, value: facts.endOfLife });
    for (const [name, value] of facts.pairs) kept.push({ name, value });
  }
  if (existing === undefined && kept.length === 0) return;
  component['properties'] = kept;
}

function ourName(name: unknown, namespace: string): boolean {
  return typeof name === 'string' && name.startsWith(namespace);
}
