/**
 * pom.xml: the artifacts a Maven project names — dependencies, managed dependencies, build
 * plugins and extensions, in the project and in its profiles. `${…}` in a coordinate is resolved
 * from the POM's own properties and project/parent coordinates; one that is not (a property from
 * a parent POM, say) is reported with the reason rather than guessed.
 */
import { normaliseComponent } from '../../domain/component.js';
import { ValidationError } from '../../domain/errors.js';
import { MAVEN_PART_MAX } from '../../domain/package-names.js';
import { excerpt } from '../../domain/text.js';
import { InputError, type ComponentReference, type ParseResult, type UnresolvedEntry } from '../reference.js';
import { directPlace } from '../direct-place.js';
import { checkXml, decodeXmlText, xmlParser } from '../xml-document.js';

/** Real POMs nest a dozen levels; profiles and plugin configuration add a few. */
export const MAX_DEPTH = 64;
/**
 * Different element names in one POM: a property is an element of its own name, and the largest
 * real POMs (Apache Camel's parent: a property per dependency's version) have under a thousand.
 */
export const MAX_NAMES = 2_000;
const MAVEN_PLUGINS_GROUP = 'org.apache.maven.plugins';

const xml = xmlParser(MAX_DEPTH, {
  ignoreAttributes: true,
  isArray: (name) => name === 'dependency' || name === 'plugin' || name === 'extension' || name === 'profile',
});

type Node = Record<string, unknown>;

function node(v: unknown): Node | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Node) : null;
}

function list(v: unknown): Node[] {
  return Array.isArray(v) ? v.map(node).filter((n): n is Node => n !== null) : [];
}

/** An element's text as XML means it (the parser runs with entity processing off), trimmed; null when empty. */
function text(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const t = decodeXmlText(v).trim();
  return t !== '' ? t : null;
}

const UNDEFINED_PROPERTY =
  'a property in its coordinates is not defined in this pom.xml (a parent POM may define it), so Tended cannot tell which artifact it is';

/**
 * `${name}` in a groupId or artifactId replaced from `properties`, or why it cannot be: a property
 * not known here, or a result longer than any Maven groupId or artifactId (MAVEN_PART_MAX). One
 * pass with indexOf that stops as soon as the result is too long, so it never builds more than
 * that bound: a 400 KB property named by a thousand dependencies, or a short one named a hundred
 * thousand times in one groupId, costs no more than reading the text that names it.
 */
function resolve(value: string, part: string, properties: Map<string, string>): string | { why: string } {
  const tooLong = () => ({
    why: `its ${part} is longer than ${MAVEN_PART_MAX} characters${value.includes('${') ? ' once its properties are expanded' : ''}, and no Maven ${part} is, so it names no artifact`,
  });
  const parts: string[] = [];
  let length = 0;
  let at = 0;
  for (;;) {
    const open = value.indexOf('${', at);
    const literal = open < 0 ? value.slice(at) : value.slice(at, open);
    length += literal.length;
    if (length > MAVEN_PART_MAX) return tooLong();
    parts.push(literal);
    if (open < 0) return parts.join('');
    const close = value.indexOf('}', open + 2);
    if (close < 0) return { why: UNDEFINED_PROPERTY };
    const name = value.slice(open + 2, close);
    const v = properties.get(name);
    if (v === undefined) return { why: UNDEFINED_PROPERTY };
    if (v.length > MAVEN_PART_MAX) {
      return {
        why: `its ${part} names the property \${${excerpt(name, 40)}}, which is ${v.length.toLocaleString('en')} characters long; no Maven ${part} is longer than ${MAVEN_PART_MAX}, so Tended does not expand it`,
      };
    }
    length += v.length;
    if (length > MAVEN_PART_MAX) return tooLong();
    parts.push(v);
    at = close + 1;
  }
}

function propertiesOf(project: Node): Map<string, string> {
  const properties = new Map<string, string>();
  for (const [k, v] of Object.entries(node(project['properties']) ?? {})) {
    const t = text(v);
    if (t !== null && !t.includes('${')) properties.set(k, t);
  }
  const parent = node(project['parent']);
  const group = text(project['groupId']) ?? text(parent?.['groupId']);
  const artifact = text(project['artifactId']);
  const version = text(project['version']) ?? text(parent?.['version']);
  for (const [k, v] of [
    ['project.groupId', group],
    ['pom.groupId', group],
    ['groupId', group],
    ['project.artifactId', artifact],
    ['project.version', version],
    ['project.parent.groupId', text(parent?.['groupId'])],
    ['project.parent.version', text(parent?.['version'])],
  ] as const)
    if (v !== null && !v.includes('${')) properties.set(k, v);
  return properties;
}

