import { describe, expect, it } from 'vitest';
import { InputError, TooComplexError } from '../reference.js';
import { looksComposerJson } from './detect.js';
import { parseComposerJson } from './parse.js';

const COMPOSER = JSON.stringify({
  name: 'acme/app',
  require: { php: '^8.2', 'ext-json': '*', 'laravel/framework': '^11.0', 'Monolog/Monolog': '^3.0' },
  'require-dev': { 'phpunit/phpunit': '^11.0' },
});

describe('composer.json', () => {
  it('names each Packagist package of require and require-dev, and sets platform requirements aside', () => {
    const r = parseComposerJson(COMPOSER);
    expect(r.format).toBe('composer-json');
    expect(r.references.map((x) => [x.ref.kind, x.ref.id, x.location])).toEqual([
      ['composer', 'laravel/framework', 'require.laravel/framework'],
      ['composer', 'monolog/monolog', 'require.Monolog/Monolog'],
      ['composer', 'phpunit/phpunit', 'require-dev.phpunit/phpunit'],
    ]);
    expect(r.unresolved.map((u) => u.location)).toEqual(['require.php', 'require.ext-json']);
    expect(r.unresolved[0]?.reason).toContain('platform requirement');
  });

  it('refuses what is not JSON, and is recognised by its require section', () => {
    expect(() => parseComposerJson('{nope')).toThrow(InputError);
    expect(looksComposerJson(COMPOSER)).toBe(true);
    expect(looksComposerJson('{"dependencies":{"express":"^4"}}')).toBe(false);
  });

  it('refuses a constraint nested past 256 levels before anything is serialised, and shows a shallower one', () => {
    const deep = (levels: number) => `{"require":{"a/b":${'['.repeat(levels)}${']'.repeat(levels)}}}`;
    expect(() => parseComposerJson(deep(100_000))).toThrow(TooComplexError);
    expect(() => parseComposerJson(deep(100_000))).toThrow(/more than 256 levels deep/);
    expect(parseComposerJson(deep(250)).references[0]?.input).toBe(`a/b: ${'['.repeat(195)}`);
    // Brackets inside a string nest nothing.
    expect(parseComposerJson(`{"require":{"a/b":"${'['.repeat(100_000)}"}}`).references).toHaveLength(1);
  });
});

describe('parseComposerJson: place in the tree', () => {
  it('require is direct, require-dev direct and dev', () => {
    const r = parseComposerJson(
      '{"require":{"php":">=8.1","laravel/framework":"^10"},"require-dev":{"phpunit/phpunit":"^10"}}',
    );
    expect(r.references.map((x) => [x.ref.id, x.tree])).toEqual([
      ['laravel/framework', { scope: 'direct', via: [] }],
      ['phpunit/phpunit', { scope: 'direct', via: [], dev: true }],
    ]);
  });
});
