import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatOfFilename, parseManifest } from '../../operations/parse-submission.js';
import { CORPUS, corpusRows } from '../../../test/support/corpus.js';
import { InputError } from '../reference.js';
import { looksComposerLock } from './detect.js';
import { parseComposerLock } from './parse.js';

const LOCK = JSON.stringify(
  {
    _readme: ['This file locks the dependencies of your project to a known state'],
    'content-hash': 'abc',
    packages: [
      {
        name: 'monolog/monolog',
        version: '3.5.0',
        require: { php: '>=8.1', 'psr/log': '^2.0 || ^3.0' },
        dist: { type: 'zip' },
      },
      { name: 'psr/log', version: '3.0.0', require: { php: '>=8.0' } },
      { name: 'symfony/polyfill-php80', version: 'v1.29.0', replace: { 'acme/shim': '*' } },
      {
        name: 'acme/local',
        version: 'dev-main',
        dist: { type: 'path', url: '../local' },
        require: { 'acme/shim': '*' },
      },
    ],
    'packages-dev': [{ name: 'PHPUnit/PHPUnit', version: '10.5.0', require: { 'psr/log': '*' } }],
    platform: { php: '>=8.1', 'ext-json': '*' },
  },
  null,
  4,
);

describe('composer.lock', () => {
  it('names each installed package with its version, dev ones from packages-dev, and a path package as unresolved', () => {
    const r = parseComposerLock(LOCK);
    expect(r.format).toBe('composer-lock');
    expect(r.references.map((x) => [x.ref.id, x.tree?.resolvedVersion, x.tree?.dev ?? false, x.location])).toEqual([
      ['monolog/monolog', '3.5.0', false, 'packages[0] monolog/monolog'],
      ['psr/log', '3.0.0', false, 'packages[1] psr/log'],
      ['symfony/polyfill-php80', 'v1.29.0', false, 'packages[2] symfony/polyfill-php80'],
      ['phpunit/phpunit', '10.5.0', true, 'packages-dev[0] PHPUnit/PHPUnit'],
    ]);
    expect(r.unresolved.map((u) => [u.input, u.reason])).toEqual([
      ['acme/local dev-main', 'installed from a local path (../local), not from Packagist'],
    ]);
    // composer.lock alone does not say what the project requires: no scope, no path.
    expect(r.references.every((x) => x.tree?.scope === undefined && x.tree?.via === undefined)).toBe(true);
  });

  it("gives scope and paths from the composer.json's names when they are known, through replaced names", () => {
    const r = parseComposerLock(LOCK, { direct: [{ name: 'monolog/monolog' }, { name: 'acme/local' }] });
    const place = (id: string) => r.references.find((x) => x.ref.id === id)?.tree;
    expect(place('monolog/monolog')).toMatchObject({ scope: 'direct', via: [] });
    expect(place('psr/log')).toMatchObject({ scope: 'transitive', via: ['monolog/monolog'] });
    expect(place('symfony/polyfill-php80')).toMatchObject({
      scope: 'transitive',
      via: ['acme/local'],
      viaUnresolved: 'acme/local',
    });
  });

  it('refuses what is not a composer.lock with a sentence', () => {
    expect(() => parseComposerLock('{"require":{}}')).toThrow(InputError);
    expect(() => parseComposerLock('{"packages":')).toThrow(/not valid JSON/);
  });

  it('is recognised before composer.json and by its name', () => {
    expect(looksComposerLock(LOCK)).toBe(true);
    expect(looksComposerLock('{"require":{"a/b":"^1"}}')).toBe(false);
    expect(parseManifest(LOCK, {}).format).toBe('composer-lock');
    expect(parseManifest('{"require":{"monolog/monolog":"^3"}}', {}).format).toBe('composer-json');
    expect(formatOfFilename('app/composer.lock')).toBe('composer-lock');
  });

  const rows = corpusRows('composer-lock');
  it('has real files in the corpus', () => expect(rows.length).toBeGreaterThanOrEqual(2));
  it.each(rows.map((r) => [r.file, r.expected] as const))('%s parses to its %i packages', (file, expected) => {
    const text = readFileSync(join(CORPUS, file), 'utf8');
    const r = parseManifest(text, {});
    expect(r.format).toBe('composer-lock');
    expect(new Set(r.references.map((x) => x.ref.id)).size).toBe(expected);
    expect(r.references.every((x) => typeof x.tree?.resolvedVersion === 'string')).toBe(true);
    const devNames = (JSON.parse(text) as { 'packages-dev': { name: string }[] })['packages-dev'].map((p) =>
      p.name.toLowerCase(),
    );
    expect(
      r.references
        .filter((x) => x.tree?.dev)
        .map((x) => x.ref.id)
        .sort(),
    ).toEqual(devNames.sort());
  });

  it('reads koel: laravel/framework is a production package, phpunit/phpunit a dev one', () => {
    const r = parseComposerLock(readFileSync(join(CORPUS, 'composer-lock/koel.composer.lock'), 'utf8'));
    expect(r.references.find((x) => x.ref.id === 'laravel/framework')?.tree?.dev).toBeUndefined();
    expect(r.references.find((x) => x.ref.id === 'phpunit/phpunit')?.tree?.dev).toBe(true);
  });
});
