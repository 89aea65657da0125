import { MAX_XML_ELEMENT_DEPTH, MAX_XML_NAMES } from '../../src/parsers/cyclonedx/parse.js';
import { MAX_DEPTH as NUGET_DEPTH } from '../../src/parsers/nuget-project/parse.js';
import { MAX_DEPTH as POM_DEPTH, MAX_NAMES as POM_NAMES } from '../../src/parsers/pom/parse.js';
import { MAX_XML_ATTRIBUTES, MAX_XML_NAME } from '../../src/parsers/xml-document.js';
import type { AdversarialInput } from './adversarial-inputs.js';

/**
 * Issue 24's red-team shapes for the XML formats (CycloneDX XML, pom.xml, NuGet projects), and
 * their siblings. fast-xml-parser spelt out the path of every element (jPath), so the cost was
 * name length × depth × elements; a NuGet location kept that path alive; a pom.xml property was
 * expanded without bound. Each over-the-bound shape has a twin just under Tended's bounds (name
 * length, depth, elements and attributes), which must be read, and read in linear time.
 * pom.xml and NuGet project files are refused above 1 MB, so their shapes fill a quarter of n
 * (4n stays under the cap) where the CycloneDX ones fill n.
 */

const CDX = 'application/vnd.cyclonedx+xml';
const BOM = '<bom xmlns="http://cyclonedx.org/schema/bom/1.5">';
const POM = '<project><modelVersion>4.0.0</modelVersion>';
// Deeper than any real file (under 20 levels), still under every format's depth bound (64).
const DEEP = 60;
// Over a hundred times the longest real element name (CycloneDX's externalReferences is 18).
const LONG = 3_000;
// A unit of one element with text, large enough that 4 MB of them stay under MAX_XML_NODES.
const TEXT_ELEMENT = '<x>aaaaaaaaaaaaaaaaaaaaa</x>';

const repeat = (unit: string, bytes: number) => unit.repeat(Math.max(1, Math.floor(bytes / unit.length)));

