import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CORPUS, corpusFiles, expected, throwsOnlyInputError } from '../../../test/support/corpus.js';
import { InputError, TooComplexError } from '../reference.js';
import type { ParseResult } from '../reference.js';
import { MAX_IMAGE_LENGTH, MAX_READ_BYTES, MAX_STAGES, parseDockerfile } from './parse.js';
import { looksDockerfile } from './detect.js';

const files = corpusFiles('dockerfile');

/** The corpus counts FROM images only; syntax and --from images are counted apart. */
function fromKeys(r: ParseResult): Set<string> {
  return new Set(r.references.filter((x) => /^line \d+$/.test(x.location)).map((x) => `${x.ref.kind}:${x.ref.id}`));
}

describe('parseDockerfile on the corpus', () => {
  it('has Dockerfiles', () => expect(files.length).toBeGreaterThan(0));
  it.each(files)('%s gives its MANIFEST.tsv count', (file) => {
    const want = expected.get(file);
    expect(want, `${file} missing from MANIFEST.tsv`).toBeTypeOf('number');
    const text = readFileSync(join(CORPUS, file), 'utf8');
    expect(looksDockerfile(text)).toBe(true);
    const r = parseDockerfile(text);
    expect(fromKeys(r).size).toBe(want);
    // Each corpus file has exactly one syntax directive and no image in --from.
    expect(r.references.filter((x) => x.location.includes('syntax'))).toHaveLength(1);
    expect(r.references.filter((x) => x.location.includes('--from'))).toHaveLength(0);
  });

  it('grafana resolves ARG images and stage names built from ARGs', () => {
    const r = parseDockerfile(readFileSync(join(CORPUS, 'dockerfile/grafana.Dockerfile'), 'utf8'));
    expect([...fromKeys(r)].sort()).toEqual([
      'docker:docker.io/library/alpine:3.21',
      'docker:docker.io/library/golang:1.24.2-alpine',
      'docker:docker.io/library/node:22-alpine',
    ]);
    expect(r.unresolved.filter((u) => u.reason.includes('build stage'))).toHaveLength(2);
  });
});

