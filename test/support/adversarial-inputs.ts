/**
 * Hostile inputs for the parsers, each a function of a size in bytes: long runs of spaces, tabs,
 * separators, brackets, quotes, backslashes, continuation lines, deep nesting, many keys, stages
 * and lines. Each shape is one that made a parser or a request path super-linear once (issue 14's
 * red-team table) or a sibling of one. Used by the timing fuzz test and the HTTP tests.
 */
import { JS_LOCKFILE_INPUTS } from './adversarial-inputs-js-lockfiles.js';
import { LOCKFILE_INPUTS } from './adversarial-inputs-lockfiles.js';
import { MORE_LOCKFILE_INPUTS } from './adversarial-inputs-more-lockfiles.js';
import { TEXT_INPUTS } from './adversarial-inputs-text.js';
import { XML_INPUTS } from './adversarial-inputs-xml.js';

export type InputRoute = 'manifest' | 'sbom';

export interface AdversarialInput {
  name: string;
  route: InputRoute;
  /** The `format` query value for a manifest, or the content type of an SBOM. */
  format: string;
  make(bytes: number): string;
  /**
   * The smaller size the timing fuzz compares with four times it, when the default (512 KB) sits
   * below a step in a library's cost that is not growth (yaml's quoted scalars: ×4 from 512 KB to
   * 1 MB, then ×2 per doubling, as linear as the rest).
   */
  timingSize?: number;
}

const fill = (unit: string, bytes: number) => unit.repeat(Math.max(1, Math.floor(bytes / unit.length)));

