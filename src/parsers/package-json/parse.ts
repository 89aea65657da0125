/**
 * package.json: the names of the four dependency sections. A registry spec names the npm
 * package under its key; an `npm:` alias names the real package; a GitHub spec names the
 * repository. Local paths, `workspace:` packages, tarballs and other git hosts name nothing
 * Tended observes.
 */
import npa from 'npm-package-arg';
import { normaliseComponent } from '../../domain/component.js';
import type { ComponentKind } from '../../domain/component.js';
import { ValidationError } from '../../domain/errors.js';
import { directPlace } from '../direct-place.js';
import { InputError } from '../reference.js';
import type { ComponentReference, ParseResult, TreePlace, UnresolvedEntry } from '../reference.js';
import { shownValue } from '../purl-entry.js';
import { MemberLines } from '../json-member-lines.js';
import { checkJsonDepth } from '../json-depth.js';

export const DEPENDENCY_SECTIONS = [
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
] as const;

// pnpm/yarn protocols npm-package-arg refuses with EUNSUPPORTEDPROTOCOL, so test them first.
// `catalog:` takes the version from the workspace catalog, but the key still names a registry package.
// `workspace:` names a package of the same workspace: local files, never the public package of that name.
const CATALOG_PROTOCOL = /^catalog:/;
const LOCAL_PROTOCOLS = /^(?:link|portal|patch|exec):/;

interface Out {
  references: ComponentReference[];
  unresolved: UnresolvedEntry[];
  /** The place of what the section being read names: set on each reference as it is made (one shape). */
  place: TreePlace;
}

/**
 * `lines`: also give each reference its line. JSON.parse keeps no positions, so that is a second
 * pass over the text (json-member-lines.ts); only a report that names lines (the CLI's SARIF) asks.
 */
export function parsePackageJson(text: string, options: { lines?: boolean } = {}): ParseResult {
  const source = text.replace(/^\uFEFF/, '');
  let doc: unknown;
  checkJsonDepth(source);
  try {
    doc = JSON.parse(source);
  } catch (e) {
    throw new InputError(`not valid JSON${where(source, e)}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new InputError('not a package.json: the document is not a JSON object');
  }
  const out: Out = { references: [], unresolved: [], place: directPlace() };
  // Read once, and only when some entry names a component.
  let lines: MemberLines | undefined;
  for (const section of DEPENDENCY_SECTIONS) {
    const deps = (doc as Record<string, unknown>)[section];
    if (deps === undefined || deps === null) continue;
    if (typeof deps !== 'object' || Array.isArray(deps)) {
      out.unresolved.push({
        input: shownValue(deps),
        location: section,
        reason: `${section} must be an object of name: version; nothing in it was read.`,
      });
      continue;
    }
    for (const [name, spec] of Object.entries(deps as Record<string, unknown>)) {
      const before = out.references.length;
      // Every entry a package.json names is the project's own choice: direct, dev or optional as its section says.
      out.place = placeOf(section);
      readEntry(out, section, name, spec);
      if (out.references.length === before || options.lines !== true) continue;
      lines ??= new MemberLines(source, DEPENDENCY_SECTIONS);
      const line = lines.lineOf(section, name);
      if (line !== undefined) for (let i = before; i < out.references.length; i += 1) out.references[i]!.line = line;
    }
  }
  return { format: 'package-json', references: out.references, unresolved: out.unresolved };
}

// `1.2.3`, `^1.2`, `~1`, `>=2.0.0`, `1.x`, `*`, `latest`-free: one comparator, optional prerelease/build.
const PLAIN_VERSION =
  /^(?:[~^=]|[<>]=?)?v?(?:\*|\d+(?:\.(?:\d+|[xX*])){0,2}(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)$/;

function readEntry(out: Out, section: string, name: string, spec: unknown): void {
  const location = `${section}.${name}`;
  if (typeof spec !== 'string') {
    out.unresolved.push({
      input: `${name}: ${shownValue(spec)}`,
      location,
      reason: 'the version is not a string, so npm cannot install it.',
    });
    return;
  }
  const input = `${name}: ${spec}`;
  const s = spec.trim();
  if (CATALOG_PROTOCOL.test(s)) {
    // The version is defined in the workspace catalog, but the package is still the registry one.
    add(out, 'npm', name, input, location);
    return;
  }
  if (/^workspace:/.test(s)) {
    out.unresolved.push({
      input,
      location,
      reason:
        '"workspace:" points at a package of this workspace (local files), not the published package of that name.',
    });
    return;
  }
  if (LOCAL_PROTOCOLS.test(s)) {
    out.unresolved.push({
      input,
      location,
      reason: `"${s.split(':')[0]}:" points at local files, not a published package.`,
    });
    return;
  }
  // Most specs are a version or a one-comparator range: they name the registry package, and
  // npm-package-arg's URL and semver work (≈20 µs each) would make a 70,000-entry file take 1.5 s.
  if (s === '' || PLAIN_VERSION.test(s)) {
    add(out, 'npm', name, input, location);
    return;
  }
  let parsed: npa.Result;
  try {
    // `where` is fixed so that file specs never consult the process's working directory.
    parsed = npa.resolve(name, s, '/');
  } catch (e) {
    out.unresolved.push({
      input,
      location,
      reason: `npm cannot read this dependency: ${e instanceof Error ? e.message.slice(0, 200) : String(e)}`,
    });
    return;
  }
  switch (parsed.type) {
    case 'version':
    case 'range':
    case 'tag':
      add(out, 'npm', name, input, location);
      return;
    case 'alias':
      // @types/npm-package-arg 6 predates aliases; npm-package-arg 13 puts the real package in subSpec.
      add(out, 'npm', (parsed as npa.Result & { subSpec?: npa.Result }).subSpec?.name ?? name, input, location);
      return;
    case 'git':
      if (parsed.hosted?.type === 'github' && parsed.hosted.user && parsed.hosted.project) {
        add(out, 'github', `${parsed.hosted.user}/${parsed.hosted.project}`, input, location);
      } else {
        out.unresolved.push({
          input,
          location,
          reason: 'a git repository not on GitHub; Tended observes GitHub repositories and registry packages only.',
        });
      }
      return;
    case 'file':
    case 'directory':
      out.unresolved.push({ input, location, reason: 'a local path, not a published package.' });
      return;
    case 'remote':
      out.unresolved.push({
        input,
        location,
        reason: 'a tarball URL, not a registry package; its source cannot be identified.',
      });
      return;
  }
}

function placeOf(section: string): TreePlace {
  return directPlace({ dev: section === 'devDependencies', optional: section === 'optionalDependencies' });
}

function add(out: Out, kind: ComponentKind, name: string, input: string, location: string): void {
  try {
    out.references.push({ ref: normaliseComponent(kind, name), input, location, tree: out.place });
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    out.unresolved.push({ input, location, reason: `not a valid ${kind} name: ${e.message}` });
  }
}

/** " at line L column C" from the offset V8 puts in JSON.parse messages (Node 20: "at position N"). */
function where(source: string, e: unknown): string {
  const message = e instanceof Error ? e.message : '';
  const lc = /line \d+ column \d+/.exec(message);
  if (lc) return '';
  const m = /position (\d+)/.exec(message);
  const offset = m ? Number(m[1]) : message.includes('end of JSON') ? source.length : null;
  if (offset === null) return '';
  const before = source.slice(0, offset);
  const line = before.split('\n').length;
  return ` at line ${line} column ${offset - before.lastIndexOf('\n')} (position ${offset})`;
}