/** `count` distinct element names of `length` characters (the level first, so no two are equal). */
function names(count: number, length: number, prefix = ''): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}n${i}`.padEnd(prefix.length + length, 'x'));
}

/** `head`, then `unit` repeated to fill about `bytes` in all inside elements named `tags`, then `tail`. */
function around(head: string, tags: string[], unit: string, bytes: number, tail: string): string {
  const open = tags.map((t) => `<${t}>`).join('');
  const close = tags
    .map((t) => `</${t}>`)
    .reverse()
    .join('');
  const wrapper = head.length + open.length + close.length + tail.length;
  return `${head}${open}${repeat(unit, bytes - wrapper)}${close}${tail}`;
}

/**
 * Elements with text filling about `bytes`, named in turn from `distinct` different names of the
 * same length (so only how many differ changes), in groups of a hundred siblings.
 */
function distinctNames(head: string, distinct: number, bytes: number, tail: string): string {
  // 28 bytes an element: 4 MB of them, with their groups, stay under MAX_XML_NODES.
  const element = (i: number) => {
    const name = `e${i % distinct}`.padEnd(7, 'x');
    return `<${name}>aaaaaaaa</${name}>`;
  };
  const count = Math.floor((bytes - head.length - tail.length) / (element(0).length + 1));
  const groups = Array.from({ length: Math.ceil(count / 99) }, (_, g) =>
    Array.from({ length: Math.min(99, count - g * 99) }, (_, i) => element(g * 99 + i)).join(''),
  );
  return `${head}<g>${groups.join('</g><g>')}</g>${tail}`;
}

/** One element with `count` attributes (a0="" a1="" …). */
const withAttributes = (tag: string, count: number) =>
  `<${tag} ${Array.from({ length: count }, (_, i) => `a${i}=""`).join(' ')}/>`;

export const XML_INPUTS: AdversarialInput[] = [
  // ------------------------------------------------------------ CycloneDX XML (4 MB)
  {
    name: 'CycloneDX XML: 60 nested 3,000-character names around many <x/>',
    route: 'sbom',
    format: CDX,
    make: (n) => around(BOM, names(DEEP, LONG), '<x/>', n, '</bom>'),
  },
  {
    // <bom> is one level and the <x> another.
    name: 'CycloneDX XML: names at the length bound, nested to the depth bound, around many elements',
    route: 'sbom',
    format: CDX,
    make: (n) => around(BOM, names(MAX_XML_ELEMENT_DEPTH - 2, MAX_XML_NAME), TEXT_ELEMENT, n, '</bom>'),
  },
  {
    name: 'CycloneDX XML: nested one level past the depth bound, around many elements',
    route: 'sbom',
    format: CDX,
    make: (n) => around(BOM, names(MAX_XML_ELEMENT_DEPTH - 1, 4), TEXT_ELEMENT, n, '</bom>'),
  },
  {
    name: 'CycloneDX XML: 60 nested 3,000-character namespace prefixes around many <x/>',
    route: 'sbom',
    format: CDX,
    make: (n) => around(BOM, names(DEEP, 8, `${'p'.repeat(LONG)}:`), '<x/>', n, '</bom>'),
  },
  {
    name: 'CycloneDX XML: many elements with 3,000-character names, open and closed',
    route: 'sbom',
    format: CDX,
    make: (n) => around(BOM, [], `<${'c'.repeat(LONG)}></${'c'.repeat(LONG)}>`, n, '</bom>'),
  },
  {
    name: 'CycloneDX XML: closing tags with 3,000-character names that close nothing',
    route: 'sbom',
    format: CDX,
    make: (n) => around(`${BOM}<x>`, [], `</${'c'.repeat(LONG)}>`, n, ''),
  },
  {
    name: 'CycloneDX XML: closing tags padded with 3,000 spaces',
    route: 'sbom',
    format: CDX,
    make: (n) => around(BOM, [], `<x></x${' '.repeat(LONG)}>`, n, '</bom>'),
  },
  {
    name: 'CycloneDX XML: 60 nested elements with a 3,000-character attribute name, around many <x/>',
    route: 'sbom',
    format: CDX,
    make: (n) => {
      const tags = names(DEEP, 8);
      const open = tags.map((t) => `<${t} ${'a'.repeat(LONG)}="1">`).join('');
      const close = tags
        .map((t) => `</${t}>`)
        .reverse()
        .join('');
      return `${BOM}${open}${repeat('<x/>', n - open.length - close.length - 60)}${close}</bom>`;
    },
  },
  {
    name: 'CycloneDX XML: components with 3,000-character attribute names',
    route: 'sbom',
    format: CDX,
    make: (n) => around(`${BOM}<components>`, [], `<component ${'a'.repeat(LONG)}="1"/>`, n, '</components></bom>'),
  },
  {
    name: 'CycloneDX XML: one element with many attributes',
    route: 'sbom',
    format: CDX,
    make: (n) => `${BOM}<components>${withAttributes('component', Math.floor(n / 12))}</components></bom>`,
  },
  {
    name: 'CycloneDX XML: many components with as many attributes as one may have',
    route: 'sbom',
    format: CDX,
    make: (n) =>
      around(`${BOM}<components>`, [], withAttributes('component', MAX_XML_ATTRIBUTES), n, '</components></bom>'),
  },
  {
    name: 'CycloneDX XML: many tiny elements',
    route: 'sbom',
    format: CDX,
    make: (n) => around(BOM, [], '<x/>', n, '</bom>'),
  },
  {
    name: 'CycloneDX XML: many elements with text, just under the element bound at 4 MB',
    route: 'sbom',
    format: CDX,
    make: (n) => around(BOM, [], TEXT_ELEMENT, n, '</bom>'),
  },
  {
    // 190,000 different names cost three to five times as many of one name.
    name: 'CycloneDX XML: every element named differently',
    route: 'sbom',
    format: CDX,
    make: (n) => distinctNames(BOM, Infinity, n, '</bom>'),
  },
  {
    name: 'CycloneDX XML: elements named from just under the bound on different names',
    route: 'sbom',
    format: CDX,
    // <bom>, its xmlns and <g> are three.
    make: (n) => distinctNames(BOM, MAX_XML_NAMES - 3, n, '</bom>'),
  },
  {
    // 780,000 of them took 3.4 s: each a node, its attributes read even when it is dropped.
    name: 'CycloneDX XML: many processing instructions',
    route: 'sbom',
    format: CDX,
    make: (n) => around(`${BOM}<components>`, [], '<?a?>', n, '</components></bom>'),
  },
  {
    name: 'CycloneDX XML: many CDATA sections in one element',
    route: 'sbom',
    format: CDX,
    make: (n) => around(`${BOM}<x>`, [], '<![CDATA[a]]>', n, '</x></bom>'),
  },
  {
    name: 'CycloneDX XML: text cut by many comments',
    route: 'sbom',
    format: CDX,
    make: (n) => around(`${BOM}<x>`, [], 'a<!---->', n, '</x></bom>'),
  },
  {
    name: 'CycloneDX XML: many empty components',
    route: 'sbom',
    format: CDX,
    make: (n) => around(`${BOM}<components>`, [], '<component/>', n, '</components></bom>'),
  },
  {
    name: 'CycloneDX XML: many small components with a purl',
    route: 'sbom',
    format: CDX,
    make: (n) =>
      around(`${BOM}<components>`, [], '<component><purl>pkg:npm/a@1</purl></component>', n, '</components></bom>'),
  },

  {
    // 34 bytes a node: 60,000 components, each a different purl, in 4 MB stay under MAX_XML_NODES.
    name: 'CycloneDX XML: many components with different purls, just under the node bound at 4 MB',
    route: 'sbom',
    format: CDX,
    make: (n) => {
      const component = (i: number) =>
        `<component><purl>pkg:npm/package-${String(i).padStart(9, '0')}@1.0.0</purl></component>`;
      const count = Math.floor((n - 100) / component(0).length);
      return `${BOM}<components>${Array.from({ length: count }, (_, i) => component(i)).join('')}</components></bom>`;
    },
  },

  // ------------------------------------------------------------ pom.xml (a quarter of n)
  {
    name: 'pom.xml: 60 nested 3,000-character names around many <x/>',
    route: 'manifest',
    format: 'pom',
    make: (n) => around(POM, names(DEEP, LONG), '<x/>', n / 4.2, '</project>'),
  },
  {
    // <project> is one level and the <x> another.
    name: 'pom.xml: names at the length bound, nested to the depth bound, around many elements',
    route: 'manifest',
    format: 'pom',
    make: (n) => around(POM, names(POM_DEPTH - 2, MAX_XML_NAME), '<x>a</x>', n / 4.2, '</project>'),
  },
  {
    name: 'pom.xml: many tiny elements',
    route: 'manifest',
    format: 'pom',
    make: (n) => around(POM, [], '<x/>', n / 4.2, '</project>'),
  },
  {
    name: 'pom.xml: every property named differently',
    route: 'manifest',
    format: 'pom',
    make: (n) => distinctNames(`${POM}<properties>`, Infinity, n / 4.2, '</properties></project>'),
  },
  {
    // <project>, <modelVersion>, <properties> and <g> are four.
    name: 'pom.xml: properties named from just under the bound on different names',
    route: 'manifest',
    format: 'pom',
    make: (n) => distinctNames(`${POM}<properties>`, POM_NAMES - 4, n / 4.2, '</properties></project>'),
  },
  {
    name: 'pom.xml: many processing instructions',
    route: 'manifest',
    format: 'pom',
    make: (n) => around(`${POM}<dependencies>`, [], '<?a b="c"?>', n / 4.2, '</dependencies></project>'),
  },
  {
    // 125,000 references to a 500 KB property: a 60 GB string once (RangeError, a 500).
    name: 'pom.xml: one groupId naming a property of half the file many times',
    route: 'manifest',
    format: 'pom',
    make: (n) =>
      `${POM}<properties><p>${repeat('a', n / 8.4)}</p></properties><dependencies><dependency><groupId>${repeat('${p}', n / 8.4)}</groupId><artifactId>b</artifactId></dependency></dependencies></project>`,
  },
  {
    // The red team's 1,000 dependencies and a 400 KB property took 3.8 s; at 4 MB this is 7,000.
    name: 'pom.xml: many dependencies naming one long property',
    route: 'manifest',
    format: 'pom',
    make: (n) => {
      const dependency = '<dependency><groupId>${p}</groupId><artifactId>b</artifactId></dependency>';
      return `${POM}<properties><p>${repeat('a', n / 10)}</p></properties><dependencies>${repeat(dependency, n / 4.2 - n / 10)}</dependencies></project>`;
    },
  },
  {
    // Each dependency of 500 bytes would expand to 20 KB: the expansion, not the file, is large.
    name: 'pom.xml: many dependencies naming a short property a hundred times',
    route: 'manifest',
    format: 'pom',
    make: (n) => {
      const dependency = `<dependency><groupId>${'${p}'.repeat(100)}</groupId><artifactId>b</artifactId></dependency>`;
      return `${POM}<properties><p>${'a'.repeat(200)}</p></properties><dependencies>${repeat(dependency, n / 4.2)}</dependencies></project>`;
    },
  },

  // ------------------------------------------------------------ NuGet project (a quarter of n)
  {
    name: 'NuGet project: 60 nested 3,000-character names around many package references',
    route: 'manifest',
    format: 'nuget-project',
    make: (n) => around('<Project>', names(DEEP, LONG), '<PackageReference Include="p"/>', n / 4.2, '</Project>'),
  },
  {
    // Each reference's location once kept the whole 12 KB path alive: 380 MB for 30,000 of them.
    name: 'NuGet project: names at the length bound, nested to the depth bound, around many package references',
    route: 'manifest',
    format: 'nuget-project',
    make: (n) =>
      around(
        '<Project>',
        names(NUGET_DEPTH - 2, MAX_XML_NAME),
        '<PackageReference Include="p"/>',
        n / 4.2,
        '</Project>',
      ),
  },
  {
    name: 'NuGet project: many tiny elements',
    route: 'manifest',
    format: 'nuget-project',
    make: (n) =>
      around('<Project><ItemGroup><PackageReference Include="p"/>', [], '<x/>', n / 4.2, '</ItemGroup></Project>'),
  },
  {
    name: 'NuGet project: package references with 3,000-character attribute names',
    route: 'manifest',
    format: 'nuget-project',
    make: (n) =>
      around(
        '<Project><ItemGroup>',
        [],
        `<PackageReference Include="p" ${'a'.repeat(LONG)}="1"/>`,
        n / 4.2,
        '</ItemGroup></Project>',
      ),
  },
];
