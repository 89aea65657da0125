import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../domain/errors.js';
import { CORPUS, corpusRows } from '../../../test/support/corpus.js';
import { parseManifest } from '../../operations/parse-submission.js';
import { InputError } from '../reference.js';
import { looksBunLock } from './detect.js';
import { stripJsonc } from './jsonc.js';
import { parseBunLock } from './parse.js';

const LOCK = `{
  "lockfileVersion": 1,
  "workspaces": {
    "": {
      "name": "app",
      "dependencies": { "boxen": "^8", "lib": "workspace:*", },
      "devDependencies": { "fork": "github:acme/fork", },
    },
    "packages/lib": { "name": "lib", "dependencies": { "chalk": "^4" } },
  },
  "packages": {
    "boxen": ["boxen@8.0.1", "", { "dependencies": { "chalk": "^5" } }, "sha512-a"],
    "chalk": ["chalk@4.1.2", "", {}, "sha512-b"],
    "boxen/chalk": ["chalk@5.4.1", "", {}, "sha512-c"],
    "lib": ["lib@workspace:packages/lib"],
    "fork": ["fork@github:acme/fork#0123abc", {}, "acme-fork-0123abc"],
    "// a string, not a comment, with a trailing comma inside: ,}": ["x@file:../x", {}],
  },
}
`;

describe('bun.lock', () => {
  it('reads workspaces as the direct dependencies and nested copies as Node finds them', () => {
    const r = parseBunLock(LOCK);
    expect(r.format).toBe('bun-lock');
    expect(r.references.map((x) => [x.location, x.ref.id, x.tree])).toEqual([
      ['packages["boxen"]', 'boxen', { resolvedVersion: '8.0.1', scope: 'direct', via: [] }],
      ['packages["chalk"]', 'chalk', { resolvedVersion: '4.1.2', scope: 'direct', via: [] }],
      ['packages["boxen/chalk"]', 'chalk', { resolvedVersion: '5.4.1', scope: 'transitive', via: ['boxen'] }],
      ['packages["fork"]', 'acme/fork', { scope: 'direct', via: [], dev: true }],
    ]);
    expect(r.unresolved.map((u) => u.location)).toEqual([
      'workspaces[""]',
      'packages["lib"]',
      'packages["// a string, not a comment, with a trailing comma inside: ,}"]',
    ]);
  });

  it('strips trailing commas and comments outside strings only', () => {
    expect(JSON.parse(stripJsonc('{"a": [1, 2, ], // c\n "b": "x,}" /* d */, }'))).toEqual({ a: [1, 2], b: 'x,}' });
  });

  it('says which versions it reads; bun.lockb gets a sentence asking for bun.lock', () => {
    expect(() => parseBunLock('{"lockfileVersion": 7, "packages": {}}')).toThrow(
      /lockfileVersion 7 is not one Tended reads/,
    );
    expect(() => parseBunLock('#!/usr/bin/env bun\nbun-lockfile-format-v0\n')).toThrow(InputError);
    expect(() => parseManifest('\u0000binary', { filename: 'app/bun.lockb' })).toThrow(ValidationError);
    expect(() => parseManifest('\u0000binary', { filename: 'app/bun.lockb' })).toThrow(/bun.lock, the text lockfile/);
  });

  it('is known by its name and its content; package-lock.json and package.json are not taken for it', () => {
    expect(parseManifest(LOCK, { filename: 'bun.lock' }).format).toBe('bun-lock');
    expect(parseManifest(LOCK, {}).format).toBe('bun-lock');
    expect(looksBunLock('{"name": "x", "lockfileVersion": 3, "requires": true, "packages": {}}')).toBe(false);
  });

  const rows = corpusRows('bun-lock');
  it('has its corpus', () => expect(rows.length).toBeGreaterThanOrEqual(2));
  for (const row of rows) {
    it(`${row.file}: ${row.expected} distinct packages, each with its version and place`, () => {
      const r = parseManifest(readFileSync(join(CORPUS, row.file), 'utf8'), { filename: 'bun.lock' });
      expect(new Set(r.references.map((x) => `${x.ref.kind}:${x.ref.id}`)).size).toBe(row.expected);
      for (const x of r.references) {
        expect(x.tree?.resolvedVersion).toBeTruthy();
        expect(x.tree?.scope).toBeDefined();
        if (x.tree?.scope === 'direct') expect(x.tree.via).toEqual([]);
      }
    });
  }

  it('hono: a real path', () => {
    const r = parseBunLock(readFileSync(join(CORPUS, 'bun-lock/hono.bun.lock'), 'utf8'));
    expect(r.references.find((x) => x.location === 'packages["@babel/code-frame"]')?.tree).toMatchObject({
      scope: 'transitive',
      via: ['np', 'cosmiconfig', 'parse-json'],
      dev: true,
    });
  });
});