describe('parseDockerfile edge cases', () => {
  const cases: [string, string, string[], number][] = [
    ['plain', 'FROM node:18\n', ['docker.io/library/node:18'], 0],
    ['no tag is latest', 'FROM alpine\n', ['docker.io/library/alpine:latest'], 0],
    ['lowercase from/as', 'from node:18 as build\nfrom build\n', ['docker.io/library/node:18'], 1],
    ['stage alias case-insensitive', 'FROM node:18 AS Build\nFROM build\n', ['docker.io/library/node:18'], 1],
    ['--platform skipped', 'FROM --platform=$BUILDPLATFORM golang:1.22 AS b\n', ['docker.io/library/golang:1.22'], 0],
    ['$V', 'ARG V=3.19\nFROM alpine:$V\n', ['docker.io/library/alpine:3.19'], 0],
    ['${V}', 'ARG IMG=redis\nFROM ${IMG}:7\n', ['docker.io/library/redis:7'], 0],
    ['${V:-default}', 'ARG V\nFROM alpine:${V:-3.18}\n', ['docker.io/library/alpine:3.18'], 0],
    [
      'quoted defaults',
      'ARG V="20-slim"\nARG W=\'bookworm\'\nFROM node:${V}\nFROM debian:$W\n',
      ['docker.io/library/node:20-slim', 'docker.io/library/debian:bookworm'],
      0,
    ],
    ['several ARGs on one line', 'ARG A=alpine B=3.19\nFROM $A:$B\n', ['docker.io/library/alpine:3.19'], 0],
    ['escape directive', '# escape=`\nFROM `\n  node:18\n', ['docker.io/library/node:18'], 0],
    ['leftover variable', 'ARG V\nFROM alpine:${V}\n', [], 1],
    ['ARG after FROM is not global', 'FROM alpine:3\nARG V=1\nFROM node:$V\n', ['docker.io/library/alpine:3'], 1],
    ['scratch skipped', 'FROM scratch\n', [], 1],
    [
      'digest kept',
      'FROM node:18@sha256:' + 'a'.repeat(64) + '\n',
      ['docker.io/library/node:18@sha256:' + 'a'.repeat(64)],
      0,
    ],
    ['registry port', 'FROM localhost:5000/team/app:1.2\n', ['localhost:5000/team/app:1.2'], 0],
    ['docker.io/library spelled out', 'FROM docker.io/library/node:18\n', ['docker.io/library/node:18'], 0],
    ['continuation', 'FROM \\\n  node:18 \\\n  AS x\n', ['docker.io/library/node:18'], 0],
    ['CRLF and BOM', '\uFEFFFROM node:18\r\nRUN x\r\n', ['docker.io/library/node:18'], 0],
    [
      'syntax directive',
      '# syntax=docker/dockerfile:1.7\nFROM node:18\n',
      ['docker.io/docker/dockerfile:1.7', 'docker.io/library/node:18'],
      0,
    ],
    [
      'COPY --from image',
      'FROM node:18 AS b\nCOPY --from=nginx:1.25 /a /b\nCOPY --from=b /a /b\nCOPY --from=0 /a /b\n',
      ['docker.io/library/node:18', 'docker.io/library/nginx:1.25'],
      0,
    ],
    [
      'RUN --mount from image',
      'FROM node:18\nRUN --mount=type=bind,from=ghcr.io/o/tools:1,target=/t ls\n',
      ['docker.io/library/node:18', 'ghcr.io/o/tools:1'],
      0,
    ],
    [
      'heredoc body is not an instruction',
      'FROM node:18\nRUN <<EOF\nFROM evil:1\nEOF\n',
      ['docker.io/library/node:18'],
      0,
    ],
    ['duplicates kept', 'FROM node:18\nFROM node:18\n', ['docker.io/library/node:18', 'docker.io/library/node:18'], 0],
    ['invalid image', 'FROM Not/Valid:x\n', [], 1],
  ];
  it.each(cases)('%s', (_n, text, ids, unresolved) => {
    const r = parseDockerfile(text);
    expect(r.format).toBe('dockerfile');
    expect(r.references.map((x) => x.ref.id)).toEqual(ids);
    expect(r.references.every((x) => x.ref.kind === 'docker')).toBe(true);
    expect(r.unresolved).toHaveLength(unresolved);
  });

  it('locations say which line and which kind of reference', () => {
    const r = parseDockerfile('# syntax=docker/dockerfile:1\nARG V=1\n\nFROM node:$V\nCOPY --from=nginx:1 /a /b\n');
    expect(r.references.map((x) => [x.location, x.input])).toEqual([
      ['line 1 (# syntax directive)', 'docker/dockerfile:1'],
      ['line 4', 'node:$V'],
      ['line 5 (COPY --from)', 'nginx:1'],
    ]);
  });

  it(`reads ${MAX_STAGES.toLocaleString('en')} build stages and refuses more, before parsing them`, () => {
    const stages = (n: number) => Array.from({ length: n }, (_, i) => `FROM s${i} AS s${i + 1}\n`).join('');
    expect(parseDockerfile(stages(MAX_STAGES)).references).toHaveLength(1);
    expect(() => parseDockerfile(stages(MAX_STAGES + 1))).toThrow(TooComplexError);
    expect(() => parseDockerfile(stages(MAX_STAGES + 1))).toThrow(
      /more than 1,000 build stages \(FROM lines; the one past that is on line 1001\)\. Real Dockerfiles have fewer than 100/,
    );
  });

  it('refuses more than 512 KB of the instructions that can name an image, and reads any amount of the rest', () => {
    expect(() => parseDockerfile(`FROM a \\\n${'# c\n  \\\n'.repeat(MAX_READ_BYTES / 6)}AS b\n`)).toThrow(
      /its FROM, ARG, COPY --from and RUN --mount instructions come to more than 512 KB \(past that on line 1\)/,
    );
    const heredoc = 'FROM evil:1\n'.repeat(MAX_READ_BYTES / 16);
    const r = parseDockerfile(
      `FROM node:18\nRUN ${'x '.repeat(MAX_READ_BYTES)}\nRUN <<EOF\n${heredoc}EOF\n# ${'c'.repeat(MAX_READ_BYTES)}\nCOPY --from=nginx:1 /a /b\n`,
    );
    expect(r.references.map((x) => [x.ref.id, x.line])).toEqual([
      ['docker.io/library/node:18', 1],
      ['docker.io/library/nginx:1', 6 + MAX_READ_BYTES / 16],
    ]);
  });

  it('gives up substituting an image past 4 KB, however many times a long ARG is used', () => {
    const r = parseDockerfile(`ARG A=${'x'.repeat(1_000)}\nFROM ${'${A}'.repeat(100_000)}\nFROM $B$C$D$E$F$G$H\n`);
    expect(r.unresolved.map((u) => u.reason)).toEqual([
      `with its variables substituted the image is longer than ${MAX_IMAGE_LENGTH / 1024} KB, and no image reference is that long.`,
      'the variables $B, $C, $D, $E, $F, 2 more have no value in an ARG before the first FROM, so the image is known only at build time.',
    ]);
  });

  it('a file without FROM is an InputError', () => {
    expect(() => parseDockerfile('RUN echo hi\n')).toThrow(InputError);
    expect(() => parseDockerfile('')).toThrow(InputError);
  });

  it('detects Dockerfiles', () => {
    expect(looksDockerfile('# c\nARG A=1\nFROM node\n')).toBe(true);
    expect(looksDockerfile('RUN x\nFROM node\n')).toBe(false);
    expect(looksDockerfile('jobs:\n  a: 1\n')).toBe(false);
    expect(looksDockerfile('fromage==1.0\n')).toBe(false);
  });
});

describe('parseDockerfile properties', () => {
  it('arbitrary strings throw nothing but InputError', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (s) =>
        throwsOnlyInputError(() => parseDockerfile(s)),
      ),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) =>
        throwsOnlyInputError(() => parseDockerfile(`ARG A=${s}\nFROM ${s}\nCOPY --from=${s} a b\n`)),
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
          const b = Buffer.from(bytes[fi] ?? Buffer.alloc(0));
          for (const [pos, v] of flips) if (b.length > 0) b[pos % b.length] = v;
          const text = new TextDecoder().decode(cut === null ? b : b.subarray(0, cut % (b.length + 1)));
          throwsOnlyInputError(() => parseDockerfile(text));
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('variables that are never closed', () => {
  it('still see a later plain $NAME, as the expansion did before it was made linear', () => {
    // "${A:-x" has no closing brace, so it is not a variable; "$B" after it is one, with no value.
    const r = parseDockerfile('FROM ${A:-x$B\n');
    expect(r.references).toEqual([]);
    expect(r.unresolved[0]?.reason).toMatch(/the variable \$B has no value/);
  });
});

describe('parseDockerfile: place in the tree', () => {
  it('every base image is direct', () => {
    const r = parseDockerfile('FROM golang:1.22 AS build\nFROM gcr.io/distroless/static\nCOPY --from=build /x /x\n');
    expect(r.references.map((x) => x.tree)).toEqual([
      { scope: 'direct', via: [] },
      { scope: 'direct', via: [] },
    ]);
  });
});
