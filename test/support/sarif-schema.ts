import { readFileSync } from 'node:fs';
import type { ValidateFunction } from 'ajv';
import ajvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';

/**
 * The OASIS SARIF 2.1.0 schema as approved with its errata (test/vectors/sarif, see the README row),
 * compiled with ajv. The schema is JSON Schema draft-04, which Ajv 8 reads only through its
 * draft-04 class. Every test that checks `tended check --format sarif` validates with this one.
 */
export function sarifValidator(): ValidateFunction {
  // CommonJS modules: each default import is module.exports, whose `default` is the class or plugin.
  const ajv = new ajvDraft04.default({ allErrors: true, strict: false });
  ajvFormats.default(ajv);
  const schema = JSON.parse(
    readFileSync(new URL('../vectors/sarif/sarif-schema-2.1.0.json', import.meta.url), 'utf8'),
  ) as object;
  return ajv.compile(schema);
}
