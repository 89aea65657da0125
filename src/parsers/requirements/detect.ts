import { withoutComment } from './parse.js';

/**
 * Cheap sniffing for a pasted requirements file when no format is named: most of its first
 * meaningful lines are requirements or pip options, and at least one is a requirement.
 */
const REQUIREMENT = /^[A-Z0-9](?:[\w.-]*[A-Z0-9])?\s*(?:\[[^\]]*\]\s*)?(?:$|[(<>=!~;]|@\s)/i;
const PIP_OPTION = /^-{1,2}[a-z]/;

export function looksRequirements(text: string): boolean {
  const lines = text
    .replace(/^\uFEFF/, '')
    .slice(0, 100_000)
    .split(/\r?\n/)
    .map((l) => withoutComment(l).trim())
    .filter((l) => l !== '' && l !== '\\')
    .slice(0, 50);
  // Continuation lines of --hash options carry no requirement of their own.
  const meaningful = lines.filter((l) => !/^--hash[=\s]/.test(l));
  if (meaningful.length === 0) return false;
  const requirements = meaningful.filter((l) => REQUIREMENT.test(l)).length;
  const options = meaningful.filter((l) => PIP_OPTION.test(l)).length;
  return requirements > 0 && requirements + options >= meaningful.length * 0.8;
}
