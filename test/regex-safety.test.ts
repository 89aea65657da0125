import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { checkSync } from 'recheck';
import { describe, expect, it } from 'vitest';

/**
 * Every regular expression in src/ is put to recheck, the ReDoS checker: a pattern that can
 * backtrack super-linearly on some input is a denial of service on a public parser (one request
 * holds the event loop and every other user waits). The patterns are found with the TypeScript
 * parser (literals and `new RegExp('…')` with a literal source), not with a regex over the code.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'src');

interface Pattern {
  where: string;
  source: string;
  flags: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

function patternsOf(path: string): Pattern[] {
  const text = readFileSync(path, 'utf8');
  const file = ts.createSourceFile(
    path,
    text,
    ts.ScriptTarget.Latest,
    true,
    path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: Pattern[] = [];
  const where = (node: ts.Node) =>
    `${relative(ROOT, path)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (ts.isRegularExpressionLiteral(node)) {
      const literal = node.text;
      const end = literal.lastIndexOf('/');
      found.push({ where: where(node), source: literal.slice(1, end), flags: literal.slice(end + 1) });
    } else if (
      (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'RegExp'
    ) {
      const [source, flags] = node.arguments ?? [];
      if (source && (ts.isStringLiteral(source) || ts.isNoSubstitutionTemplateLiteral(source)))
        found.push({
          where: where(node),
          source: source.text,
          flags: flags && ts.isStringLiteral(flags) ? flags.text : '',
        });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

const patterns = sourceFiles(SRC).flatMap(patternsOf);

describe('regular expressions in src/', () => {
  it('are found (the scan itself works)', () => {
    expect(patterns.length).toBeGreaterThan(50);
  });

  it('none is vulnerable to super-linear backtracking (recheck)', { timeout: 300_000 }, () => {
    const vulnerable: string[] = [];
    for (const pattern of patterns) {
      const diagnostics = checkSync(pattern.source, pattern.flags, { timeout: 10_000 });
      if (diagnostics.status === 'vulnerable')
        vulnerable.push(
          `${pattern.where} /${pattern.source}/${pattern.flags}: ${diagnostics.complexity.summary}, attack ${JSON.stringify(
            diagnostics.attack.pattern,
          )}`,
        );
    }
    expect(vulnerable, vulnerable.join('\n')).toEqual([]);
  });

  it('the checker catches the shape that made requirements.txt quadratic', () => {
    expect(checkSync('(^|\\s+)#.*$', '').status).toBe('vulnerable');
  });
});
