import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatOfFilename, parseManifest } from '../../operations/parse-submission.js';
import { CORPUS, corpusRows } from '../../../test/support/corpus.js';
import { looksNugetLock } from './detect.js';
import { parseNugetLock } from './parse.js';

const LOCK = JSON.stringify(
  {
    version: 2,
    dependencies: {
      'net8.0': {
        'Serilog.AspNetCore': {
          type: 'Direct',
          requested: '[8.0.0, )',
          resolved: '8.0.0',
          contentHash: 'x',
          dependencies: { Serilog: '3.1.1' },
        },
        Serilog: { type: 'Transitive', resolved: '3.1.1', contentHash: 'x' },
        'Microsoft.Extensions.Logging': { type: 'CentralTransitive', requested: '[8.0.0, )', resolved: '8.0.0' },
        'System.Memory': { type: 'Transitive', resolved: '4.5.5' },
        core: { type: 'Project', dependencies: { 'Core.Data': '[1.0.0, )', 'Newtonsoft.Json': '[13.0.3, )' } },
        'core.data': { type: 'Project', dependencies: { 'Microsoft.Extensions.Logging': '[8.0.0, )' } },
        'Newtonsoft.Json': { type: 'Transitive', resolved: '13.0.3' },
      },
      'net8.0/linux-x64': {
        'System.Memory': { type: 'Transitive', resolved: '4.5.5' },
      },
    },
  },
  null,
  2,
);

describe('NuGet packages.lock.json', () => {
  it('gives each package its version, direct ones their scope, the rest a path through the graph', () => {
    const r = parseNugetLock(LOCK);
    expect(r.format).toBe('nuget-lock');
    const place = (id: string) => r.references.filter((x) => x.ref.id === id).map((x) => x.tree);
    expect(place('serilog.aspnetcore')).toEqual([{ resolvedVersion: '8.0.0', scope: 'direct', via: [] }]);
    expect(place('serilog')).toEqual([{ resolvedVersion: '3.1.1', scope: 'transitive', via: ['Serilog.AspNetCore'] }]);
    // Reached only through projects of the solution: the path says so.
    expect(place('newtonsoft.json')).toEqual([
      { resolvedVersion: '13.0.3', scope: 'transitive', via: ['core'], viaUnresolved: 'core' },
    ]);
    expect(place('microsoft.extensions.logging')).toEqual([
      { resolvedVersion: '8.0.0', scope: 'transitive', via: ['core', 'core.data'], viaUnresolved: 'core' },
    ]);
    // In no package's dependencies: transitive, with no path the file gives.
    expect(place('system.memory')).toEqual([
      { resolvedVersion: '4.5.5', scope: 'transitive' },
      { resolvedVersion: '4.5.5', scope: 'transitive' },
    ]);
    expect(r.unresolved.map((u) => u.input)).toEqual(['core', 'core.data']);
    expect(r.unresolved[0]?.reason).toContain('ProjectReference');
  });

  it('reads versions 1 and 2 only, and says so', () => {
    expect(() => parseNugetLock('{"version":3,"dependencies":{}}')).toThrow(
      /version 3 is not one Tended reads \(it reads versions 1 and 2\)/,
    );
    expect(parseNugetLock('{"version":1,"dependencies":{}}').references).toEqual([]);
    expect(() => parseNugetLock('[1]')).toThrow(/Expected a NuGet packages.lock.json/);
  });

  it('is recognised by its content before package.json, and by its name', () => {
    expect(looksNugetLock(LOCK)).toBe(true);
    expect(looksNugetLock('{"name":"x","version":"1.0.0","dependencies":{"a":"^1"}}')).toBe(false);
    expect(parseManifest(LOCK, {}).format).toBe('nuget-lock');
    expect(parseManifest('{"name":"x","dependencies":{"a":"^1"}}', {}).format).toBe('package-json');
    expect(formatOfFilename('src/App/packages.lock.json')).toBe('nuget-lock');
  });

  const rows = corpusRows('nuget-lock');
  it('has real files in the corpus', () => expect(rows.length).toBeGreaterThanOrEqual(2));
  it.each(rows.map((r) => [r.file, r.expected] as const))('%s parses to its %i packages', (file, expected) => {
    const r = parseManifest(readFileSync(join(CORPUS, file), 'utf8'), {});
    expect(r.format).toBe('nuget-lock');
    expect(new Set(r.references.map((x) => x.ref.id)).size).toBe(expected);
    for (const x of r.references) {
      expect(x.tree?.resolvedVersion).toBeTruthy();
      expect(x.tree?.scope).toMatch(/^(?:direct|transitive)$/);
      if (x.tree?.scope === 'direct') expect(x.tree.via).toEqual([]);
    }
  });

  it('reads bitwarden Admin: packages of the Core project are reached through it', () => {
    const r = parseNugetLock(readFileSync(join(CORPUS, 'nuget-lock/bitwarden-admin.packages.lock.json'), 'utf8'));
    const braintree = r.references.find((x) => x.ref.id === 'braintree')?.tree;
    expect(braintree?.scope).toBe('transitive');
    expect(braintree?.via?.at(-1)).toBe('core');
    expect(braintree?.viaUnresolved).toBeDefined();
    // Every package of a framework section is reached from a Direct package or a project.
    expect(r.references.every((x) => x.tree?.via !== undefined)).toBe(true);
  });
});
