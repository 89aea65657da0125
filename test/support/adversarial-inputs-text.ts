import type { AdversarialInput } from './adversarial-inputs.js';

/**
 * Issue 24's red-team shapes for the text formats (JSON, TOML, YAML, Dockerfile), each a function
 * of a size in bytes, with the siblings of each reproducer that a fix for it alone would miss.
 * Formats with a size cap below 4 MB are made smaller (Cargo.toml, 1 MB: a quarter of n; workflows,
 * 512 KB: an eighth), so the timing fuzz still times the parser at 4n rather than a refusal by size.
 */
const fill = (unit: string, bytes: number) => unit.repeat(Math.max(1, Math.floor(bytes / unit.length)));
const quarter = (n: number) => Math.floor(n / 4.2);
const eighth = (n: number) => Math.floor(n / 8.4);
const nested = (open: string, leaf: string, close: string, bytes: number) => {
  const depth = Math.max(1, Math.floor(bytes / (open.length + close.length)));
  return `${open.repeat(depth)}${leaf}${close.repeat(depth)}`;
};
const times = (count: number, line: (i: number) => string) =>
  Array.from({ length: Math.max(1, Math.floor(count)) }, (_, i) => line(i)).join('');
/** As many of `line(0)`, `line(1)`… as fit in `bytes`, at least one. */
const upTo = (bytes: number, line: (i: number) => string) => {
  const out: string[] = [];
  for (let i = 0, size = 0; i === 0 || size < bytes; i += 1) {
    const next = line(i);
    if (i > 0 && size + next.length > bytes) break;
    out.push(next);
    size += next.length;
  }
  return out.join('');
};

const CDX = '{"bomFormat":"CycloneDX","specVersion":"1.5","components":';
const SPDX3 = '{"@context":"https://spdx.org/rdf/3.0.1/spdx-context.jsonld","@graph":';

const JSON_INPUTS: AdversarialInput[] = [
  {
    name: 'composer.json: a constraint of arrays nested n/2 deep',
    route: 'manifest',
    format: 'composer-json',
    make: (n) => `{"require":{"a/b":${nested('[', '', ']', n - 30)}}}`,
  },
  {
    name: 'composer.json: a constraint of objects nested deep',
    route: 'manifest',
    format: 'composer-json',
    make: (n) => `{"require":{"a/b":${nested('{"a":', '1', '}', n - 30)}}}`,
  },
  {
    // Honest: brackets and escaped quotes inside a string nest nothing, so this parses.
    name: 'composer.json: brackets and escaped quotes inside a string',
    route: 'manifest',
    format: 'composer-json',
    make: (n) => `{"require":{"a/b":"${fill('[{\\"', n - 30)}"}}`,
  },
  {
    name: 'package.json: objects nested deep under a key Tended does not read',
    route: 'manifest',
    format: 'package-json',
    make: (n) => `{"name":"x","config":${nested('{"a":', '1', '}', n - 60)},"dependencies":{"a":"^1"}}`,
  },
  {
    name: 'CycloneDX JSON: a component property of arrays nested deep',
    route: 'sbom',
    format: 'application/vnd.cyclonedx+json',
    make: (n) => `${CDX}[{"name":"x","properties":${nested('[', '', ']', n - 100)}}]}`,
  },
  {
    name: 'CycloneDX JSON: components nested n/16 deep',
    route: 'sbom',
    format: 'application/vnd.cyclonedx+json',
    make: (n) => `${CDX}[${nested('{"components":[', '', ']}', n - 100)}]}`,
  },
  {
    name: 'SPDX 2 JSON: a package field of objects nested deep',
    route: 'sbom',
    format: 'application/spdx+json',
    make: (n) =>
      `{"spdxVersion":"SPDX-2.3","SPDXID":"SPDXRef-DOCUMENT","packages":[{"name":"x","externalRefs":${nested('{"a":', '1', '}', n - 120)}}]}`,
  },
  {
    name: 'SPDX 3 JSON-LD: an element name of arrays nested deep',
    route: 'sbom',
    format: 'application/spdx+json',
    make: (n) => `${SPDX3}[{"type":"software_Package","name":${nested('[', '', ']', n - 120)}}]}`,
  },
];

