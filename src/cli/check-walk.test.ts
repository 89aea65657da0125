import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walkChecks, walkDirectory, WALK_LIMITS } from './check-walk.js';

let root: string;

function put(path: string, text = '{}\n') {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'tended-walk-'));
  for (const f of [
    'package.json',
    'LICENSE.txt',
    'docker-compose.yml',
    '.github/workflows/ci.yml',
    'requirements-dev.txt',
    'services/api/go.mod',
    'services/api/Dockerfile',
    'sbom/app.cdx.json',
    'bom.xml',
    '.git/config.json',
    '.git/package.json',
    'node_modules/left-pad/package.json',
    'vendor/acme/lib/composer.json',
    '.venv/lib/requirements.txt',
    'target/Cargo.toml',
    'build/package.json',
    'keep/build/package.json',
    'generated/package.json',
    'generated/wanted/package.json',
    'pkg/ignored.cdx.json',
  ])
    put(f);
  // A root rule, a rule of a deeper file, and a negation that brings one back.
  put('.gitignore', '/build/\ngenerated/*\n!generated/wanted/\n');
  put('pkg/.gitignore', 'ignored.cdx.json\n');
  // A loop of links: a walk that followed it would never end.
  symlinkSync(root, join(root, 'services', 'loop'));
  symlinkSync(join(root, 'package.json'), join(root, 'services', 'package.json'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('tended check DIR: the walk', () => {
  it('finds manifests, lockfiles by name and SBOMs, skips what a checkout holds but does not declare and what .gitignore ignores', () => {
    const walk = walkDirectory(root);
    expect(walk.files.map((f) => f.relative)).toEqual([
      '.github/workflows/ci.yml',
      'bom.xml',
      'generated/wanted/package.json',
      'keep/build/package.json',
      'package.json',
      'requirements-dev.txt',
      'sbom/app.cdx.json',
      'services/api/Dockerfile',
      'services/api/go.mod',
      // A link to a file is read as the file; the link to a directory (a loop) is never entered.
      'services/package.json',
    ]);
    expect(walk.passedOver).toEqual([]);
  });

  it('takes a .txt only when its name says requirements, and YAML only as a workflow under .github/workflows', () => {
    expect(walkChecks('LICENSE.txt')).toBe(false);
    expect(walkChecks('requirements/base.txt')).toBe(false);
    expect(walkChecks('requirements.in')).toBe(true);
    expect(walkChecks('deploy/values.yaml')).toBe(false);
    expect(walkChecks('.github/workflows/release.yaml')).toBe(true);
    expect(walkChecks('x/bom.json')).toBe(true);
    expect(walkChecks('app.spdx')).toBe(true);
    expect(walkChecks('README.md')).toBe(false);
  });

  it('does not enter a directory deeper than its bound, and says so', () => {
    const deep = mkdtempSync(join(tmpdir(), 'tended-walk-deep-'));
    try {
      const parts = Array.from({ length: WALK_LIMITS.depth + 3 }, (_, i) => `d${i}`);
      mkdirSync(join(deep, ...parts), { recursive: true });
      writeFileSync(join(deep, ...parts.slice(0, 2), 'package.json'), '{}');
      writeFileSync(join(deep, ...parts, 'package.json'), '{}');
      const walk = walkDirectory(deep);
      expect(walk.files.map((f) => f.relative)).toEqual(['d0/d1/package.json']);
      expect(walk.passedOver).toHaveLength(1);
      expect(walk.passedOver[0]).toMatch(/is deeper than 32 directories: not entered$/);
    } finally {
      rmSync(deep, { recursive: true, force: true });
    }
  });
});
