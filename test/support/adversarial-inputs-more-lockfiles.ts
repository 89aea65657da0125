import type { AdversarialInput } from './adversarial-inputs.js';

/**
 * Hostile shapes of the lockfiles go.sum, composer.lock, NuGet packages.lock.json and
 * gradle.lockfile, each a function of a size in bytes: a million tiny entries, one module at
 * thousands of versions, chains 10^5 deep, cycles, one huge line, a long list of configurations.
 */
const fill = (unit: string, bytes: number) => unit.repeat(Math.max(1, Math.floor(bytes / unit.length)));
/** As many of `item(0)`, `item(1)`… as fit in `bytes`, at least one, joined by `sep`. */
const upTo = (bytes: number, item: (i: number) => string, sep = '') => {
  const out: string[] = [];
  for (let i = 0, size = 0; i === 0 || size < bytes; i += 1) {
    const next = item(i);
    out.push(next);
    size += next.length + sep.length;
  }
  return out.join(sep);
};

const composerLock = (packages: string) =>
  `{"_readme":["x"],"content-hash":"x","packages":[${packages}],"packages-dev":[]}`;
const nugetLock = (sections: string) => `{"version":1,"dependencies":{${sections}}}`;

export const MORE_LOCKFILE_INPUTS: AdversarialInput[] = [
  {
    name: 'go.sum: many distinct modules',
    route: 'manifest',
    format: 'go-sum',
    make: (n) => upTo(n, (i) => `example.com/m${i} v1.0.0 h1:x=\nexample.com/m${i} v1.0.0/go.mod h1:x=\n`),
  },
  {
    name: 'go.sum: one module at many versions',
    route: 'manifest',
    format: 'go-sum',
    make: (n) => upTo(n, (i) => `example.com/m v1.${i}.0-rc.${i}.a.b h1:x=\n`),
  },
  {
    name: 'go.sum: many modules with only go.mod lines',
    route: 'manifest',
    format: 'go-sum',
    make: (n) => upTo(n, (i) => `example.com/m${i} v1.0.0/go.mod h1:x=\n`),
  },
  {
    name: 'go.sum: one huge line of spaces and slashes',
    route: 'manifest',
    format: 'go-sum',
    make: (n) => `example.com/m v1.0.0 h1:x=\n${fill('/ ', n)}\n`,
  },
  {
    name: 'composer.lock: a chain of requires n/60 deep',
    route: 'manifest',
    format: 'composer-lock',
    make: (n) =>
      composerLock(
        upTo(n, (i) => `{"name":"a/p${i}","version":"1.0.0","require":{"a/p${i + 1}":"*","php":">=8"}}`, ','),
      ),
  },
  {
    name: 'composer.lock: every package requires the first and replaces a name (a cycle)',
    route: 'manifest',
    format: 'composer-lock',
    make: (n) =>
      composerLock(
        upTo(
          n,
          (i) =>
            `{"name":"a/p${i}","version":"1.0.0","require":{"a/p0":"*","a/r${i + 1}":"*"},"replace":{"a/r${i}":"*"}}`,
          ',',
        ),
      ),
  },
  {
    name: 'composer.lock: a package field nested deep',
    route: 'manifest',
    format: 'composer-lock',
    make: (n) => composerLock(`{"name":"a/b","version":"1","extra":${fill('[', n / 2)}${fill(']', n / 2)}}`),
  },
  {
    name: 'NuGet lock: a Direct package at the top of a chain n/90 deep',
    route: 'manifest',
    format: 'nuget-lock',
    make: (n) =>
      nugetLock(
        `"net8.0":{${upTo(n, (i) => `"P${i}":{"type":"${i === 0 ? 'Direct' : 'Transitive'}","resolved":"1.0.0","dependencies":{"P${i + 1}":"1.0.0"}}`, ',')}}`,
      ),
  },
  {
    name: 'NuGet lock: every package depends on every one of 40 Direct ones (a dense cycle)',
    route: 'manifest',
    format: 'nuget-lock',
    make: (n) => {
      const all = `{${Array.from({ length: 40 }, (_, j) => `"D${j}":"1.0.0"`).join(',')}}`;
      const directs = Array.from(
        { length: 40 },
        (_, j) => `"D${j}":{"type":"Direct","resolved":"1.0.0","dependencies":${all}}`,
      );
      return nugetLock(
        `"net8.0":{${directs.join(',')},${upTo(n, (i) => `"P${i}":{"type":"Transitive","resolved":"1.0.0","dependencies":${all}}`, ',')}}`,
      );
    },
  },
  {
    name: 'NuGet lock: many runtime sections and Project entries',
    route: 'manifest',
    format: 'nuget-lock',
    make: (n) =>
      nugetLock(
        upTo(
          n,
          (i) =>
            `"net8.0/rid${i}":{"A":{"type":"Transitive","resolved":"1.0.0","dependencies":{"B":"1.0.0"}},"p${i}":{"type":"Project","dependencies":{"A":"[1.0.0, )"}}}`,
          ',',
        ),
      ),
  },
  {
    name: 'gradle.lockfile: many distinct packages',
    route: 'manifest',
    format: 'gradle-lockfile',
    make: (n) => upTo(n, (i) => `g${i}:a${i}:1.0.${i}=compileClasspath,testRuntimeClasspath\n`),
  },
  {
    name: 'gradle.lockfile: one package on many lines, each a long list of test configurations',
    route: 'manifest',
    format: 'gradle-lockfile',
    make: (n) => upTo(n, () => `g:a:1=${fill('testRuntimeClasspath,', 4_000)}\n`),
  },
  {
    name: 'gradle.lockfile: one line of a million commas',
    route: 'manifest',
    format: 'gradle-lockfile',
    make: (n) => `g:a:1=${fill(',', n)}test\n`,
  },
];