export const ADVERSARIAL_INPUTS: AdversarialInput[] = [
  {
    // A quarter of n: a pom.xml over 1 MB is refused at once (MAX_POM_BYTES), so 4n stays under it.
    name: 'pom.xml: many dependencies',
    route: 'manifest',
    format: 'pom',
    make: (n) =>
      `<project><modelVersion>4.0.0</modelVersion><dependencies>${fill('<dependency><groupId>a</groupId><artifactId>b</artifactId></dependency>', n / 4.2)}</dependencies></project>`,
  },
  {
    name: 'pom.xml: property references',
    route: 'manifest',
    format: 'pom',
    make: (n) =>
      `<project><modelVersion>4.0.0</modelVersion><dependencies><dependency><groupId>${fill('${', n / 4.2)}</groupId><artifactId>b</artifactId></dependency></dependencies></project>`,
  },
  {
    name: 'composer.json: many requirements',
    route: 'manifest',
    format: 'composer-json',
    make: (n) => `{"require":{${fill('"a/b":"^1",', n - 20)}"c/d":"^1"}}`,
  },
  {
    name: 'NuGet project: many package references (a quarter of n: project files are capped at 1 MB)',
    route: 'manifest',
    format: 'nuget-project',
    make: (n) =>
      `<Project><ItemGroup>${fill('<PackageReference Include="A.B" Version="1.0.0" />', n / 4.2)}</ItemGroup></Project>`,
  },
  {
    name: 'Gemfile: many gem lines, quotes and options',
    route: 'manifest',
    format: 'gemfile',
    make: (n) => fill(`gem "a", git: "https://github.com/a/b.git", path: '${"'"}x'\n`, n),
  },
  {
    name: 'Gemfile: a gem line of spaces',
    route: 'manifest',
    format: 'gemfile',
    make: (n) => `gem "a"${fill(' ', n - 10)}x`,
  },
  {
    // The group-block and block-opener patterns: every `do` a candidate, none at the line's end.
    name: 'Gemfile: a group line of do |x| and spaces, never ending in do',
    route: 'manifest',
    format: 'gemfile',
    make: (n) => `group :test${fill(' do |x|   do    ', n - 20)}x\ngem "a"\n`,
  },
  {
    name: 'Gemfile: group blocks opened thousands deep, never closed',
    route: 'manifest',
    format: 'gemfile',
    make: (n) => `${fill('group :development, :test do\ngem "a"\n', n)}`,
  },
  {
    name: 'Cargo.toml: many dependencies (a quarter of n: Cargo.toml files are capped at 1 MB)',
    route: 'manifest',
    format: 'cargo-toml',
    make: (n) =>
      `[package]\nname = "a"\n[dependencies]\n${Array.from({ length: Math.floor(n / 4.2 / 12) }, (_, i) => `c${i} = "1"\n`).join('')}`,
  },
  {
    name: 'go.mod: a require line of spaces',
    route: 'manifest',
    format: 'go-mod',
    make: (n) => `module a.b/c\nrequire a.b/d${fill(' ', n)}v1`,
  },
  {
    name: 'go.mod: many require lines in a block',
    route: 'manifest',
    format: 'go-mod',
    make: (n) => `module a.b/c\nrequire (\n${fill('\tgithub.com/a/b v1.0.0 // indirect\n', n)})\n`,
  },
  {
    name: 'go.mod: slashes and comment markers',
    route: 'manifest',
    format: 'go-mod',
    make: (n) => `module a.b/c\nrequire ${fill('/', n / 2)}${fill('//', n / 2)}`,
  },
  {
    name: 'requirements: a name then spaces',
    route: 'manifest',
    format: 'requirements',
    make: (n) => `pkg${fill(' ', n)}`,
  },
  {
    name: 'requirements: tabs inside a line',
    route: 'manifest',
    format: 'requirements',
    make: (n) => `pkg${fill('\t', n)}x`,
  },
  {
    name: 'requirements: U+3000 runs',
    route: 'manifest',
    format: 'requirements',
    make: (n) => `a${fill('\u3000', n / 3)}b==1`,
  },
  {
    name: 'requirements: -r then spaces',
    route: 'manifest',
    format: 'requirements',
    make: (n) => `-r${fill('\t ', n)}c`,
  },
  {
    name: 'requirements: continuation lines',
    route: 'manifest',
    format: 'requirements',
    make: (n) => `pkg==1 ${fill('\\\n', n)}`,
  },
  {
    name: 'requirements: hashes and semicolons',
    route: 'manifest',
    format: 'requirements',
    make: (n) => `x @ ${fill(' ;', n)}`,
  },
  {
    name: 'requirements: many lines',
    route: 'manifest',
    format: 'requirements',
    make: (n) => fill('pkg-a[x]==1.0 ; python_version>"3" --hash=sha256:ab\n', n),
  },
  { name: 'no format given: whitespace text', route: 'manifest', format: '', make: (n) => `a${fill(' \t', n)}#` },
  { name: 'Dockerfile: ${A+ nested', route: 'manifest', format: 'dockerfile', make: (n) => `FROM ${fill('${A+', n)}` },
  {
    name: 'Dockerfile: many stages',
    route: 'manifest',
    format: 'dockerfile',
    make: (n) => Array.from({ length: Math.floor(n / 24) }, (_, i) => `FROM s${i} AS s${i + 1}\n`).join(''),
  },
  {
    name: 'Dockerfile: continuation lines',
    route: 'manifest',
    format: 'dockerfile',
    make: (n) => `FROM a ${fill('\\\n', n)}`,
  },
  {
    name: 'workflow: many distinct keys',
    route: 'manifest',
    format: 'workflow',
    make: (n) =>
      `on: push\njobs:\n  a:\n    env:\n${Array.from({ length: Math.floor(n / 16) }, (_, i) => `      k${i}: v\n`).join('')}`,
  },
  { name: 'workflow: flow nesting', route: 'manifest', format: 'workflow', make: (n) => `jobs: ${fill('[', n)}` },
  {
    name: 'workflow: quotes',
    route: 'manifest',
    format: 'workflow',
    make: (n) => `jobs: "${fill('\\"', n)}`,
    timingSize: 1024 * 1024,
  },
  {
    name: 'package.json: deep spec',
    route: 'manifest',
    format: 'package-json',
    make: (n) =>
      `{"dependencies":{"a":${'['.repeat(Math.min(n / 2, 5_000))}${']'.repeat(Math.min(n / 2, 5_000))}}}${' '.repeat(Math.max(0, n - 10_030))}`,
  },
  {
    name: 'package.json: many names',
    route: 'manifest',
    format: 'package-json',
    make: (n) =>
      `{"dependencies":{${Array.from({ length: Math.floor(n / 19) }, (_, i) => `"p${i}":"^1.0.0"`).join(',')}}}`,
  },
  {
    name: 'CycloneDX XML: unclosed comments',
    route: 'sbom',
    format: 'application/vnd.cyclonedx+xml',
    make: (n) => `<${fill('<!--', n)}`,
  },
  {
    name: 'CycloneDX XML: unclosed PIs',
    route: 'sbom',
    format: 'application/vnd.cyclonedx+xml',
    make: (n) => `<${fill('<?', n)}`,
  },
  {
    name: 'CycloneDX XML: <bom in a comment',
    route: 'sbom',
    format: 'application/vnd.cyclonedx+xml',
    make: (n) => `<!--${fill('<bom ', n)}--><bom xmlns="http://cyclonedx.org/schema/bom/1.5"><components/></bom>`,
  },
  {
    name: 'CycloneDX XML: malformed tag',
    route: 'sbom',
    format: 'application/vnd.cyclonedx+xml',
    make: (n) => `<bom xmlns="http://cyclonedx.org/schema/bom/1.5"><a ${fill('b', n)}`,
  },
  {
    name: 'CycloneDX JSON: purl repository_url slashes',
    route: 'sbom',
    format: 'application/vnd.cyclonedx+json',
    make: (n) =>
      JSON.stringify({
        bomFormat: 'CycloneDX',
        specVersion: '1.5',
        components: [{ name: 'x', purl: `pkg:docker/x@1?repository_url=${fill('/', n)}%0A` }],
      }),
  },
  {
    name: 'SPDX tag-value: <text> over many lines',
    route: 'sbom',
    format: 'text/spdx',
    make: (n) => `SPDXVersion: SPDX-2.3\nPackageComment: <text>${fill('x\n', n)}</text>\n`,
  },
  {
    name: 'SPDX tag-value: many packages and DESCRIBES',
    route: 'sbom',
    format: 'text/spdx',
    make: (n) => {
      const k = Math.floor(n / 110);
      const out = ['SPDXVersion: SPDX-2.3\nSPDXID: SPDXRef-DOCUMENT\n'];
      for (let i = 0; i < k; i++) out.push(`PackageName: p${i}\nSPDXID: SPDXRef-p${i}\n`);
      for (let i = 0; i < k; i++) out.push(`Relationship: SPDXRef-DOCUMENT DESCRIBES SPDXRef-p${i}\n`);
      return out.join('');
    },
  },
  {
    name: 'SPDX YAML: many distinct keys',
    route: 'sbom',
    format: 'application/spdx+yaml',
    make: (n) =>
      `spdxVersion: SPDX-2.3\nSPDXID: SPDXRef-DOCUMENT\nx:\n${Array.from({ length: Math.floor(n / 12) }, (_, i) => `  k${i}: v\n`).join('')}`,
  },
  {
    name: 'SPDX 3: a long rootElement',
    route: 'sbom',
    format: 'application/spdx+json',
    make: (n) =>
      `{"@context":"https://spdx.org/rdf/3.0.1/spdx-context.jsonld","@graph":[{"type":"SpdxDocument","rootElement":[${fill('0,', n)}0]}]}`,
  },
  { name: 'SPDX JSON: @context brackets', route: 'sbom', format: '', make: (n) => `{"@context":${fill('[', n)}` },
  {
    // The graph's walk and its paths: a chain as deep as the input allows, closed into a cycle.
    name: 'CycloneDX JSON: a dependency chain thousands deep, closed into a cycle',
    route: 'sbom',
    format: 'application/vnd.cyclonedx+json',
    make: (n) => {
      const k = Math.floor(n / 110);
      const components = Array.from(
        { length: k },
        (_, i) => `{"bom-ref":"c${i}","name":"c${i}","purl":"pkg:npm/c${i}@1"}`,
      );
      const dependencies = Array.from({ length: k }, (_, i) => `{"ref":"c${i}","dependsOn":["c${(i + 1) % k}"]}`);
      return `{"bomFormat":"CycloneDX","specVersion":"1.5","metadata":{"component":{"bom-ref":"app","name":"app"}},"components":[${components.join(',')}],"dependencies":[{"ref":"app","dependsOn":["c0"]},${dependencies.join(',')}]}`;
    },
  },
  {
    // Every component a direct dependency and each one's <dependency> naming the one before.
    name: 'CycloneDX XML: a wide graph, every component direct and each depending on the last',
    route: 'sbom',
    format: 'application/vnd.cyclonedx+xml',
    make: (n) => {
      const k = Math.floor(n / 190);
      const out = [
        '<bom xmlns="http://cyclonedx.org/schema/bom/1.4"><metadata><component bom-ref="app"><name>app</name></component></metadata><components>',
      ];
      for (let i = 0; i < k; i++)
        out.push(`<component bom-ref="c${i}"><name>c${i}</name><purl>pkg:npm/c${i}@1</purl></component>`);
      out.push('</components><dependencies><dependency ref="app">');
      for (let i = 0; i < k; i++) out.push(`<dependency ref="c${i}"/>`);
      out.push('</dependency>');
      for (let i = 1; i < k; i++) out.push(`<dependency ref="c${i}"><dependency ref="c${i - 1}"/></dependency>`);
      return `${out.join('')}</dependencies></bom>`;
    },
  },
  {
    name: 'SPDX JSON: a DEPENDS_ON chain thousands deep, with DEPENDENCY_OF back up it',
    route: 'sbom',
    format: 'application/spdx+json',
    make: (n) => {
      const k = Math.floor(n / 370);
      const packages = Array.from(
        { length: k },
        (_, i) =>
          `{"SPDXID":"SPDXRef-p${i}","name":"p${i}","externalRefs":[{"referenceCategory":"PACKAGE-MANAGER","referenceType":"purl","referenceLocator":"pkg:npm/p${i}@1"}]}`,
      );
      const relationships = Array.from(
        { length: k - 1 },
        (_, i) =>
          `{"spdxElementId":"SPDXRef-p${i}","relationshipType":"DEPENDS_ON","relatedSpdxElement":"SPDXRef-p${i + 1}"},{"spdxElementId":"SPDXRef-p${i}","relationshipType":"DEPENDENCY_OF","relatedSpdxElement":"SPDXRef-p${i + 1}"}`,
      );
      return `{"spdxVersion":"SPDX-2.3","SPDXID":"SPDXRef-DOCUMENT","documentDescribes":["SPDXRef-p0"],"packages":[${packages.join(',')}],"relationships":[${relationships.join(',')}]}`;
    },
  },
  {
    name: 'SPDX tag-value: a DEPENDS_ON chain thousands deep',
    route: 'sbom',
    format: 'text/spdx',
    make: (n) => {
      const k = Math.floor(n / 145);
      const out = [
        'SPDXVersion: SPDX-2.3\nSPDXID: SPDXRef-DOCUMENT\nRelationship: SPDXRef-DOCUMENT DESCRIBES SPDXRef-p0\n',
      ];
      for (let i = 0; i < k; i++)
        out.push(`PackageName: p${i}\nSPDXID: SPDXRef-p${i}\nExternalRef: PACKAGE-MANAGER purl pkg:npm/p${i}@1\n`);
      for (let i = 1; i < k; i++) out.push(`Relationship: SPDXRef-p${i - 1} DEPENDS_ON SPDXRef-p${i}\n`);
      return out.join('');
    },
  },
  {
    // Issue 24: a 38.9 MB answer, +421 MB, when every repeat kept its location.
    name: 'requirements: one name on every line',
    route: 'manifest',
    format: 'requirements',
    make: (n) => fill('flask\n', n),
  },
  {
    // Issue 24: 10,000 names in 59 KB answered 4.3 MB (73×).
    name: 'requirements: many distinct short names',
    route: 'manifest',
    format: 'requirements',
    make: (n) => Array.from({ length: Math.floor(n / 7) }, (_, i) => `p${i}`).join('\n'),
  },
  {
    name: 'components list: one name many times',
    route: 'manifest',
    format: 'json',
    make: (n) => `{"components":[${fill('{"name":"a","kind":"npm"},', n - 40)}{"name":"a","kind":"npm"}]}`,
  },
  ...XML_INPUTS,
  ...TEXT_INPUTS,
  ...LOCKFILE_INPUTS,
  ...JS_LOCKFILE_INPUTS,
  ...MORE_LOCKFILE_INPUTS,
];
