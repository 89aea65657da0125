/**
 * Pipfile.lock (`_meta.pipfile-spec` 6): every package pipenv pinned, in `default` (what the
 * project runs with) and `develop` (dev). The file keeps no graph and does not mark which entries
 * the Pipfile names itself, so there is a version and dev, but no scope and no path. An entry from
 * git, a path, a file URL or installed editable is not a PyPI package; nor is one pinned to an
 * index (`"index": "name"`) whose URL in `_meta.sources` is not PyPI's.
 */
import { normaliseComponent } from '../../domain/component.js';
import { ValidationError } from '../../domain/errors.js';
import { githubRepositoryPath } from '../github-url.js';
import { checkJsonDepth } from '../json-depth.js';
import { MemberLines } from '../json-member-lines.js';
import {
  addUnresolved,
  InputError,
  type ComponentReference,
  type ParseResult,
  type UnlistedEntries,
  type UnresolvedEntry,
} from '../reference.js';
import { shownVersion } from '../toml-lockfile.js';

const SECTIONS = ['default', 'develop'] as const;
const PYPI = /^https:\/\/(?:pypi\.org|pypi\.python\.org)\/simple\/?$/;
type Json = Record<string, unknown>;

function object(v: unknown): Json | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null;
}

export function parsePipfileLock(text: string, options: { lines?: boolean } = {}): ParseResult {
  const source = text.replace(/^\uFEFF/, '');
  checkJsonDepth(source);
  let doc: Json | null;
  try {
    doc = object(JSON.parse(source));
  } catch (e) {
    throw new InputError(
      `Expected a Pipfile.lock, but it is not valid JSON: ${e instanceof Error ? e.message.slice(0, 120) : 'unreadable'}`,
    );
  }
  const meta = object(doc?.['_meta']);
  if (!doc || !meta)
    throw new InputError('Expected a Pipfile.lock, but it has no "_meta". Send the Pipfile.lock pipenv wrote.');
  const spec = meta['pipfile-spec'];
  if (spec !== 6)
    throw new InputError(
      `Pipfile.lock pipfile-spec ${shownVersion(spec)} is not one Tended reads (it reads 6). Regenerate it with a current pipenv (pipenv lock).`,
    );
  // Index names whose URL is not PyPI's: a package pinned to one of them may not be on PyPI at all.
  const otherIndexes = new Map<string, string>();
  for (const s of Array.isArray(meta['sources']) ? meta['sources'] : []) {
    const name = object(s)?.['name'];
    const url = object(s)?.['url'];
    if (typeof name === 'string' && typeof url === 'string' && !PYPI.test(url)) otherIndexes.set(name, url);
  }
  const out: { references: ComponentReference[]; unresolved: UnresolvedEntry[]; unlisted?: UnlistedEntries } = {
    references: [],
    unresolved: [],
  };
  let lines: MemberLines | undefined;
  for (const section of SECTIONS) {
    const packages = object(doc[section]);
    if (!packages) continue;
    for (const [name, raw] of Object.entries(packages)) {
      const entry = object(raw) ?? {};
      const pinned = typeof entry['version'] === 'string' ? entry['version'] : undefined;
      const version = pinned?.replace(/^===?/, '');
      const input = `${name}${pinned ?? ''}`.slice(0, 200);
      const location = `${section}["${name.slice(0, 150)}"]`;
      const why = whyNotPypi(entry, otherIndexes);
      const github = typeof entry['git'] === 'string' ? githubRepositoryPath(entry['git']) : null;
      let reference: ComponentReference | null = null;
      try {
        if (github) reference = { ref: normaliseComponent('github', github), input, location };
        else if (why === null) reference = { ref: normaliseComponent('pypi', name), input, location };
      } catch (e) {
        if (!(e instanceof ValidationError)) throw e;
        addUnresolved(out, { input, location, reason: e.issues[0]?.msg ?? 'not a PyPI project name' });
        continue;
      }
      if (!reference) {
        addUnresolved(out, { input, location, reason: why ?? 'not a PyPI project' });
        continue;
      }
      if (version !== undefined || section === 'develop')
        reference.tree = {
          ...(version !== undefined ? { resolvedVersion: version } : {}),
          ...(section === 'develop' ? { dev: true } : {}),
        };
      if (options.lines === true) {
        lines ??= new MemberLines(source, SECTIONS);
        const line = lines.lineOf(section, name);
        if (line !== undefined) reference.line = line;
      }
      out.references.push(reference);
    }
  }
  return { format: 'pipfile-lock', ...out };
}

/** Null for a package from PyPI; else why it is not one. */
function whyNotPypi(entry: Json, otherIndexes: Map<string, string>): string | null {
  if (typeof entry['git'] === 'string') return 'a package from a git repository on a host other than GitHub';
  if (typeof entry['path'] === 'string') return 'local code (a path), not a package from PyPI';
  if (typeof entry['file'] === 'string') return 'a package from a file or URL, not from PyPI';
  if (entry['editable'] === true) return 'installed editable from local code, not a package from PyPI';
  const index = entry['index'];
  if (typeof index === 'string' && otherIndexes.has(index))
    return `from the package index "${otherIndexes.get(index)!.slice(0, 80)}", not PyPI`;
  return null;
}
