import { describe, expect, it } from 'vitest';
import { githubRepositoryAt, packagePath, repositoryAddress } from './registries.js';

describe('repositoryAddress', () => {
  it('turns the spellings package metadata uses into a browsable address', () => {
    for (const [raw, address] of <[string, string][]>[
      ['git+https://github.com/acme/left-padded.git', 'https://github.com/acme/left-padded'],
      ['git@github.com:acme/rocket.git', 'https://github.com/acme/rocket'],
      ['git://github.com/acme/rocket.git', 'https://github.com/acme/rocket'],
      ['ssh://git@gitlab.com/acme/rocket.git', 'https://gitlab.com/acme/rocket'],
      ['github:acme/rocket', 'https://github.com/acme/rocket'],
      ['npm/security-holder', 'https://github.com/npm/security-holder'],
      ['https://codeberg.org/acme/rocket', 'https://codeberg.org/acme/rocket'],
    ])
      expect(repositoryAddress(raw), raw).toBe(address);
  });

  it('gives no link for anything that is not an http(s) address', () => {
    for (const raw of ['javascript:alert(1)', 'data:text/html,<b>x</b>', 'file:///etc/passwd', 'not a url', ''])
      expect(repositoryAddress(raw), raw).toBeNull();
    expect(repositoryAddress(null)).toBeNull();
  });
});

describe('githubRepositoryAt', () => {
  it('names the repository of a GitHub address, and nothing elsewhere', () => {
    expect(githubRepositoryAt('https://github.com/Acme/Rocket/tree/main')).toEqual({
      kind: 'github',
      id: 'acme/rocket',
    });
    expect(githubRepositoryAt('https://gitlab.com/acme/rocket')).toBeNull();
    expect(githubRepositoryAt('https://github.com/acme')).toBeNull();
  });
});

describe('packagePath', () => {
  it('spells each kind’s page path as its purl does, Docker Hub images as docker names them', () => {
    expect(packagePath({ kind: 'maven', id: 'org.acme:rocket-core' })).toBe('/maven/org.acme/rocket-core');
    expect(packagePath({ kind: 'docker', id: 'docker.io/library/node:18-alpine' })).toBe(
      '/docker/library/node:18-alpine',
    );
    expect(packagePath({ kind: 'docker', id: 'ghcr.io/acme/rocket:1' })).toBe('/docker/ghcr.io/acme/rocket:1');
    expect(packagePath({ kind: 'github', id: 'acme/rocket' })).toBe('/github/acme/rocket');
  });
});