const TOML_INPUTS: AdversarialInput[] = [
  {
    name: 'Cargo.toml: a dotted key thousands deep (a quarter of n)',
    route: 'manifest',
    format: 'cargo-toml',
    make: (n) => `[dependencies]\na${fill('.a', quarter(n))} = "1"\n`,
  },
  {
    name: 'Cargo.toml: a table header thousands deep (a quarter of n)',
    route: 'manifest',
    format: 'cargo-toml',
    make: (n) => `[dependencies${fill('.a', quarter(n))}]\nversion = "1"\n`,
  },
  {
    name: 'Cargo.toml: inline tables nested deep (a quarter of n)',
    route: 'manifest',
    format: 'cargo-toml',
    make: (n) => `[dependencies]\na = ${nested('{a = ', '1', '}', quarter(n))}\n`,
  },
  {
    name: 'Cargo.toml: arrays nested deep (a quarter of n)',
    route: 'manifest',
    format: 'cargo-toml',
    make: (n) => `[dependencies]\na = ${nested('[', '1', ']', quarter(n))}\n`,
  },
  {
    name: 'Cargo.toml: dotted keys in an inline table (a quarter of n)',
    route: 'manifest',
    format: 'cargo-toml',
    make: (n) => `[dependencies]\na = { ${fill('b.', quarter(n))}c = 1 }\n`,
  },
  {
    // Honest: dots and brackets in strings, quoted keys and comments nest nothing, so this parses.
    name: 'Cargo.toml: dots and brackets in strings, quoted keys and comments (a quarter of n)',
    route: 'manifest',
    format: 'cargo-toml',
    make: (n) =>
      `[dependencies]\n"a.b.c" = "${fill('.[{', quarter(n) / 4)}"\nb = '''\n${fill('[x.y]\n', quarter(n) / 4)}'''\n# ${fill('[.{', quarter(n) / 4)}\nc = { version = "1", features = ["${fill('.', quarter(n) / 4)}"] }\n`,
  },
];

/** `count` steps, each `uses:` an action, indented for a job's `steps:`. */
const steps = (count: number) => times(count, () => '      - uses: a/b@v1\n');

