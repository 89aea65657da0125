/**
 * Cheap sniffing for a pasted package.json when no format is named: a JSON object with a
 * dependency section, or with both "name" and "version". A regex over the text, because a
 * CycloneDX or SPDX JSON paste must not be parsed twice just to be turned away.
 */
const DEPENDENCY_KEY = /"(?:dependencies|devDependencies|optionalDependencies|peerDependencies)"\s*:\s*\{/;

export function looksPackageJson(text: string): boolean {
  const head = text.replace(/^\uFEFF/, '').slice(0, 200_000);
  if (!/^\s*\{/.test(head)) return false;
  // SBOMs carry name/version pairs too; their own markers rule them out.
  if (/"(?:bomFormat|spdxVersion|SPDXID|@context)"\s*:/.test(head)) return false;
  return DEPENDENCY_KEY.test(head) || (/"name"\s*:\s*"/.test(head) && /"version"\s*:\s*"/.test(head));
}
