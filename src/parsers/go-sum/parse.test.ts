import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatOfFilename, parseManifest } from '../../operations/parse-submission.js';
import { CORPUS, corpusRows } from '../../../test/support/corpus.js';
import { looksGoSum } from './detect.js';
import { compareGoVersions } from './go-version.js';
import { parseGoSum } from './parse.js';

const GO_SUM = `github.com/BurntSushi/toml v1.3.2 h1:o7IhLm0Msx3BaB+n3Ag7L8EVlByGnpq14C4YWiu/gL8=
github.com/BurntSushi/toml v1.3.2/go.mod h1:CxXYINrC8qIiEnFrOxCa7Jy5BFHlXnUU2pbicEuybxQ=
github.com/BurntSushi/toml v1.4.0 h1:kuoIxZQy2WRRk1pttg9asf+WVv6tWQuBNVmK8+nqPr0=
github.com/BurntSushi/toml v1.4.0/go.mod h1:ukJfTF/6rtPPRCnwkur4qwRxa8vTRFBF0uk2lLoLwho=
golang.org/x/net v0.0.0-20190404232315-eb5bcb51f2a3/go.mod h1:t9HGtf8HONx5eT2rtn7q6eTqICYqUVnKs3thJo3Qplg=
github.com/acme/lib v1.2.0-rc.1 h1:aaaa=
github.com/acme/lib v1.2.0 h1:bbbb=
github.com/acme/lib v1.10.0+incompatible h1:cccc=
nodomain v1.0.0 h1:dddd=
not a sum line
`;

describe('go.sum', () => {
  it('names each module with a content line once, at its highest version, and says why the rest are not', () => {
    const r = parseGoSum(GO_SUM);
    expect(r.format).toBe('go-sum');
    expect(r.references.map((x) => [x.ref.id, x.tree?.resolvedVersion, x.location])).toEqual([
      ['github.com/BurntSushi/toml', 'v1.4.0', 'line 3'],
      ['github.com/acme/lib', 'v1.10.0+incompatible', 'line 8'],
    ]);
    // go.sum has no graph and no direct list: no scope, no path.
    expect(r.references.every((x) => x.tree?.scope === undefined && x.tree?.via === undefined)).toBe(true);
    expect(r.unresolved.map((u) => [u.input, u.location])).toEqual([
      ['not a sum line', 'line 10'],
      ['golang.org/x/net v0.0.0-20190404232315-eb5bcb51f2a3/go.mod', 'line 5'],
      ['nodomain v1.0.0', 'line 9'],
    ]);
    expect(r.unresolved[1]?.reason).toContain('only its go.mod was needed');
  });

  it('orders versions as Go does: releases above their pre-releases, numbers by value, +incompatible ignored', () => {
    expect(compareGoVersions('v1.10.0', 'v1.9.9')).toBeGreaterThan(0);
    expect(compareGoVersions('v1.2.0-rc.1', 'v1.2.0')).toBeLessThan(0);
    expect(
      compareGoVersions('v0.0.0-20240101000000-abcdef123456', 'v0.0.0-20190101000000-abcdef123456'),
    ).toBeGreaterThan(0);
    expect(compareGoVersions('v2.0.0+incompatible', 'v2.0.0')).toBe(0);
    expect(compareGoVersions('v1.2.0-rc.2', 'v1.2.0-rc.10')).toBeLessThan(0);
  });

  it('is recognised by its lines and its name, and does not take go.mod or requirements', () => {
    expect(looksGoSum(GO_SUM)).toBe(true);
    expect(looksGoSum('module example.com/x\n\ngo 1.22\n')).toBe(false);
    expect(looksGoSum('requests==2.0\n')).toBe(false);
    expect(formatOfFilename('sub/go.sum')).toBe('go-sum');
    expect(parseManifest(GO_SUM, {}).format).toBe('go-sum');
  });

  const rows = corpusRows('go-sum');
  it('has real files in the corpus', () => expect(rows.length).toBeGreaterThanOrEqual(2));
  it.each(rows.map((r) => [r.file, r.expected] as const))('%s parses to its %i modules', (file, expected) => {
    const r = parseManifest(readFileSync(join(CORPUS, file), 'utf8'), { filename: 'go.sum' });
    expect(new Set(r.references.map((x) => x.ref.id)).size).toBe(expected);
    expect(r.references.length).toBe(expected);
    expect(r.references.every((x) => x.tree?.resolvedVersion?.startsWith('v'))).toBe(true);
  });

  it('reads cli/cli: golang.org/x/net at the one version it built', () => {
    const r = parseGoSum(readFileSync(join(CORPUS, 'go-sum/cli-cli.go.sum'), 'utf8'));
    const net = r.references.find((x) => x.ref.id === 'golang.org/x/net');
    expect(net?.tree?.resolvedVersion).toMatch(/^v0\.\d+\.\d+$/);
  });
});
