import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * DESIGN §4's house rule, held by the import graph itself: `src/` is in layers and a folder imports
 * only the folders below it, so the next large change cannot undo the layering unseen. The graph is
 * read with TypeScript's own pre-processor (static, type-only and dynamic imports alike), from
 * every non-test source file.
 */
const SRC = fileURLToPath(new URL('../src', import.meta.url));

/**
 * The floors, lowest first: each may import only those before it (and itself). DESIGN §4's list,
 * with the folders that came after it placed where their imports put them: limits (request
 * budgets, over the upstreams' hosts), simulator (the upstreams' stand-in, which the CLI starts),
 * and config beside the CLI. A registry's reader and follower share its folder in upstreams/.
 */
const FLOORS = [
  'domain',
  'notary',
  'parsers',
  'storage',
  'upstreams',
  'limits',
  'operations',
  'simulator',
  'observer',
  'api',
  'pages',
  'config',
  'http',
  'cli',
  'main.ts',
] as const;

/** DESIGN §4: config is read by the composition root and the CLI only, never from deeper down. */
const CONFIG_READERS = new Set(['cli', 'main.ts']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.(?:tsx?|mjs)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

/** A relative import's file: `./x.js` is `./x.ts` (or .tsx) in the sources. */
function resolveImport(from: string, specifier: string, known: Set<string>): string | null {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx')])
    if (known.has(candidate)) return candidate;
  return null;
}

const files = sourceFiles(SRC);
const known = new Set(files);
const imports = new Map<string, string[]>(
  files.map((f) => {
    const info = ts.preProcessFile(readFileSync(f, 'utf8'), true, true);
    const targets = info.importedFiles
      .map((i) => i.fileName)
      .filter((s) => s.startsWith('.'))
      .map((s) => resolveImport(f, s, known))
      .filter((t): t is string => t !== null);
    return [f, targets];
  }),
);
const folderOf = (file: string) => relative(SRC, file).split('/')[0]!;
const floorOf = (folder: string) => (FLOORS as readonly string[]).indexOf(folder);

describe('the layers of src/ (DESIGN §4)', () => {
  it('reads the import graph: every source file, and the relative imports between them', () => {
    expect(files.length).toBeGreaterThan(300);
    const edges = [...imports.values()].reduce((n, t) => n + t.length, 0);
    expect(edges).toBeGreaterThan(1_000);
  });

  it('places every top-level folder of src/ on a floor', () => {
    const folders = [...new Set(files.map(folderOf))].filter((f) => f !== 'thread-from-source.mjs');
    expect(folders.filter((f) => floorOf(f) < 0)).toEqual([]);
  });

  it('has no arrow up: a folder imports only the floors below it', () => {
    const upward: string[] = [];
    for (const [file, targets] of imports)
      for (const target of targets) {
        const [from, to] = [folderOf(file), folderOf(target)];
        if (from !== to && floorOf(to) > floorOf(from))
          upward.push(`${relative(SRC, file)} -> ${relative(SRC, target)} (${from} is below ${to})`);
      }
    expect(upward).toEqual([]);
  });

  it('keeps the rooms of upstreams/ apart: the HTTP machinery, the port, following, one folder a registry', () => {
    const UP = join(SRC, 'upstreams');
    const roomOf = (file: string) => {
      const parts = relative(UP, file).split('/');
      return parts.length > 1 ? parts[0]! : `(root) ${parts[0]}`;
    };
    const REGISTRIES_READ_BY_OTHERS: Record<string, string[]> = {
      // An image's or a distribution's support window is the end-of-life listing's answer.
      docker: ['endoflife'],
      distro: ['endoflife'],
    };
    const wrong: string[] = [];
    for (const [file, targets] of imports) {
      if (!file.startsWith(UP + '/')) continue;
      const from = roomOf(file);
      for (const target of targets) {
        if (!target.startsWith(UP + '/')) continue;
        const to = roomOf(target);
        if (from === to) continue;
        const says = `${relative(SRC, file)} -> ${relative(SRC, target)}`;
        // The machinery knows no reader, no port and no registry.
        if (from === 'http') wrong.push(`${says} (http/ imports only itself)`);
        // Following is the machinery of feeds: it names no registry.
        else if (from === 'following' && to !== 'http' && !to.startsWith('(root)'))
          wrong.push(`${says} (following/ names no registry)`);
        // A registry's folder stands alone, but for the answers it is built on.
        else if (
          !from.startsWith('(root)') &&
          from !== 'following' &&
          !to.startsWith('(root)') &&
          to !== 'http' &&
          to !== 'following' &&
          !(REGISTRIES_READ_BY_OTHERS[from] ?? []).includes(to)
        )
          wrong.push(`${says} (one registry's folder imports another's)`);
      }
    }
    expect(wrong).toEqual([]);
    // The port is types only: it imports no code, so nothing it names can pull a reader in.
    const port = readFileSync(join(UP, 'source.ts'), 'utf8');
    expect(port.match(/^import (?!type )[^;]*;/gm) ?? []).toEqual([]);
  });

  it('reads configuration only in the CLI and the composition root', () => {
    const readers = [...imports]
      .filter(([file, targets]) => !CONFIG_READERS.has(folderOf(file)) && targets.some((t) => folderOf(t) === 'config'))
      .map(([file]) => relative(SRC, file))
      .filter((f) => folderOf(join(SRC, f)) !== 'config');
    expect(readers).toEqual([]);
  });

  it('has no circle between files (Tarjan’s strongly connected components over every import)', () => {
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const circles: string[][] = [];
    let next = 0;
    // Iterative, so a deep chain of imports cannot overflow the stack.
    for (const start of files) {
      if (index.has(start)) continue;
      const work: { file: string; i: number }[] = [{ file: start, i: 0 }];
      index.set(start, next);
      low.set(start, next++);
      stack.push(start);
      onStack.add(start);
      while (work.length > 0) {
        const frame = work.at(-1)!;
        const targets = imports.get(frame.file)!;
        if (frame.i < targets.length) {
          const t = targets[frame.i++]!;
          if (!index.has(t)) {
            index.set(t, next);
            low.set(t, next++);
            stack.push(t);
            onStack.add(t);
            work.push({ file: t, i: 0 });
          } else if (onStack.has(t)) low.set(frame.file, Math.min(low.get(frame.file)!, index.get(t)!));
          continue;
        }
        work.pop();
        const parent = work.at(-1);
        if (parent) low.set(parent.file, Math.min(low.get(parent.file)!, low.get(frame.file)!));
        if (low.get(frame.file) === index.get(frame.file)) {
          const component: string[] = [];
          for (;;) {
            const f = stack.pop()!;
            onStack.delete(f);
            component.push(relative(SRC, f));
            if (f === frame.file) break;
          }
          if (component.length > 1) circles.push(component.sort());
        }
      }
    }
    expect(circles).toEqual([]);
  });
});