const YAML_INPUTS: AdversarialInput[] = [
  {
    // The reproducer: 302 KB gave an 81.9 MB answer, every job walking the one list again.
    name: 'workflow: one list of steps aliased by 99 jobs (an eighth of n)',
    route: 'manifest',
    format: 'workflow',
    make: (n) =>
      `on: push\njobs:\n  j0:\n    runs-on: x\n    steps: &s\n${steps(eighth(n) / 21)}${times(99, (i) => `  j${i + 1}: { runs-on: x, steps: *s }\n`)}`,
  },
  {
    // Billion laughs through `parallel:` groups, which the walk follows: ten to the ninth steps.
    name: 'workflow: aliases of aliases (an eighth of n)',
    route: 'manifest',
    format: 'workflow',
    make: (n) =>
      `on: push\nx0: &a0 [${Array(10).fill('{uses: a/b@v1}').join(', ')}]\n${times(8, (i) => `x${i + 1}: &a${i + 1} [${Array(10).fill(`{parallel: *a${i}}`).join(', ')}]\n`)}jobs:\n  bomb: { steps: *a8 }\n  pad:\n    steps:\n${steps(eighth(n) / 21)}`,
  },
  {
    // `<<` is no merge key in YAML 1.2 (nor in GitHub's reader), but each alias still counts.
    name: 'workflow: merge keys of one big job (an eighth of n)',
    route: 'manifest',
    format: 'workflow',
    make: (n) =>
      `on: push\nbase: &b\n  runs-on: x\n  steps:\n${steps(eighth(n) / 21)}jobs:\n${times(200, (i) => `  j${i}: { <<: *b, name: j${i} }\n`)}`,
  },
  {
    name: 'workflow: an alias inside the list it names (an eighth of n)',
    route: 'manifest',
    format: 'workflow',
    make: (n) => `on: push\njobs:\n  a:\n    steps: &s\n      - parallel: *s\n${steps(eighth(n) / 21)}`,
  },
  {
    name: 'workflow: 256 jobs of many steps (an eighth of n)',
    route: 'manifest',
    format: 'workflow',
    make: (n) => {
      const per = Math.max(1, Math.floor(eighth(n) / 256 / 21));
      return `on: push\njobs:\n${times(256, (i) => `  j${i}:\n    runs-on: x\n    steps:\n${steps(per)}`)}`;
    },
  },
  {
    // The shape of ADVERSARIAL_INPUTS' 'workflow: quotes', under the 512 KB cap, so that yaml's quoted scalars are still timed.
    name: 'workflow: quotes (an eighth of n)',
    route: 'manifest',
    format: 'workflow',
    make: (n) => `jobs: "${fill('\\"', eighth(n))}`,
    timingSize: 1024 * 1024,
  },
  {
    name: 'workflow: many jobs × many steps, 4 MB',
    route: 'manifest',
    format: 'workflow',
    make: (n) => `on: push\njobs:\n${times(n / 2_150, (i) => `  j${i}:\n    steps:\n${steps(100)}`)}`,
  },
  {
    // Honest: the shape SPDX tools write, 30,000 packages in 4 MB. It must be read, and quickly.
    name: 'SPDX YAML: plain packages',
    route: 'sbom',
    format: 'application/spdx+yaml',
    make: (n) =>
      `spdxVersion: SPDX-2.3\nSPDXID: SPDXRef-DOCUMENT\nname: x\ndocumentDescribes:\n- SPDXRef-p0\npackages:\n${upTo(
        n - 100,
        (i) =>
          `- SPDXID: SPDXRef-p${i}\n  name: p${i}\n  versionInfo: 1.0.${i}\n  externalRefs:\n  - referenceCategory: PACKAGE-MANAGER\n    referenceType: purl\n    referenceLocator: pkg:npm/p${i}@1.0.${i}\n`,
      )}`,
  },
  {
    // Every package points at one long list of references that are not purls: the reader loops over all of them per package.
    name: 'SPDX YAML: one list of references aliased by every package',
    route: 'sbom',
    format: 'application/spdx+yaml',
    make: (n) =>
      `spdxVersion: SPDX-2.3\nrefs: &r\n${upTo(n / 2 - 50, () => '- {referenceCategory: SECURITY, referenceType: cpe23Type}\n')}packages:\n${upTo(n / 2 - 50, (i) => `- {name: p${i}, externalRefs: *r}\n`)}`,
  },
  {
    name: 'SPDX YAML: packages in flow style',
    route: 'sbom',
    format: 'application/spdx+yaml',
    make: (n) =>
      `spdxVersion: SPDX-2.3\npackages: [${upTo(n - 50, (i) => `{name: p${i}, externalRefs: [{referenceCategory: PACKAGE-MANAGER, referenceType: purl, referenceLocator: "pkg:npm/p${i}@1"}]}, `)}]\n`,
  },
  {
    // Honest: long values folded over lines, quoted and block scalars, as PyYAML and Jackson write them.
    name: 'SPDX YAML: folded, quoted and block scalars',
    route: 'sbom',
    format: 'application/spdx+yaml',
    make: (n) =>
      `---\nspdxVersion: "SPDX-2.3"\npackages:\n${upTo(
        n - 50,
        (i) =>
          `- name: 'p${i}'\n  comment: a long comment that a writer folded\n    over two lines\n  copyrightText: "Copyright \\"x\\"\n    y"\n  description: |-\n    line one\n    line two\n  externalRefs:\n  - referenceCategory: PACKAGE-MANAGER\n    referenceType: purl\n    referenceLocator: "pkg:npm/p${i}@1.0.0"\n`,
      )}`,
  },
  {
    // Block YAML may nest as deep as its indentation allows: 2,800 levels in 4 MB, each a line.
    name: 'SPDX YAML: mappings indented thousands of levels deep',
    route: 'sbom',
    format: 'application/spdx+yaml',
    make: (n) => {
      const levels = Math.floor(Math.sqrt(2 * n));
      return `spdxVersion: SPDX-2.3\nx:\n${times(levels, (i) => `${' '.repeat(i + 1)}a:\n`)}`;
    },
  },
  {
    name: 'SPDX YAML: one value folded over every line',
    route: 'sbom',
    format: 'application/spdx+yaml',
    make: (n) => `spdxVersion: SPDX-2.3\ncomment: ${fill('word word\n  ', n - 40)}x\n`,
  },
  {
    name: 'SPDX YAML: one quoted value with escapes over every line',
    route: 'sbom',
    format: 'application/spdx+yaml',
    make: (n) => `spdxVersion: SPDX-2.3\ncomment: "${fill('\\t\\u00e9 \\\n  ', n - 40)}x"\n`,
  },
];

