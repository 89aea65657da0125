import { DockerfileParser } from 'dockerfile-ast';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TooComplexError } from '../reference.js';
import { MAX_INSTRUCTIONS, splitInstructions } from './instructions.js';
import { parseDockerfile, referencesIn } from './parse.js';

/** The offset of a line and character, with `\r\n`, `\r` and `\n` as line breaks (as dockerfile-ast's document). */
function offsetAt(text: string, line: number, character: number): number {
  let at = 0;
  for (let l = 0; l < line; l += 1) {
    const next = text.slice(at).search(/\r\n|\r|\n/);
    if (next < 0) return text.length;
    at += next + (text.startsWith('\r\n', at + next) ? 2 : 1);
  }
  const end = text.slice(at).search(/\r\n|\r|\n/);
  return at + Math.min(character, end < 0 ? text.length - at : end);
}

/** What dockerfile-ast makes of the whole text: each instruction's keyword, line, start and end. */
function library(text: string) {
  const d = DockerfileParser.parse(text);
  return {
    escape: d.getEscapeCharacter(),
    spans: d.getInstructions().map((i) => {
      const { start, end } = i.getRange();
      return {
        keyword: i.getKeyword().slice(0, 16),
        line: start.line + 1,
        start: offsetAt(text, start.line, start.character),
        end: offsetAt(text, end.line, end.character),
      };
    }),
  };
}

function split(text: string) {
  const s = splitInstructions(text);
  return {
    escape: s.escape,
    spans: s.spans.map(({ keyword, line, start, end }) => ({ keyword: keyword.slice(0, 16), line, start, end })),
  };
}

describe('splitInstructions', () => {
  it('finds the instructions dockerfile-ast finds, where it finds them', () => {
    const text = [
      '# syntax=docker/dockerfile:1',
      '# escape=\\',
      'ARG A=1',
      'FROM \\',
      '  # a comment inside the continuation',
      '  node:18 AS b',
      'RUN <<EOF cat >/x',
      'FROM evil:1',
      'EOF',
      'COPY <<-"E1" /a <<E2 /b',
      '\tE1',
      'E2',
      'ONBUILD RUN <<X',
      'X',
      'run --mount=from=b,target=/t ls \\ ',
      '  -l',
      '',
    ].join('\n');
    expect(split(text)).toEqual(library(text));
    expect(split(text).spans.map((s) => [s.keyword, s.line])).toEqual([
      ['ARG', 3],
      ['FROM', 4],
      ['RUN', 7],
      ['COPY', 10],
      ['ONBUILD', 13],
      ['RUN', 15],
    ]);
  });

  it('agrees with dockerfile-ast on Dockerfiles put together from tricky pieces', () => {
    const keyword = fc.constantFrom(
      'FROM',
      'from',
      'RUN',
      'COPY',
      'ADD',
      'ARG',
      'ONBUILD RUN',
      'ENV',
      'RU\\\nN',
      'FR\\ \nOM',
      'R`\nUN',
    );
    const separator = fc.constantFrom(' ', '\t', ' \\\n', ' `\n', '', '  ');
    const argument = fc.constantFrom(
      'a',
      'x \\\n  y',
      'x `\n  y',
      '<<EOF',
      '<<-EOF',
      '<<"E"',
      "<<'E'",
      'cat <<A > f',
      '<<EOF <<A',
      '--from=b a b',
      '--mount=from=c,target=/t ls',
      '# not a comment',
      'a \\ \n z',
      'a \\\n# comment\n  b',
      'a \\\n\n  b',
      'a\\',
      '"q \\\n r"',
      '',
    );
    const line = fc.oneof(
      fc.tuple(fc.constantFrom('', ' ', '\t'), keyword, separator, argument).map((parts) => parts.join('')),
      fc.constantFrom('EOF', '\tEOF', ' EOF', 'E', 'A', 'body', 'FROM evil', '# c', '', ' ', '\\', '`'),
    );
    const top = fc.constantFrom(
      '',
      '# escape=`\n',
      '# escape=\\\n',
      '# syntax=x\n# escape=`\n',
      '#escape = `\n',
      '# syntax=x\n\n',
    );
    fc.assert(
      fc.property(top, fc.array(line, { maxLength: 12 }), fc.constantFrom('\n', '\r\n', '\r'), (head, lines, eol) => {
        const text = head + lines.join(eol) + (lines.length > 0 ? eol : '');
        expect(split(text), JSON.stringify(text)).toEqual(library(text));
      }),
      { numRuns: 3_000 },
    );
  });

  it(`refuses more than ${MAX_INSTRUCTIONS.toLocaleString('en')} instructions at once, naming the line past the bound`, () => {
    expect(splitInstructions('RUN a\n'.repeat(MAX_INSTRUCTIONS)).spans).toHaveLength(MAX_INSTRUCTIONS);
    expect(() => splitInstructions('RUN a\n'.repeat(MAX_INSTRUCTIONS + 1))).toThrow(TooComplexError);
    expect(() => splitInstructions(`# c\n${'RUN a\n'.repeat(MAX_INSTRUCTIONS + 1)}`)).toThrow(
      /more than 10,000 instructions \(the one past that is on line 10002\)\. Real Dockerfiles have a few hundred at most; Tended reads up to 10,000\.$/,
    );
  });
});

