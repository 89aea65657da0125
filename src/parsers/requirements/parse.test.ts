import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CORPUS, corpusFiles, expected, throwsOnlyInputError } from '../../../test/support/corpus.js';
import type { ParseResult } from '../reference.js';
import { decodeText } from '../decode-text.js';
import { parseRequirements } from './parse.js';
import { looksRequirements } from './detect.js';

const files = corpusFiles('requirements');

/** The corpus counts distinct PyPI names; -e lines, includes and URLs are counted apart. */
const pypiNames = (r: ParseResult): Set<string> =>
  new Set(r.references.filter((x) => x.ref.kind === 'pypi').map((x) => x.ref.id));

const read = (file: string): ParseResult =>
  parseRequirements(decodeText(new Uint8Array(readFileSync(join(CORPUS, file)))));

describe('parseRequirements on the corpus', () => {
  it('has requirements files', () => expect(files.length).toBeGreaterThan(0));
  it.each(files)('%s gives its MANIFEST.tsv count', (file) => {
    const want = expected.get(file);
    expect(want, `${file} missing from MANIFEST.tsv`).toBeTypeOf('number');
    expect(looksRequirements(decodeText(new Uint8Array(readFileSync(join(CORPUS, file)))))).toBe(true);
    expect(pypiNames(read(file)).size).toBe(want);
  });

  it('the UTF-16LE file decodes to attrs==20.3.0', () => {
    const r = read('requirements/trivy-requirements_utf16le.txt');
    expect(r.references).toEqual([
      {
        ref: { kind: 'pypi', id: 'attrs' },
        input: 'attrs==20.3.0',
        location: 'line 1',
        line: 1,
        tree: { scope: 'direct', via: [] },
      },
    ]);
  });

  it('home-assistant: -c is unresolved as an include, mixed case normalised', () => {
    const r = read('requirements/home-assistant-core-requirements.txt');
    expect(r.unresolved).toHaveLength(1);
    expect(r.unresolved[0]?.reason).toMatch(/included file not sent/);
    expect(pypiNames(r)).toContain('pyopenssl');
    expect(pypiNames(r)).toContain('jinja2');
  });

  it('dependabot: the two -e GitHub lines are github components', () => {
    const r = read('requirements/dependabot-pip_compile_editable.txt');
    expect(r.references.filter((x) => x.ref.kind === 'github').map((x) => x.ref.id)).toEqual([
      'testing-cabal/mock',
      'box/flaky',
    ]);
  });

  it('cryptography: hashes and markers stripped, 6 names', () => {
    const r = read('requirements/cryptography-build-requirements.txt');
    expect(r.unresolved).toEqual([]);
    expect([...pypiNames(r)].sort()).toEqual(['cffi', 'flit-core', 'maturin', 'pycparser', 'setuptools', 'tomli']);
  });
});

