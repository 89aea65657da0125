/**
 * NuGet project files: `<PackageReference Include="Id" Version="…"/>` in an SDK-style project
 * (*.csproj, *.fsproj, *.vbproj, Directory.Packages.props with `<PackageVersion>`) and
 * `<package id="Id" version="…"/>` in a packages.config. Each names a nuget.org package.
 */
import { normaliseComponent } from '../../domain/component.js';
import { ValidationError } from '../../domain/errors.js';
import { InputError, type ComponentReference, type ParseResult, type UnresolvedEntry } from '../reference.js';
import { directPlace } from '../direct-place.js';
import { checkXml, decodeXmlText, xmlParser } from '../xml-document.js';

export const MAX_DEPTH = 64;
/** Different element and attribute names: a property is an element of its own name, as in a POM. */
export const MAX_NAMES = 2_000;
/** Project files are small; a larger one is refused at once, as a pom.xml is. */
export const MAX_PROJECT_BYTES = 1024 * 1024;

const xml = xmlParser(MAX_DEPTH, { ignoreAttributes: false, attributeNamePrefix: '@_' });

type Node = Record<string, unknown>;

/** The longest location shown: the end of the path, which names the element and its neighbours. */
const MAX_LOCATION = 200;

/** One step of the walk: a value, and the step that led to it with the key or index that did. */
interface Step {
  value: unknown;
  parent: Step | null;
  key: string;
}

/**
 * The path to `step` (`Project.ItemGroup[1].PackageReference[0]`), spelt from its end and cut at
 * MAX_LOCATION with `…`. Only found elements are spelt, never one string per level: a location
 * that held the whole path of deep, long names would keep kilobytes alive for every reference.
 */
function locationOf(step: Step): string {
  const keys: string[] = [];
  let length = 0;
  let at: Step | null = step;
  for (; at !== null && at.parent !== null && length <= MAX_LOCATION; at = at.parent) {
    keys.push(at.key);
    length += at.key.length + 1;
  }
  const path = keys.reverse().join('.').replace(/\.\[/g, '[');
  return at === null || at.parent === null ? path : `…${path.slice(-MAX_LOCATION)}`;
}

/**
 * Every element named one of `names`, anywhere under `root`, with its location, breadth first (so
 * siblings keep their document order) and without recursion, so depth costs no stack.
 */
function elements(root: unknown, names: Set<string>): { node: Node; location: string }[] {
  const found: { node: Node; location: string }[] = [];
  const queue: Step[] = [{ value: root, parent: null, key: '' }];
  for (let next = 0; next < queue.length; next++) {
    const step = queue[next]!;
    if (Array.isArray(step.value)) {
      step.value.forEach((v, i) => queue.push({ value: v, parent: step, key: `[${i}]` }));
      continue;
    }
    if (typeof step.value !== 'object' || step.value === null) continue;
    for (const [k, v] of Object.entries(step.value as Node)) {
      if (k.startsWith('@_')) continue;
      const child: Step = { value: v, parent: step, key: k };
      if (!names.has(k)) {
        queue.push(child);
        continue;
      }
      const list: unknown[] = Array.isArray(v) ? v : [v];
      list.forEach((n, i) => {
        if (typeof n === 'object' && n !== null)
          found.push({
            node: n as Node,
            location: locationOf(Array.isArray(v) ? { value: n, parent: child, key: `[${i}]` } : child),
          });
      });
    }
  }
  return found;
}

function attribute(v: unknown): unknown {
  return typeof v === 'string' ? decodeXmlText(v) : v;
}

export function parseNugetProject(text: string): ParseResult {
  if (text.length > MAX_PROJECT_BYTES)
    throw new InputError(
      `This project file is ${(text.length / 1024 / 1024).toFixed(1)} MB; Tended reads NuGet project files up to 1 MB.`,
    );
  const source = text.replace(/^\uFEFF/, '');
  checkXml(source, 'a NuGet project file (*.csproj, packages.config)', { depth: MAX_DEPTH, names: MAX_NAMES });
  let doc: unknown;
  try {
    doc = xml.parse(source);
  } catch {
    throw new InputError('Expected a NuGet project file, but its XML could not be read.');
  }
  const references: ComponentReference[] = [];
  const unresolved: UnresolvedEntry[] = [];
  for (const { node, location } of elements(doc, new Set(['PackageReference', 'PackageVersion', 'package']))) {
    // Attribute values as XML means them: the parser runs with entity processing off.
    const id = attribute(node['@_Include'] ?? node['@_Update'] ?? node['@_id']);
    const version = attribute(node['@_Version'] ?? node['@_version']);
    const input = `${typeof id === 'string' ? id : '?'}${typeof version === 'string' ? ` ${version}` : ''}`.slice(
      0,
      200,
    );
    if (typeof id !== 'string' || id.trim() === '') {
      unresolved.push({ input, location, reason: 'it names no package id' });
      continue;
    }
    try {
      // PrivateAssets="all" keeps a package from flowing to consumers, not from this project's
      // output (analyzers, but also source-linked libraries), so it does not make it dev.
      references.push({ ref: normaliseComponent('nuget', id.trim()), input, location, tree: directPlace() });
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
      unresolved.push({ input, location, reason: e.issues[0]?.msg ?? 'not a NuGet id' });
    }
  }
  return { format: 'nuget-project', references, unresolved };
}
