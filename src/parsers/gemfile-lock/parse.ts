/**
 * Gemfile.lock, read line by line as Bundler writes it: source sections (`GEM`, `GIT`, `PATH`,
 * `PLUGIN SOURCE`), each with its `remote:` and `specs:` (a gem at four spaces, `name (version)`
 * or `name (version-platform)`, and what it depends on at six), then `DEPENDENCIES`, the Gemfile's
 * own gems (the direct set; `!` marks one from a source other than GEM). PLATFORMS, CHECKSUMS,
 * RUBY VERSION and BUNDLED WITH name no gem. A gem from rubygems.org is a gem component; one from a
 * GitHub repository names that repository; a path gem (often the project itself) is local code.
 */
import { normaliseComponent, type ComponentRef } from '../../domain/component.js';
import { ValidationError } from '../../domain/errors.js';
import { DependencyGraph } from '../dependency-graph.js';
import { githubRepositoryPath } from '../github-url.js';
import {
  addUnresolved,
  InputError,
  type ComponentReference,
  type ParseResult,
  type UnlistedEntries,
  type UnresolvedEntry,
} from '../reference.js';

const SOURCE_SECTIONS = new Set(['GEM', 'GIT', 'PATH', 'PLUGIN SOURCE']);
const RUBYGEMS = /^https?:\/\/(?:rubygems\.org|index\.rubygems\.org|gem\.coop)\/?$/;
// `name (version)` at four spaces, `name (constraints)` or `name` at six: no nested quantifier,
// and each line is matched once.
const SPEC = /^ {4}([^ ()]+)(?: \(([^()]*)\))?$/;
const SPEC_DEPENDENCY = /^ {6}([^ ()]+)(?: \([^()]*\))?$/;
const DIRECT = /^ {2}([^ ()!]+)(?: \([^()]*\))?!?$/;

interface Gem {
  name: string;
  version: string;
  ref: ComponentRef | null;
  line: number;
}

interface Section {
  kind: string;
  remotes: string[];
  /** Why the gems of this section are not gem components, or null for rubygems.org. */
  why?: string | null;
  github?: string | null;
}

export function parseGemfileLock(text: string): ParseResult {
  const out: { references: ComponentReference[]; unresolved: UnresolvedEntry[]; unlisted?: UnlistedEntries } = {
    references: [],
    unresolved: [],
  };
  const graph = new DependencyGraph();
  const gems = new Map<string, Gem>();
  let section: Section | null = null;
  let inDependencies = false;
  let sawSection = false;
  let current: string | null = null;
  // A name listed twice (under one gem, or in DEPENDENCIES) is one edge, one direct dependency.
  const named = new Set<string>();
  const directs = new Set<string>();
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!;
    if (line !== '' && line[0] !== ' ') {
      // A header at column 0 starts the next section.
      section = SOURCE_SECTIONS.has(line) ? { kind: line, remotes: [] } : null;
      inDependencies = line === 'DEPENDENCIES';
      sawSection ||= section !== null || inDependencies;
      current = null;
      continue;
    }
    if (inDependencies) {
      const m = DIRECT.exec(line);
      if (m && !directs.has(m[1]!)) {
        directs.add(m[1]!);
        graph.addDirect({ key: m[1]! });
      }
      continue;
    }
    if (!section) continue;
    if (line.startsWith('  remote: ')) {
      section.remotes.push(line.slice(10).trim());
      continue;
    }
    const spec = SPEC.exec(line);
    if (spec) {
      current = spec[1]!;
      named.clear();
      if (!gems.has(current)) addGem(out, graph, gems, section, current, spec[2] ?? '', i + 1);
      continue;
    }
    const dependency = SPEC_DEPENDENCY.exec(line);
    if (dependency && current !== null && !named.has(dependency[1]!)) {
      named.add(dependency[1]!);
      graph.addEdge(current, dependency[1]!);
    }
  }
  if (!sawSection)
    throw new InputError(
      'Expected a Gemfile.lock, but it has no GEM, GIT, PATH or DEPENDENCIES section. Send the Gemfile.lock Bundler wrote, or the Gemfile.',
    );
  const places = graph.places();
  for (const gem of gems.values()) {
    if (!gem.ref) continue;
    out.references.push({
      ref: gem.ref,
      input: `${gem.name} (${gem.version})`.slice(0, 200),
      location: `line ${gem.line}`,
      line: gem.line,
      tree: places.get(gem.name)!,
    });
  }
  return { format: 'gemfile-lock', ...out };
}

function addGem(
  out: { unresolved: UnresolvedEntry[]; unlisted?: UnlistedEntries },
  graph: DependencyGraph,
  gems: Map<string, Gem>,
  section: Section,
  name: string,
  written: string,
  line: number,
): void {
  // Bundler writes a platform gem as `version-platform`: the version is what comes before the first "-".
  const version = written.split('-', 1)[0]!;
  let ref: ComponentRef | null = null;
  let why = whyNotRubygems(section);
  try {
    if (section.github) ref = normaliseComponent('github', section.github);
    else if (why === null) ref = normaliseComponent('gem', name);
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    why = e.issues[0]?.msg ?? 'not a gem name';
  }
  const input = `${name} (${written})`.slice(0, 200);
  if (!ref) addUnresolved(out, { input, location: `line ${line}`, reason: why ?? 'not a gem' });
  gems.set(name, { name, version, ref, line });
  graph.addNode({ key: name, name, ...(version ? { version } : {}), resolvable: ref !== null });
}

/** Null when the section's gems come from rubygems.org; else why not. Decided once per section. */
function whyNotRubygems(section: Section): string | null {
  if (section.why !== undefined) return section.why;
  const remote = section.remotes[0] ?? '';
  section.github = null;
  if (section.kind === 'GEM')
    section.why = section.remotes.some((r) => RUBYGEMS.test(r))
      ? null
      : `a gem from the gem server "${remote.slice(0, 80)}", not rubygems.org`;
  else if (section.kind === 'GIT') {
    section.github = githubRepositoryPath(remote);
    section.why = section.github ? null : 'a gem from a git repository on a host other than GitHub';
  } else if (section.kind === 'PATH')
    section.why = `a gem from the local path "${remote.slice(0, 80)}" (the project itself or code beside it), not from rubygems.org`;
  else section.why = 'a Bundler plugin, not a gem the application loads';
  return section.why;
}