describe('parseDockerfile reading only the instructions that can name an image', () => {
  it('answers as dockerfile-ast reading the whole file does', () => {
    const image = fc.constantFrom('node:18', 'b', 'B', '$V', '${V:-alpine}', '${W}', 'scratch', 'ghcr.io/o/x:1', '0');
    const line = fc.oneof(
      fc
        .tuple(
          fc.constantFrom('FROM ', 'from ', 'FROM --platform=$P ', 'FROM \\\n  '),
          image,
          fc.constantFrom('', ' AS b', ' as B', ' AS c'),
        )
        .map((p) => p.join('')),
      fc
        .tuple(fc.constantFrom('ARG ', 'arg '), fc.constantFrom('V=3', 'W="x"', 'V', 'V=1 W=2', "W='y'"))
        .map((p) => p.join('')),
      fc
        .tuple(
          fc.constantFrom('COPY --from=', 'ADD --FROM=', 'COPY --chown=1 --from=', 'COPY \\\n  --from='),
          image,
          fc.constantFrom(' a b', ' <<E /x\nbody\nE'),
        )
        .map((p) => p.join('')),
      fc
        .tuple(
          fc.constantFrom('RUN --mount=type=bind,from=', 'RUN --mount=type=cache ', 'RUN <<E --mount=from='),
          image,
          fc.constantFrom(' ls', ',target=/t ls', '\nFROM evil\nE'),
        )
        .map((p) => p.join('')),
      fc.constantFrom(
        'RUN <<EOF\nFROM evil:1\nEOF',
        'ENV V=9',
        '# FROM c',
        'RUN echo from --mount',
        '',
        'ONBUILD COPY --from=x a b',
      ),
    );
    const top = fc.constantFrom('', '# syntax=docker/dockerfile:1\n', '# escape=`\n');
    fc.assert(
      fc.property(top, fc.array(line, { maxLength: 10 }), (head, lines) => {
        const text = `${head}${lines.join('\n')}\n`;
        let whole: unknown;
        let reduced: unknown;
        try {
          whole = referencesIn(DockerfileParser.parse(text), (i) => i.getRange().start.line + 1);
        } catch (e) {
          whole = String(e);
        }
        try {
          reduced = parseDockerfile(text);
        } catch (e) {
          reduced = String(e);
        }
        expect(reduced, JSON.stringify(text)).toEqual(whole);
      }),
      { numRuns: 2_000 },
    );
  });
});