/**
 * Real POMs are small: the largest (dependency BOMs such as Spring Boot's) run to a few hundred KB.
 * A bigger one is refused at once, so no request spends seconds building the tree of a file no
 * project writes.
 */
export const MAX_POM_BYTES = 1024 * 1024;

export function parsePom(body: string): ParseResult {
  if (body.length > MAX_POM_BYTES)
    throw new InputError(
      `This pom.xml is ${(body.length / 1024 / 1024).toFixed(1)} MB; real ones are at most a few hundred KB, and Tended reads pom.xml files up to 1 MB.`,
    );
  const source = body.replace(/^\uFEFF/, '');
  checkXml(source, 'a pom.xml', { depth: MAX_DEPTH, names: MAX_NAMES });
  let doc: Node | null;
  try {
    doc = node(xml.parse(source));
  } catch {
    throw new InputError('Expected a pom.xml, but its XML could not be read.');
  }
  const project = node(doc?.['project']);
  if (!project) throw new InputError('Expected a pom.xml, whose root element is <project>, but none was found.');
  const properties = propertiesOf(project);
  const references: ComponentReference[] = [];
  const unresolved: UnresolvedEntry[] = [];

  const take = (entry: Node, location: string, defaultGroup: string | null) => {
    const rawGroup = text(entry['groupId']) ?? defaultGroup;
    const rawArtifact = text(entry['artifactId']);
    const input = `${rawGroup ?? '?'}:${rawArtifact ?? '?'}`.slice(0, 200);
    if (rawGroup === null || rawArtifact === null) {
      unresolved.push({ input, location, reason: 'it names no groupId and artifactId, so it names no artifact' });
      return;
    }
    const group = resolve(rawGroup, 'groupId', properties);
    const artifact = resolve(rawArtifact, 'artifactId', properties);
    if (typeof group !== 'string') {
      unresolved.push({ input, location, reason: group.why });
      return;
    }
    if (typeof artifact !== 'string') {
      unresolved.push({ input, location, reason: artifact.why });
      return;
    }
    try {
      // A test-scoped artifact is needed only to develop the project; <optional>true</optional> says optional.
      const tree = directPlace({
        dev: text(entry['scope'])?.trim() === 'test',
        optional: text(entry['optional'])?.trim() === 'true',
      });
      references.push({ ref: normaliseComponent('maven', `${group}:${artifact}`), input, location, tree });
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
      unresolved.push({ input, location, reason: e.issues[0]?.msg ?? 'not Maven coordinates' });
    }
  };

  const walk = (scope: Node, at: string) => {
    const dependencies = list(node(scope['dependencies'])?.['dependency']);
    dependencies.forEach((d, i) => take(d, `${at}dependencies.dependency[${i}]`, null));
    const managed = list(node(node(scope['dependencyManagement'])?.['dependencies'])?.['dependency']);
    managed.forEach((d, i) => take(d, `${at}dependencyManagement.dependencies.dependency[${i}]`, null));
    const build = node(scope['build']);
    list(node(build?.['plugins'])?.['plugin']).forEach((p, i) =>
      take(p, `${at}build.plugins.plugin[${i}]`, MAVEN_PLUGINS_GROUP),
    );
    list(node(node(build?.['pluginManagement'])?.['plugins'])?.['plugin']).forEach((p, i) =>
      take(p, `${at}build.pluginManagement.plugins.plugin[${i}]`, MAVEN_PLUGINS_GROUP),
    );
    list(node(build?.['extensions'])?.['extension']).forEach((x, i) =>
      take(x, `${at}build.extensions.extension[${i}]`, null),
    );
  };
  walk(project, '');
  list(node(project['profiles'])?.['profile']).forEach((profile, i) => walk(profile, `profiles.profile[${i}].`));
  const parent = node(project['parent']);
  if (parent) take(parent, 'parent', null);
  return { format: 'pom', references, unresolved };
}
