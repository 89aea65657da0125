/**
 * Cheap sniffing for a pasted workflow when no format is named: a top-level `jobs:` or `on:`
 * key (or `runs:` of an action.yml), found by regex so a large paste is never parsed twice.
 */
const TOP_LEVEL_KEY = /^(?:jobs|runs|["']?on["']?)[ \t]*:/m;

export function looksWorkflow(text: string): boolean {
  const head = text.slice(0, 200_000);
  // JSON is also YAML, but a JSON paste is a package.json or an SBOM, never a workflow.
  if (/^\s*[{[]/.test(head)) return false;
  return TOP_LEVEL_KEY.test(head);
}
