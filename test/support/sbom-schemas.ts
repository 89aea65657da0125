import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import ajvFormats from 'ajv-formats';

/**
 * The official CycloneDX and SPDX JSON schemas (test/fixtures/sbom-schemas/SOURCE.md) compiled with
 * ajv, and what the tests of the SBOM written back (the API's ?format= and the CLI's --format)
 * compare: the document without Tended's own fields.
 */
type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

const schema = (file: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/sbom-schemas/${file}`, import.meta.url), 'utf8')) as object;

export interface SbomValidators {
  /** By CycloneDX specVersion: 1.4, 1.5, 1.6. */
  cdx: Record<string, ValidateFunction>;
  /** SPDX 2.3. */
  spdx: ValidateFunction;
}

export function sbomValidators(): SbomValidators {
  const ajv = new Ajv({ strict: false, allErrors: true });
  // A CommonJS module: its default import is module.exports, whose `default` is the plugin.
  ajvFormats.default(ajv);
  // CycloneDX's IRI and IDN formats, which ajv-formats lacks, checked as their ASCII forms (stricter).
  ajv.addFormat('iri-reference', ajv.formats['uri-reference']!);
  ajv.addFormat('idn-email', ajv.formats['email']!);
  ajv.addSchema(schema('spdx.schema.json'), 'spdx.schema.json');
  ajv.addSchema(schema('jsf-0.82.schema.json'), 'jsf-0.82.schema.json');
  const cdx = Object.fromEntries(['1.4', '1.5', '1.6'].map((v) => [v, ajv.compile(schema(`bom-${v}.schema.json`))]));
  return { cdx, spdx: ajv.compile(schema('spdx-2.3.schema.json')) };
}

/** A copy of `doc` without what enrichment writes: our properties (and an added end of life), our annotations. */
export function withoutOurs(value: unknown, dropEndOfLife: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutOurs(v, dropEndOfLife));
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'properties' && Array.isArray(v)) {
      const kept = v.filter(
        (p: Json) =>
          !String(p['name']).startsWith('tended:') &&
          !(dropEndOfLife && p['name'] === 'cdx:lifecycle:milestone:endOfLife'),
      );
      if (kept.length > 0 || !('purl' in value) || v.length === 0) out[k] = kept;
      continue;
    }
    if (k === 'annotations' && Array.isArray(v)) {
      const kept = v.filter((a: Json) => !String(a['annotator']).startsWith('Tool: tended-'));
      if (kept.length > 0 || v.length === 0) out[k] = kept;
      continue;
    }
    out[k] = withoutOurs(v, dropEndOfLife);
  }
  return out;
}

/** The properties of the first CycloneDX component (nested ones included) whose purl starts with `purlStart`. */
export function componentProperties(doc: Json, purlStart: string): Record<string, string> {
  const all: Json[] = [];
  const stack: unknown[] = [doc['components']];
  while (stack.length > 0) {
    const list = stack.pop();
    if (!Array.isArray(list)) continue;
    for (const c of list as Json[]) {
      all.push(c);
      stack.push(c['components']);
    }
  }
  const c = all.find((x) => String(x['purl']).startsWith(purlStart));
  return Object.fromEntries(((c?.['properties'] ?? []) as Json[]).map((p) => [String(p['name']), String(p['value'])]));
}
