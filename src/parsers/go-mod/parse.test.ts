import { describe, expect, it } from 'vitest';
import { looksGoMod } from './detect.js';
import { parseGoMod } from './parse.js';

const GO_MOD = `// The app.
module github.com/acme/app

go 1.22

require github.com/sirupsen/logrus v1.9.3

require (
	github.com/BurntSushi/toml v1.4.0
	golang.org/x/net v0.25.0 // indirect
	"gopkg.in/yaml.v3" v3.0.1

	nodomain v1.0.0
	github.com/acme/broken
)

replace github.com/acme/old => ../old

exclude golang.org/x/net v0.24.0
`;

describe('go.mod', () => {
  it('names each required module where it is written, and says why a line is not one', () => {
    const r = parseGoMod(GO_MOD);
    expect(r.format).toBe('go-mod');
    expect(r.references.map((x) => [x.ref.id, x.location])).toEqual([
      ['github.com/sirupsen/logrus', 'line 6'],
      ['github.com/BurntSushi/toml', 'line 9'],
      ['golang.org/x/net', 'line 10'],
      ['gopkg.in/yaml.v3', 'line 11'],
    ]);
    expect(r.references.every((x) => x.ref.kind === 'golang')).toBe(true);
    // `// indirect` marks a module only other modules need.
    expect(r.references.map((x) => x.tree?.scope)).toEqual(['direct', 'direct', 'transitive', 'direct']);
    expect(r.references[0]?.tree?.via).toEqual([]);
    expect(r.unresolved.map((u) => [u.input, u.location])).toEqual([
      ['nodomain v1.0.0', 'line 13'],
      ['github.com/acme/broken', 'line 14'],
    ]);
    expect(r.unresolved[0]?.reason).toContain('domain name');
    expect(r.unresolved[1]?.reason).toContain('no version');
  });

  it('is recognised by its module directive, and nothing else is', () => {
    expect(looksGoMod(GO_MOD)).toBe(true);
    expect(looksGoMod('requests==2.0\n')).toBe(false);
    expect(looksGoMod('{"dependencies":{}}')).toBe(false);
  });
});

describe('parseGoMod: place in the tree', () => {
  it('a require is direct; one marked // indirect is transitive, with no path (go.mod does not say what needs it)', () => {
    const r = parseGoMod(
      [
        'module example.com/m',
        'require github.com/spf13/cobra v1.8.0',
        'require (',
        '\tgithub.com/stretchr/testify v1.9.0',
        '\tgithub.com/davecgh/go-spew v1.1.1 // indirect',
        '\tgithub.com/pmezard/go-difflib v1.0.0 // indirect; used by testify',
        '\tgolang.org/x/sys v0.20.0 // not indirect at all',
        ')',
      ].join('\n'),
    );
    expect(r.references.map((x) => [x.ref.id, x.tree])).toEqual([
      ['github.com/spf13/cobra', { scope: 'direct', via: [] }],
      ['github.com/stretchr/testify', { scope: 'direct', via: [] }],
      ['github.com/davecgh/go-spew', { scope: 'transitive' }],
      ['github.com/pmezard/go-difflib', { scope: 'transitive' }],
      ['golang.org/x/sys', { scope: 'direct', via: [] }],
    ]);
  });
});
