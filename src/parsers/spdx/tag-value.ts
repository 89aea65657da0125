/**
 * SPDX 2.x tag-value: `Tag: value` lines, `#` comments, and `<text>…</text>` values that may
 * span lines. `PackageName:` opens a package; the `SPDXID:` and `ExternalRef:` lines that
 * follow belong to it until a file, snippet or licence section begins.
 */
import { InputError } from '../reference.js';
import { excerpt } from '../../domain/text.js';

export interface TagValuePackage {
  name: string;
  version?: string;
  spdxId?: string;
  purl?: string;
  line: number;
}

export interface TagValueDocument {
  version: string;
  packages: TagValuePackage[];
  /** The SPDXIDs the document DESCRIBES (its `Relationship:` lines, either direction). */
  describes: string[];
  /** Every `Relationship: A TYPE B` line, for the dependency graph. */
  relationships: { from: string; type: string; to: string }[];
}

// Tags that open a section that is not a package, so later SPDXID lines are not the package's.
const SECTION_ENDS = new Set(['FileName', 'SnippetSPDXID', 'LicenseID']);
// The tags whose values the reader uses; any other <text> value is skipped, not assembled.
const VALUED_TAGS = new Set(['SPDXVersion', 'Relationship', 'SPDXID', 'PackageName', 'PackageVersion', 'ExternalRef']);

/** True when the category names a package manager in any spelling SPDX writers use. */
export function isPackageManagerCategory(category: unknown): boolean {
  if (typeof category !== 'string') return false;
  return (
    category
      .replace(/^.*referenceCategory_/, '')
      .replace(/[-_\s]/g, '')
      .toLowerCase() === 'packagemanager'
  );
}

function shown(line: string): string {
  return JSON.stringify(excerpt(line, 41));
}

export function readTagValue(text: string): TagValueDocument {
  const lines = text.split(/\r\n|\r|\n/);
  const doc: TagValueDocument = { version: '', packages: [], describes: [], relationships: [] };
  let current: TagValuePackage | undefined;
  // The document's own SPDXID is the first one, in the header before any package or file section.
  let documentId = 'SPDXRef-DOCUMENT';
  let inHeader = true;
  for (let i = 0; i < lines.length; i += 1) {
    const line = (lines[i] ?? '').replace(/^\uFEFF/, '');
    const lineNo = i + 1;
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const m = /^\s*([A-Z][\w-]*)\s*:\s?(.*)$/i.exec(line);
    if (!m) {
      throw new InputError(`Expected an SPDX tag-value line "Tag: value" on line ${lineNo}, but found ${shown(line)}.`);
    }
    const tag = m[1] ?? '';
    let value = (m[2] ?? '').trim();
    if (value.startsWith('<text>')) {
      // A <text> value runs to the first </text>, possibly lines later; its lines are not tags.
      // Each line is searched once (a growing string searched whole on every line is quadratic).
      let j = i;
      let last = value;
      while (!last.includes('</text>')) {
        j += 1;
        if (j >= lines.length) {
          throw new InputError(
            `The <text> value of "${tag}" that starts on line ${lineNo} is never closed with </text>.`,
          );
        }
        last = lines[j] ?? '';
      }
      // Only the tags read below need the value: a comment's many lines are not joined to be dropped.
      if (VALUED_TAGS.has(tag)) {
        const text = [value.slice('<text>'.length), ...lines.slice(i + 1, j + 1)].join('\n');
        value = text.slice(0, text.indexOf('</text>')).trim();
      } else value = '';
      i = j;
    }
    if (doc.version === '') {
      if (tag !== 'SPDXVersion') {
        throw new InputError(
          `Expected SPDX tag-value to begin with "SPDXVersion:", but line ${lineNo} is ${shown(line)}.`,
        );
      }
      doc.version = value;
      continue;
    }
    if (tag === 'Relationship') {
      const [from, type, to] = value.split(/\s+/);
      if (type === 'DESCRIBES' && from === documentId && to) doc.describes.push(to);
      else if (type === 'DESCRIBED_BY' && to === documentId && from) doc.describes.push(from);
      if (from && type && to) doc.relationships.push({ from, type, to });
    } else if (tag === 'SPDXID' && inHeader) {
      documentId = value;
      inHeader = false;
    } else if (tag === 'PackageName') {
      inHeader = false;
      current = { name: value, line: lineNo };
      doc.packages.push(current);
    } else if (SECTION_ENDS.has(tag)) {
      inHeader = false;
      current = undefined;
    } else if (current) {
      if (tag === 'SPDXID' && current.spdxId === undefined) current.spdxId = value;
      else if (tag === 'PackageVersion') current.version = value;
      else if (tag === 'ExternalRef' && current.purl === undefined) {
        const [category, type, locator] = value.split(/\s+/);
        if (isPackageManagerCategory(category) && type === 'purl' && locator) current.purl = locator;
      }
    }
  }
  if (doc.version === '')
    throw new InputError('Expected SPDX tag-value beginning with "SPDXVersion:", but the text has no tags.');
  return doc;
}