const DOCKERFILE_INPUTS: AdversarialInput[] = [
  {
    name: 'Dockerfile: FROM a on every line',
    route: 'manifest',
    format: 'dockerfile',
    make: (n) => fill('FROM a\n', n),
  },
  {
    name: 'Dockerfile: many RUN lines',
    route: 'manifest',
    format: 'dockerfile',
    make: (n) => `FROM a\n${fill('RUN a\n', n)}`,
  },
  {
    name: 'Dockerfile: one RUN of many words',
    route: 'manifest',
    format: 'dockerfile',
    make: (n) => `FROM a\nRUN ${fill('x ', n)}\n`,
  },
  {
    name: 'Dockerfile: a heredoc of many lines',
    route: 'manifest',
    format: 'dockerfile',
    make: (n) => `FROM a\nRUN <<EOF\n${fill('x\n', n)}EOF\n`,
  },
  {
    name: 'Dockerfile: many heredocs',
    route: 'manifest',
    format: 'dockerfile',
    make: (n) => `FROM a\n${fill('RUN <<A\nA\n', n)}`,
  },
  {
    name: 'Dockerfile: many comment lines',
    route: 'manifest',
    format: 'dockerfile',
    make: (n) => `FROM a\n${fill('# c\n', n)}`,
  },
  {
    name: 'Dockerfile: many COPY --from lines',
    route: 'manifest',
    format: 'dockerfile',
    make: (n) => `FROM a\n${fill('COPY --from=b:1 x y\n', n)}`,
  },
  {
    name: 'Dockerfile: many ARGs before FROM, then their substitutions',
    route: 'manifest',
    format: 'dockerfile',
    make: (n) => `${upTo(n / 2, (i) => `ARG A${i}=x\n`)}FROM ${upTo(n / 2 - 10, (i) => `\${A${i}}`)}\n`,
  },
  {
    // Substituted naively, n/2 bytes of value times n/8 uses is far past the longest string V8 makes.
    name: 'Dockerfile: a long ARG substituted many times',
    route: 'manifest',
    format: 'dockerfile',
    make: (n) => `ARG A=${fill('x', n / 2)}\nFROM ${fill('${A}', n / 2)}\n`,
  },
  {
    // ADVERSARIAL_INPUTS' 'Dockerfile: ${A+ nested' within the 512 KB of FROM text dockerfile-ast is given, so its expansion is still timed.
    name: 'Dockerfile: ${A+ nested in a FROM, then comments (an eighth of n)',
    route: 'manifest',
    format: 'dockerfile',
    make: (n) => `FROM ${fill('${A+', n / 8)}\n${fill('# c\n', (7 * n) / 8)}`,
  },
  {
    name: 'Dockerfile: a FROM of many continuation and comment lines',
    route: 'manifest',
    format: 'dockerfile',
    make: (n) => `FROM a ${fill('\\\n# c\n', n)}AS b\n`,
  },
];

export const TEXT_INPUTS: AdversarialInput[] = [...JSON_INPUTS, ...TOML_INPUTS, ...YAML_INPUTS, ...DOCKERFILE_INPUTS];
