/**
 * NuGet project files: `<PackageReference Include="Id" Version="…"/>` in an SDK-style project
 * (*.csproj, *.fsproj, *.vbproj, Directory.Packages.props with `<PackageVersion>`) and
 * `<package id="Id" version="…"/>` in a packages.config. Each names a nuget.org package.
 */
import { normaliseComponent } from '../../domain/component.js';
import { ValidationError } from '../../domain/errors.js';
import { InputError, type ComponentReference, type ParseResult, type UnresolvedEntry } from '../reference.js';
import { checkXml, decodeXmlText, xmlParser } from '../xml-document.js';

export const MAX_DEPTH = 64;
/** Project files are small; a larger one is refused at once, as a pom.xml is. */
export const MAX_PROJECT_BYTES = 1024 * 1024;

const xml = xmlParser(MAX_DEPTH, { ignoreAttributes: false, attributeNamePrefix: '@_' });

type Node = Record<string, unknown>;

/**
 * Every element named one of `names`, anywhere under `root`, with its path, breadth first (so
 * siblings keep their document order) and without recursion, so depth costs no stack.
 */
function elements(root: unknown, names: Set<string>): { node: Node; path: string }[] {
  const found: { node: Node; path: string }[] = [];
  const queue: { value: unknown; path: string }[] = [{ value: root, path: '' }];
  for (let next = 0; next < queue.length; next++) {
    const { value, path } = queue[next]!;
    if (Array.isArray(value)) {
      value.forEach((v, i) => queue.push({ value: v, path: `${path}[${i}]` }));
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    for (const [k, v] of Object.entries(value as Node)) {
      if (k.startsWith('@_')) continue;
      const at = path === '' ? k : `${path}.${k}`;
      if (!names.has(k)) {
        queue.push({ value: v, path: at });
        continue;
      }
      const list: unknown[] = Array.isArray(v) ? v : [v];
      list.forEach((n, i) => {
        if (typeof n === 'object' && n !== null)
          found.push({ node: n as Node, path: Array.isArray(v) ? `${at}[${i}]` : at });
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
  checkXml(source, 'a NuGet project file (*.csproj, packages.config)', MAX_DEPTH);
  let doc: unknown;
  try {
    doc = xml.parse(source);
  } catch {
    throw new InputError('Expected a NuGet project file, but its XML could not be read.');
  }
  const references: ComponentReference[] = [];
  const unresolved: UnresolvedEntry[] = [];
  for (const { node, path } of elements(doc, new Set(['PackageReference', 'PackageVersion', 'package']))) {
    // Attribute values as XML means them: the parser runs with entity processing off.
    const id = attribute(node['@_Include'] ?? node['@_Update'] ?? node['@_id']);
    const version = attribute(node['@_Version'] ?? node['@_version']);
    const input = `${typeof id === 'string' ? id : '?'}${typeof version === 'string' ? ` ${version}` : ''}`.slice(
      0,
      200,
    );
    if (typeof id !== 'string' || id.trim() === '') {
      unresolved.push({ input, location: path, reason: 'it names no package id' });
      continue;
    }
    try {
      references.push({ ref: normaliseComponent('nuget', id.trim()), input, location: path.slice(0, 200) });
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
      unresolved.push({ input, location: path.slice(0, 200), reason: e.issues[0]?.msg ?? 'not a NuGet id' });
    }
  }
  return { format: 'nuget-project', references, unresolved };
}