describe('parseRequirements edge cases', () => {
  const cases: [string, string, [string, string][], number][] = [
    ['pinned', 'requests==2.31.0\n', [['pypi', 'requests']], 0],
    ['PEP 503', 'Foo.Bar_baz==1\n', [['pypi', 'foo-bar-baz']], 0],
    [
      'ranges and specifiers',
      'a>=1,<2\nb~=1.4\nc!=1.5\nd===1.0\ne==2.8.*\nf (>=2)\ng==1.0+local\nh==1!2.0\ni\n',
      ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map((n) => ['pypi', n]),
      0,
    ],
    ['extras dropped', 'requests[socks,security]>=2\n', [['pypi', 'requests']], 0],
    ['marker kept', 'tomli==2.0 ; python_version < "3.11"\n', [['pypi', 'tomli']], 0],
    ['comments', '# header\nflask==3 # web\n', [['pypi', 'flask']], 0],
    ['# in URL fragment is not a comment', '-e git+https://github.com/o/r@v1#egg=x\n', [['github', 'o/r']], 0],
    ['continuation then comment', 'six==1.16 \\\n  # via x\n', [['pypi', 'six']], 0],
    ['comment ending in backslash does not continue', '# note \\\nsix==1\n', [['pypi', 'six']], 0],
    ['hashes', 'attrs==23 \\\n    --hash=sha256:abc \\\n    --hash sha256:def\n', [['pypi', 'attrs']], 0],
    [
      'CRLF',
      'a==1\r\nb==2\r\n',
      [
        ['pypi', 'a'],
        ['pypi', 'b'],
      ],
      0,
    ],
    ['-r include', '-r base.txt\n', [], 1],
    ['-c include', '--constraint=c.txt\n', [], 1],
    ['-e github with .git', '-e git+https://github.com/Box/Flaky.git@v3.5.3#egg=flaky\n', [['github', 'box/flaky']], 0],
    ['-e local path', '-e .\n', [], 1],
    ['-e other host', '-e git+https://gitlab.com/o/r@v1#egg=x\n', [], 1],
    ['bare URL', 'https://example.com/pkg-1.0.tar.gz\n', [], 1],
    ['bare git URL', 'git+https://github.com/o/r@v1\n', [], 1],
    ['local wheel', './dist/pkg-1.0-py3-none-any.whl\n', [], 1],
    ['name @ url', 'pkg @ https://example.com/pkg.zip\n', [], 1],
    ['name @ github', 'pkg @ git+https://github.com/o/r@v1\n', [['github', 'o/r']], 0],
    [
      'index options skipped',
      '-i https://pypi.org/simple\n--extra-index-url https://x\n--pre\nfoo\n',
      [['pypi', 'foo']],
      0,
    ],
    ['unknown option', '--frobnicate\n', [], 1],
    ['variable', '${PKG}==1\n', [], 1],
    ['jinja', '{{ pkg }}==1\n', [], 1],
    [
      'garbage does not fail the file',
      'a==1\n!!!\nb==2\n',
      [
        ['pypi', 'a'],
        ['pypi', 'b'],
      ],
      1,
    ],
    [
      'duplicates kept',
      'a==1\nA==2\n',
      [
        ['pypi', 'a'],
        ['pypi', 'a'],
      ],
      0,
    ],
    ['empty', '', [], 0],
  ];
  it.each(cases)('%s', (_n, text, refs, unresolved) => {
    const r = parseRequirements(text);
    expect(r.format).toBe('requirements');
    expect(r.references.map((x) => [x.ref.kind, x.ref.id])).toEqual(refs);
    expect(r.unresolved).toHaveLength(unresolved);
  });

  it('location is the first physical line of a continued requirement', () => {
    const r = parseRequirements('# c\n\nattrs==1 \\\n  --hash=sha256:a\nsix==1\n');
    expect(r.references.map((x) => [x.location, x.input])).toEqual([
      ['line 3', 'attrs==1'],
      ['line 5', 'six==1'],
    ]);
  });

  it('decodes UTF-16 BE, UTF-16 LE and UTF-8 with BOM, and plain UTF-8', () => {
    const text = 'attrs==1\r\nsix==2\r\n';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(le.subarray(2)).swap16();
    expect(decodeText(le)).toBe(text);
    expect(decodeText(Buffer.concat([Buffer.from([0xfe, 0xff]), be]))).toBe(text);
    expect(decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]))).toBe(text);
    expect(decodeText(Buffer.from(text))).toBe(text);
    expect(decodeText(new Uint8Array([0xfe, 0xff, 0x00]))).toBe('');
  });

  it('detects requirements and not other formats', () => {
    expect(looksRequirements('requests==2\nflask\n')).toBe(true);
    expect(looksRequirements('-r base.txt\nflask>=2\n')).toBe(true);
    expect(looksRequirements('FROM node:18\nRUN x\n')).toBe(false);
    expect(looksRequirements('{"dependencies": {}}')).toBe(false);
    expect(looksRequirements('on: push\njobs:\n  a: {}\n')).toBe(false);
  });
});

describe('parseRequirements properties', () => {
  it('arbitrary strings throw nothing but InputError', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (s) =>
        throwsOnlyInputError(() => parseRequirements(s)),
      ),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (b) =>
        throwsOnlyInputError(() => parseRequirements(decodeText(b))),
      ),
      { numRuns: 300 },
    );
  });
  it('mutated corpus files throw nothing but InputError', () => {
    const bytes = files.map((f) => readFileSync(join(CORPUS, f)));
    fc.assert(
      fc.property(
        fc.nat(bytes.length - 1),
        fc.array(fc.tuple(fc.nat(), fc.nat(255)), { maxLength: 8 }),
        fc.option(fc.nat()),
        (fi, flips, cut) => {
          const b = new Uint8Array(bytes[fi] ?? new Uint8Array());
          for (const [pos, v] of flips) if (b.length > 0) b[pos % b.length] = v;
          throwsOnlyInputError(() =>
            parseRequirements(decodeText(cut === null ? b : b.subarray(0, cut % (b.length + 1)))),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('the requirement shown back', () => {
  it('has each whitespace run, tabs and Unicode spaces included, as one space; a single-spaced line as written', () => {
    const r = parseRequirements(
      'requests\t>=\u00a02.0  ;\u3000python_version < "3.14"\nflask >= 3 ; os_name == "nt"\n',
    );
    expect(r.references.map((x) => x.input)).toEqual([
      'requests >= 2.0 ; python_version < "3.14"',
      'flask >= 3 ; os_name == "nt"',
    ]);
  });
});

describe('the requirement shown back, for any spacing', () => {
  it('equals its words joined by one space', () => {
    const part = fc.constantFrom('a', 'b1', '==', '2.0', ';', 'x', ' ', '  ', '\t', '\u00a0', '\u3000', ' \t ');
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 30 }), (parts) => {
        const line = `pkg ${parts.join('')}`;
        const r = parseRequirements(line);
        const shown = [...r.references, ...r.unresolved].map((x) => x.input);
        expect(shown).toEqual([
          line
            .split(/\s+/)
            .filter((w) => w !== '')
            .join(' '),
        ]);
      }),
    );
  });
});

describe('parseRequirements: place in the tree', () => {
  it('every project of every corpus file is direct: the file names what to install', () => {
    for (const file of corpusFiles('requirements'))
      for (const x of read(file).references) expect(x.tree).toEqual({ scope: 'direct', via: [] });
  });
});
