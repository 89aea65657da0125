/**
 * SPDX's dependency relationships, in every version and syntax, as edges of the SBOM's graph.
 * 2.x: `A DEPENDS_ON B` (A needs B) and `B DEPENDENCY_OF A` with its kinds (`DEV_DEPENDENCY_OF`,
 * `OPTIONAL_DEPENDENCY_OF`, …); 3.0: `dependsOn`, `hasOptionalDependency`, `hasProvidedDependency`
 * from `from` to each of `to`. `CONTAINS` is not a dependency (an image contains its packages; it
 * does not say which one needs which), nor is `DEPENDENCY_MANIFEST_OF` (a file, not a package).
 */
import type { SbomTree } from '../sbom-tree.js';

/** `from` needs `to`; dev / optional when the relationship says so. */
export interface Relationship {
  from: string;
  to: string;
  dev?: boolean;
  optional?: boolean;
}

// 2.3's kinds of "B is a dependency of A": the edge runs A → B. A test dependency is needed only to
// develop the package (as a Maven test scope is); a build, runtime or provided one is needed to run
// or make it, so it is a plain edge.
const DEPENDENCY_OF: Record<string, { dev?: boolean; optional?: boolean }> = {
  DEPENDENCY_OF: {},
  DEV_DEPENDENCY_OF: { dev: true },
  TEST_DEPENDENCY_OF: { dev: true },
  OPTIONAL_DEPENDENCY_OF: { optional: true },
  BUILD_DEPENDENCY_OF: {},
  RUNTIME_DEPENDENCY_OF: {},
  PROVIDED_DEPENDENCY_OF: {},
};

// 3.0's relationship types that make `from` need `to`.
const DEPENDS: Record<string, { optional?: boolean }> = {
  DEPENDS_ON: {},
  dependsOn: {},
  hasOptionalDependency: { optional: true },
  hasProvidedDependency: {},
};

/** The dependency edge a relationship states, or undefined when it states none. */
export function dependencyEdge(a: unknown, type: unknown, b: unknown): Relationship | undefined {
  if (typeof a !== 'string' || typeof b !== 'string' || typeof type !== 'string' || a === '' || b === '')
    return undefined;
  if (Object.hasOwn(DEPENDS, type)) return { from: a, to: b, ...DEPENDS[type] };
  if (Object.hasOwn(DEPENDENCY_OF, type)) return { from: b, to: a, ...DEPENDENCY_OF[type] };
  return undefined;
}

/**
 * The graph from what the document describes: its dependencies are direct (dev or optional as
 * the relationship says); it is the project, not one of its own dependencies. With several
 * described packages, each one's dependencies are direct: the document is about all of them.
 * With none described, no scope is given: the graph's roots would be the project itself, which
 * SPDX lists as a package (cargo-sbom's root crate), not its dependencies. A dev or optional
 * relationship deeper in the graph is kept as a plain edge: DependencyGraph reckons dev and
 * optional from the direct dependencies (what only a dev dependency reaches is dev).
 */
export function readDependencies(tree: SbomTree, described: Iterable<unknown>, edges: Iterable<Relationship>): void {
  for (const id of described) if (typeof id === 'string' && id !== '') tree.subject(id);
  for (const e of edges) {
    if (tree.isSubject(e.from))
      tree.direct(e.to, { ...(e.dev ? { dev: true } : {}), ...(e.optional ? { optional: true } : {}) });
    else tree.edge(e.from, e.to);
  }
  // A document with no dependency relationship gives no direct set, hence no scope: only versions.
  tree.placeAll(true);
}
