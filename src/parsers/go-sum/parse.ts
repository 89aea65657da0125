/**
 * go.sum: the checksums of every module version the go command needed. A line is
 * `module version h1:hash` (the module's content: it was downloaded and may be built) or
 * `module version/go.mod h1:hash` (only its go.mod was read, to walk the module graph).
 *
 * Counting rule: a module with a content line at some version is a resolved reference; its
 * resolved version is the highest such version, as the go command's minimal version selection
 * picks the highest version required (go.sum keeps lines of older versions it once needed). A
 * module with only go.mod lines is in the module graph but never downloaded: it goes to
 * `unresolved` once, saying so. go.sum has no graph and no list of direct requirements, so no
 * reference has a scope (the go.mod beside it says direct or `// indirect`). go.sum has no
 * version number of its own: every file of such lines is read. One pass over the lines.
 */
import { normaliseComponent } from '../../domain/component.js';
import { ValidationError } from '../../domain/errors.js';
import {
  addUnresolved,
  type ComponentReference,
  type ParseResult,
  type UnlistedEntries,
  type UnresolvedEntry,
} from '../reference.js';
import { compareGoVersions } from './go-version.js';

const MAX_INPUT = 200;

interface Module {
  /** The highest version with a content line, and where it is. */
  version?: string;
  line?: number;
  /** The first line that named the module (a go.mod line when it has no content line). */
  firstInput: string;
  firstLine: number;
}

export function parseGoSum(text: string): ParseResult {
  const modules = new Map<string, Module>();
  const out: { unresolved: UnresolvedEntry[]; unlisted?: UnlistedEntries } = { unresolved: [] };
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    const [path = '', rawVersion = '', hash, extra] = line.split(/\s+/, 4);
    const lineNo = i + 1;
    if (hash === undefined || extra !== undefined || !rawVersion.startsWith('v')) {
      addUnresolved(out, {
        input: line.slice(0, MAX_INPUT),
        location: `line ${lineNo}`,
        reason:
          'a go.sum line is a module path, a version and a hash (`golang.org/x/net v0.25.0 h1:…`); this one is not',
      });
      continue;
    }
    const goModOnly = rawVersion.endsWith('/go.mod');
    const version = goModOnly ? rawVersion.slice(0, -'/go.mod'.length) : rawVersion;
    let module = modules.get(path);
    if (!module) {
      module = { firstInput: `${path} ${rawVersion}`.slice(0, MAX_INPUT), firstLine: lineNo };
      modules.set(path, module);
    }
    if (!goModOnly && (module.version === undefined || compareGoVersions(version, module.version) > 0)) {
      module.version = version;
      module.line = lineNo;
    }
  }
  const references: ComponentReference[] = [];
  for (const [path, module] of modules) {
    if (module.version === undefined) {
      addUnresolved(out, {
        input: module.firstInput,
        location: `line ${module.firstLine}`,
        reason:
          'only its go.mod was needed (go.sum has no content hash for it): it is part of the module graph but was not downloaded or built',
      });
      continue;
    }
    const input = `${path} ${module.version}`.slice(0, MAX_INPUT);
    const location = `line ${module.line}`;
    try {
      references.push({
        ref: normaliseComponent('golang', path),
        input,
        location,
        line: module.line!,
        tree: { resolvedVersion: module.version },
      });
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
      addUnresolved(out, { input, location, reason: e.issues[0]?.msg ?? 'not a Go module path' });
    }
  }
  return { format: 'go-sum', references, ...out };
}
