/**
 * Turns one SBOM entry into a reference or an unresolved entry. SPDX reuses it too: both
 * formats identify a package by purl, and the reasons given for a purl Tended cannot look
 * up must read the same whichever SBOM it came from.
 */
import { componentFromPurl } from '../domain/purl-component.js';
import { ValidationError } from '../domain/errors.js';
import {
  addUnresolved,
  type ComponentReference,
  type SbomSubject,
  type UnlistedEntries,
  type UnresolvedEntry,
} from './reference.js';

/** Purl types componentFromPurl accepts; named in reasons so the reader knows what would work. */
const OBSERVED_TYPES = [
  'github',
  'githubactions',
  'npm',
  'pypi',
  'docker',
  'oci',
  'maven',
  'golang',
  'cargo',
  'nuget',
  'gem',
  'composer',
  'deb',
  'apk',
  'rpm',
];

export const NO_PURL_REASON = 'names no package URL (purl), so it cannot be looked up';

export interface Accounting {
  references: ComponentReference[];
  unresolved: UnresolvedEntry[];
  unlisted?: UnlistedEntries;
}

/**
 * Records one entry. `purl` is whatever the entry carried (anything, since the input is
 * untrusted); `label` names the entry when it has no purl to show instead.
 */
export function accountEntry(acc: Accounting, purl: unknown, label: string, location: string): void {
  if (purl === undefined || purl === null || (typeof purl === 'string' && purl.trim() === '')) {
    addUnresolved(acc, { input: label, location, reason: NO_PURL_REASON });
    return;
  }
  if (typeof purl !== 'string') {
    addUnresolved(acc, {
      input: label,
      location,
      reason: `its package URL (purl) is a ${Array.isArray(purl) ? 'list' : typeof purl}, not a string, so it cannot be looked up`,
    });
    return;
  }
  const input = purl.trim();
  const type = /^pkg:\/*([A-Za-z][A-Za-z0-9.+-]*)\//.exec(input)?.[1]?.toLowerCase();
  if (type !== undefined && !OBSERVED_TYPES.includes(type)) {
    addUnresolved(acc, {
      input,
      location,
      reason: `its package URL is of type "${type.slice(0, 20)}", and Tended observes only ${OBSERVED_TYPES.slice(0, -1).join(', ')} and ${OBSERVED_TYPES.at(-1)} packages`,
    });
    return;
  }
  try {
    acc.references.push({ ref: componentFromPurl(input), input, location });
  } catch (e) {
    // A ValidationError already says what a usable purl looks like. Anything else is a
    // fault in the domain code, but one bad entry must not sink the whole SBOM.
    const why = e instanceof ValidationError ? e.message : 'it could not be read as a package URL';
    addUnresolved(acc, { input, location, reason: why });
  }
}

/** `name@version` (with a group or namespace when given) for entries that have no purl. */
export function entryLabel(name: unknown, version: unknown, group?: unknown): string {
  const n = typeof name === 'string' && name !== '' ? name : '(unnamed)';
  const g = typeof group === 'string' && group !== '' ? `${group}/` : '';
  const v = typeof version === 'string' && version !== '' && version !== 'NOASSERTION' ? `@${version}` : '';
  return `${g}${n}${v}`;
}

/**
 * A short stand-in for an entry that is not an object. Never JSON.stringify: a hostile entry
 * can be an array nested deeply enough to overflow the stack.
 */
export function shownValue(x: unknown): string {
  if (Array.isArray(x)) return '(a list)';
  if (typeof x === 'string') return x.slice(0, 40);
  if (typeof x === 'number' || typeof x === 'boolean' || x === null) return String(x);
  return `(a ${typeof x})`;
}

function text(x: unknown): string | undefined {
  return typeof x === 'string' && x.trim() !== '' ? x.trim() : undefined;
}

/**
 * An SBOM's subject from its (untrusted) fields: only non-empty strings are kept. Null when the
 * entry names nothing at all (no name, purl or reference).
 */
export function sbomSubject(fields: {
  name: unknown;
  version?: unknown;
  group?: unknown;
  purl?: unknown;
  ref?: unknown;
}): SbomSubject | null {
  const name = text(fields.name);
  const group = text(fields.group);
  const version = text(fields.version);
  const purl = text(fields.purl);
  const ref = text(fields.ref);
  if (name === undefined && purl === undefined && ref === undefined) return null;
  return {
    name: `${group !== undefined ? `${group}/` : ''}${name ?? '(unnamed)'}`,
    ...(version !== undefined && version !== 'NOASSERTION' ? { version } : {}),
    ...(purl !== undefined ? { purl } : {}),
    ...(ref !== undefined ? { bom_ref: ref } : {}),
  };
}
