import { describe, expect, it } from 'vitest';
import { DependencyGraph, MAX_VIA_NAMES } from './dependency-graph.js';

function graph(edges: [string, string][], direct: { key: string; dev?: boolean; optional?: boolean }[]) {
  const g = new DependencyGraph();
  for (const [from, to] of edges) {
    g.addNode({ key: from, name: from });
    g.addNode({ key: to, name: to });
    g.addEdge(from, to);
  }
  for (const d of direct) {
    g.addNode({ key: d.key, name: d.key });
    g.addDirect(d);
  }
  return g.places();
}

describe('a resolved tree', () => {
  it('says direct or transitive and gives one shortest path from a direct dependency', () => {
    const places = graph(
      [
        ['rimraf', 'glob'],
        ['glob', 'inflight'],
        ['express', 'body-parser'],
        ['body-parser', 'debug'],
        ['express', 'debug'],
      ],
      [{ key: 'rimraf', dev: true }, { key: 'express' }],
    );
    expect(places.get('rimraf')).toEqual({ scope: 'direct', via: [], dev: true });
    expect(places.get('inflight')).toEqual({ scope: 'transitive', via: ['rimraf', 'glob'], dev: true });
    // Two paths: the shorter one is given, and a package any production path reaches is not dev.
    expect(places.get('debug')).toEqual({ scope: 'transitive', via: ['express'] });
  });

  it('counts a package as dev only when no production dependency reaches it', () => {
    const places = graph(
      [
        ['jest', 'chalk'],
        ['express', 'chalk'],
      ],
      [{ key: 'jest', dev: true }, { key: 'express' }],
    );
    expect(places.get('chalk')?.dev).toBeUndefined();
  });

  it('gives no scope when the file names no direct dependency, and transitive without a path when none reaches it', () => {
    expect(graph([['a', 'b']], []).get('b')).toEqual({});
    expect(graph([['a', 'b']], [{ key: 'c' }]).get('b')).toEqual({ scope: 'transitive' });
    // Not reached from the roots: nothing is known of dev or optional either.
    expect(
      graph(
        [['a', 'b']],
        [
          { key: 'c', dev: false },
          { key: 'd', dev: true },
        ],
      ).get('b'),
    ).toEqual({
      scope: 'transitive',
    });
  });

  it('says when the path runs through an entry that names no component', () => {
    const g = new DependencyGraph();
    g.addNode({ key: 'app-lib', name: 'app-lib', resolvable: false });
    g.addNode({ key: 'left-pad', name: 'left-pad' });
    g.addEdge('app-lib', 'left-pad');
    g.addDirect({ key: 'app-lib' });
    expect(g.places().get('left-pad')).toEqual({ scope: 'transitive', via: ['app-lib'], viaUnresolved: 'app-lib' });
  });

  it('keeps both ends of a very long path and counts what is between, in linear time', () => {
    const depth = 100_000;
    const g = new DependencyGraph();
    for (let i = 0; i <= depth; i++) g.addNode({ key: `p${i}`, name: `p${i}` });
    for (let i = 0; i < depth; i++) g.addEdge(`p${i}`, `p${i + 1}`);
    g.addDirect({ key: 'p0' });
    const started = performance.now();
    const places = g.places();
    const ms = performance.now() - started;
    const deepest = places.get(`p${depth}`)!;
    expect(deepest.via).toHaveLength(MAX_VIA_NAMES);
    expect(deepest.via!.slice(0, 2)).toEqual(['p0', 'p1']);
    expect(deepest.via!.at(-1)).toBe(`p${depth - 1}`);
    expect(deepest.viaElided).toBe(depth - MAX_VIA_NAMES);
    expect(places.get('p16')!.via).toHaveLength(16);
    expect(places.get('p16')!.viaElided).toBeUndefined();
    // A quadratic walk of this chain takes minutes; a linear one well under a second.
    expect(ms).toBeLessThan(5_000);
  });
});
