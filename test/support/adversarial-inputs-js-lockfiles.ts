/**
 * Hostile shapes for the JavaScript lockfiles (package-lock, pnpm-lock, yarn-lock, bun-lock): a
 * dependency chain as long as the file allows (the graph's walk and paths), folders nested to the
 * bound each naming many missing dependencies (the walk up the folders), and one line as long as
 * the file (the line readers).
 */
import type { AdversarialInput } from './adversarial-inputs.js';

const count = (bytes: number, unit: number) => Math.max(2, Math.floor(bytes / unit));
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

export const JS_LOCKFILE_INPUTS: AdversarialInput[] = [
  {
    name: 'package-lock.json: a dependency chain as long as the file',
    route: 'manifest',
    format: 'package-lock',
    make: (n) => {
      const k = count(n, 95);
      const packages = range(k).map((i) => `"node_modules/p${i}":{"version":"1.0.0","dependencies":{"p${i + 1}":"1"}}`);
      return `{"lockfileVersion":3,"requires":true,"packages":{"":{"dependencies":{"p0":"1"}},${packages.join(',')}}}`;
    },
  },
  {
    name: 'package-lock.json: folders nested 31 deep, each naming many missing dependencies',
    route: 'manifest',
    format: 'package-lock',
    make: (n) => {
      const deep = range(31)
        .map((i) => `node_modules/d${i}`)
        .join('/');
      const missing = range(count(n, 16)).map((i) => `"m${i}":"1"`);
      return `{"lockfileVersion":3,"requires":true,"packages":{"${deep}":{"version":"1.0.0","dependencies":{${missing.join(',')}}}}}`;
    },
  },
  {
    name: 'pnpm-lock.yaml: a dependency chain as long as the file',
    route: 'manifest',
    format: 'pnpm-lock',
    make: (n) => {
      const k = count(n, 110);
      return `lockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    dependencies:\n      p0:\n        specifier: '1'\n        version: 1.0.0\n\npackages:\n\n${range(
        k,
      )
        .map((i) => `  p${i}@1.0.0:\n    resolution: {integrity: sha512-x}\n\n`)
        .join('')}snapshots:\n\n${range(k)
        .map((i) => `  p${i}@1.0.0:\n    dependencies:\n      p${i + 1}: 1.0.0\n\n`)
        .join('')}`;
    },
  },
  {
    name: 'pnpm-lock.yaml: one flow value as long as the file',
    route: 'manifest',
    format: 'pnpm-lock',
    make: (n) =>
      `lockfileVersion: '9.0'\n\npackages:\n\n  a@1.0.0:\n    resolution: {integrity: ${'x'.repeat(Math.max(1, n - 100))}}\n`,
  },
  {
    name: 'yarn.lock (Yarn 1): a dependency chain as long as the file',
    route: 'manifest',
    format: 'yarn-lock',
    make: (n) =>
      `# yarn lockfile v1\n\n${range(count(n, 135))
        .map(
          (i) =>
            `p${i}@^1:\n  version "1.0.0"\n  resolved "https://r.example/p${i}/-/p${i}-1.0.0.tgz"\n  dependencies:\n    p${i + 1} "^1"\n\n`,
        )
        .join('')}`,
  },
  {
    name: 'yarn.lock (Yarn 1): one entry header of many descriptors',
    route: 'manifest',
    format: 'yarn-lock',
    make: (n) => `# yarn lockfile v1\n\n${'"a@^1", '.repeat(count(n - 100, 8))}a@^2:\n  version "1.0.0"\n`,
  },
  {
    name: 'yarn.lock (Yarn 2+): a dependency chain as long as the file',
    route: 'manifest',
    format: 'yarn-lock',
    make: (n) =>
      `__metadata:\n  version: 8\n\n${range(count(n, 135))
        .map(
          (i) =>
            `"p${i}@npm:^1":\n  version: 1.0.0\n  resolution: "p${i}@npm:1.0.0"\n  dependencies:\n    p${i + 1}: "npm:^1"\n\n`,
        )
        .join('')}`,
  },
  {
    name: 'bun.lock: a dependency chain as long as the file, with trailing commas',
    route: 'manifest',
    format: 'bun-lock',
    make: (n) =>
      `{"lockfileVersion": 1, "workspaces": {"": {"dependencies": {"p0": "1",},},}, "packages": {${range(count(n, 90))
        .map((i) => `"p${i}": ["p${i}@1.0.0", "", {"dependencies": {"p${i + 1}": "1",},}, "x",],`)
        .join('')}},}`,
  },
  {
    name: 'bun.lock: keys nested 31 deep, each naming many missing dependencies',
    route: 'manifest',
    format: 'bun-lock',
    make: (n) => {
      const deep = range(31)
        .map((i) => `d${i}`)
        .join('/');
      const missing = range(count(n, 16)).map((i) => `"m${i}":"1"`);
      return `{"lockfileVersion": 1, "packages": {"${deep}": ["d@1.0.0", "", {"dependencies": {${missing.join(',')}}}]}}`;
    },
  },
];
