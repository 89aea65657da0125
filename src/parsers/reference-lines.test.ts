import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS, corpusFiles } from '../../test/support/corpus.js';
import { parseComposerJson } from './composer-json/parse.js';
import { parseDockerfile } from './dockerfile/parse.js';
import { parseGemfile } from './gemfile/parse.js';
import { parseGoMod } from './go-mod/parse.js';
import { MemberLines } from './json-member-lines.js';
import { parsePackageJson } from './package-json/parse.js';
import type { ComponentReference, ParseResult } from './reference.js';
import { parseRequirements } from './requirements/parse.js';
import { parseWorkflow } from './workflow/parse.js';

/**
 * Every reference of a manifest carries the line it starts on (SARIF's region.startLine, a review
 * comment's line). Checked on the real files of the corpus: the line named must hold the entry.
 */
const linesOf = (text: string) => text.split(/\r\n|\r|\n/);

/** What the line a reference names must show, per format. */
const SHOWS: Record<
  string,
  { parse: (text: string) => ParseResult; holds: (line: string, r: ComponentReference) => boolean }
> = {
  'package-json': {
    parse: (text) => parsePackageJson(text, { lines: true }),
    // The member's name, quoted as a JSON key: `"express":` (the location is section.name).
    holds: (line, r) => line.includes(`${JSON.stringify(r.location.slice(r.location.indexOf('.') + 1))}:`),
  },
  requirements: {
    parse: parseRequirements,
    // The requirement's first word starts on the line (a continuation may carry the rest).
    holds: (line, r) => line.includes(r.input.split(' ')[0]!.slice(0, 12)),
  },
  dockerfile: {
    parse: parseDockerfile,
    // The instruction or directive the image comes from starts on the line.
    holds: (line, r) => (/^line \d+$/.test(r.location) ? /^\s*from\s/i.test(line) : /^\s*(?:#|[a-z]+\s)/i.test(line)),
  },
  workflow: {
    parse: parseWorkflow,
    holds: (line, r) => line.includes(r.input),
  },
};

describe('the line of each reference, on the corpus', () => {
  for (const [format, { parse, holds }] of Object.entries(SHOWS)) {
    const files = corpusFiles(format);
    it(`${format}: every reference names a line that holds it`, () => {
      expect(files.length).toBeGreaterThan(0);
      let checked = 0;
      for (const file of files) {
        const text = readFileSync(join(CORPUS, file), 'utf8');
        const lines = linesOf(text.replace(/^\uFEFF/, ''));
        for (const r of parse(text).references) {
          expect(r.line, `${file} ${r.location}`).toBeTypeOf('number');
          const line = lines[r.line! - 1] ?? '';
          expect(holds(line, r), `${file} line ${r.line}: ${JSON.stringify(line)} for ${r.input}`).toBe(true);
          checked += 1;
        }
      }
      expect(checked).toBeGreaterThan(5);
    });
  }
});

describe('the line of each reference, by hand', () => {
  it('package.json and composer.json: lines only when asked (a second pass over the text, for reports)', () => {
    expect(parsePackageJson('{"dependencies": {\n"a": "1"\n}}').references[0]?.line).toBeUndefined();
    expect(parseComposerJson('{"require": {\n"a/b": "1"\n}}').references[0]?.line).toBeUndefined();
    expect(parseComposerJson('{"require": {\n"a/b": "1"\n}}', { lines: true }).references[0]?.line).toBe(2);
  });

  it('package.json: the line of the key in its section, not a same-named key elsewhere; escapes decoded', () => {
    const text = [
      '{',
      '  "name": "app",',
      '  "overrides": { "express": "4.0.0" },',
      '  "dependencies": {',
      '    "left-pad": "^1.0.0",',
      '    "\\u0065xpress": "^4.18.0", "nested": { "lodash": "1" },',
      '    "react": "npm:preact@^10"',
      '  },',
      '  "devDependencies": {"vitest": "^4", "local": "file:../x"}',
      '}',
    ].join('\n');
    const r = parsePackageJson(text, { lines: true });
    expect(r.references.map((x) => [x.ref.id, x.line])).toEqual([
      ['left-pad', 5],
      ['express', 6],
      ['preact', 7],
      ['vitest', 9],
    ]);
  });

  it('package.json: a repeated key takes its last line, as JSON.parse takes its last value', () => {
    const r = parsePackageJson('{"dependencies": {\n"a": "1",\n"a": "2"\n}}', { lines: true });
    expect(r.references.map((x) => [x.input, x.line])).toEqual([['a: 2', 3]]);
  });

  it('composer.json: require and require-dev', () => {
    const r = parseComposerJson(
      '{\n "require": {\n  "php": ">=8",\n  "monolog/monolog": "^3"\n },\n "require-dev": {"phpunit/phpunit": "^11"}\n}',
      { lines: true },
    );
    expect(r.references.map((x) => [x.ref.id, x.line])).toEqual([
      ['monolog/monolog', 4],
      ['phpunit/phpunit', 6],
    ]);
  });

  it('requirements.txt: a continued requirement is on the line it starts on', () => {
    const r = parseRequirements('# tools\nrequests==2.0 \\\n    --hash=sha256:abc\n\nflask\n');
    expect(r.references.map((x) => [x.ref.id, x.line])).toEqual([
      ['requests', 2],
      ['flask', 5],
    ]);
  });

  it('Dockerfile, workflow, go.mod and Gemfile', () => {
    const docker = parseDockerfile(
      '# syntax=docker/dockerfile:1\nARG V=22\n\nFROM node:${V} AS build\nCOPY --from=nginx:1 /a /b\n',
    );
    expect(docker.references.map((x) => [x.ref.id, x.line])).toEqual([
      ['docker.io/docker/dockerfile:1', 1],
      ['docker.io/library/node:22', 4],
      ['docker.io/library/nginx:1', 5],
    ]);
    const workflow = parseWorkflow(
      'on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    container: node:22\n    steps:\n      - uses: actions/checkout@v4\n',
    );
    expect(workflow.references.map((x) => [x.ref.id, x.line])).toEqual([
      ['docker.io/library/node:22', 5],
      ['actions/checkout', 7],
    ]);
    const go = parseGoMod('module x\n\nrequire (\n\tgithub.com/a/b v1.0.0\n)\n');
    expect(go.references.map((x) => x.line)).toEqual([4]);
    const gems = parseGemfile("source 'https://rubygems.org'\ngem 'rails', '~> 7'\n");
    expect(gems.references.map((x) => x.line)).toEqual([2]);
  });

  it('JSON member lines: 100,000 names, each line right or unknown (a hash collision), never wrong', () => {
    const names = Array.from({ length: 100_000 }, (_, i) => `p${i.toString(36)}`);
    const text = `{\n"dependencies": {\n${names.map((n) => `"${n}": "1"`).join(',\n')}\n}}`;
    const lines = new MemberLines(text, ['dependencies']);
    let unknown = 0;
    names.forEach((name, i) => {
      const line = lines.lineOf('dependencies', name);
      if (line === undefined) unknown += 1;
      else expect(line).toBe(i + 3);
    });
    // 100,000 names in 30 bits collide a few times; each collision loses one line, not more.
    expect(unknown).toBeLessThan(50);
    expect(lines.lineOf('devDependencies', 'p0')).toBeUndefined();
    expect(lines.lineOf('dependencies', 'not-there')).toBeUndefined();
  });
});
