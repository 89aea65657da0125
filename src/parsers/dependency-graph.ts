import type { TreePlace } from './reference.js';

/**
 * The resolved tree of a lockfile or an SBOM's graph, reduced to what an answer says of each
 * package (DESIGN §8d): direct or transitive, dev or optional, and one shortest path from a
 * direct dependency (`via`). Every parser with a graph builds one of these, so each format answers
 * scope and paths by the same rule.
 *
 * Linear in nodes + edges whatever the shape: a breadth-first walk from the direct dependencies,
 * each node keeping its parent; a path is made from its first names (shared between a node and
 * its children once full) and its last ones (walked up at most MAX_VIA_NAMES / 2 parents), so a
 * chain 100,000 deep costs no more than a wide tree.
 */
export interface TreeNode {
  /** Unique within the file: a name, `name@version`, a bom-ref, an SPDXID. */
  key: string;
  /** The name shown in another package's `via`. */
  name: string;
  version?: string;
  /** What the file says of this package itself; when undefined and roots say it, it is reckoned from them. */
  dev?: boolean;
  optional?: boolean;
  /** False for an entry that names no component Tended can observe: a path through it says so. */
  resolvable?: boolean;
}

export interface DirectDependency {
  key: string;
  /** The manifest lists it as a development or optional dependency. */
  dev?: boolean;
  optional?: boolean;
}

/** A path longer than this keeps its first and last half and counts the names between (viaElided). */
export const MAX_VIA_NAMES = 16;
const HALF = MAX_VIA_NAMES / 2;

interface Reached {
  parent: string | null;
  depth: number;
  /** The first HALF names of the path to this node's parent (shared once it holds HALF). */
  head: readonly string[];
  /** The first entry on the path that names no component, if any. */
  unresolved: string | undefined;
}

export class DependencyGraph {
  private readonly nodes = new Map<string, TreeNode>();
  private readonly edges = new Map<string, string[]>();
  private readonly direct: DirectDependency[] = [];

  addNode(node: TreeNode): void {
    if (!this.nodes.has(node.key)) this.nodes.set(node.key, node);
  }

  /** `from` depends on `to`. Keys the graph never gets a node for are left out of every path. */
  addEdge(from: string, to: string): void {
    const list = this.edges.get(from);
    if (list) list.push(to);
    else this.edges.set(from, [to]);
  }

  addDirect(dependency: DirectDependency): void {
    this.direct.push(dependency);
  }

  get size(): number {
    return this.nodes.size;
  }

  /**
   * Each node's place. A node no direct dependency reaches is `transitive` with no `via` (the file
   * lists it, so something needs it, but its graph does not say what). With no direct dependency
   * known at all (go.sum, a gradle.lockfile alone) no scope is given: the file does not say.
   */
  places(): Map<string, TreePlace> {
    const reached = this.walk(this.direct.map((d) => d.key));
    const devKnown = this.direct.some((d) => d.dev !== undefined);
    const notDev = devKnown ? this.reachable(this.direct.filter((d) => !d.dev).map((d) => d.key)) : null;
    const optionalKnown = this.direct.some((d) => d.optional !== undefined);
    const notOptional = optionalKnown ? this.reachable(this.direct.filter((d) => !d.optional).map((d) => d.key)) : null;
    const places = new Map<string, TreePlace>();
    for (const [key, node] of this.nodes) {
      const place: TreePlace = {};
      if (node.version !== undefined) place.resolvedVersion = node.version;
      const at = reached.get(key);
      if (at) {
        place.scope = at.depth === 0 ? 'direct' : 'transitive';
        Object.assign(place, this.pathOf(at, reached));
      } else if (this.direct.length > 0) place.scope = 'transitive';
      // Reckoned from the roots only for a package they reach: one no direct dependency reaches is
      // not known to be dev (or optional) just because no production path was found to it.
      const dev = node.dev ?? (notDev && at ? !notDev.has(key) : undefined);
      if (dev) place.dev = true;
      const optional = node.optional ?? (notOptional && at ? !notOptional.has(key) : undefined);
      if (optional) place.optional = true;
      places.set(key, place);
    }
    return places;
  }

  private walk(roots: string[]): Map<string, Reached> {
    const reached = new Map<string, Reached>();
    const queue: string[] = [];
    for (const key of roots)
      if (this.nodes.has(key) && !reached.has(key)) {
        reached.set(key, { parent: null, depth: 0, head: [], unresolved: undefined });
        queue.push(key);
      }
    for (let i = 0; i < queue.length; i++) {
      const key = queue[i]!;
      const at = reached.get(key)!;
      const node = this.nodes.get(key)!;
      const head = at.head.length < HALF ? [...at.head, node.name] : at.head;
      const unresolved = at.unresolved ?? (node.resolvable === false ? node.name : undefined);
      for (const child of this.edges.get(key) ?? []) {
        if (reached.has(child) || !this.nodes.has(child)) continue;
        // One object shape for every node, no spread: 10–25% of the walk's CPU time on 30,000 nodes.
        reached.set(child, { parent: key, depth: at.depth + 1, head, unresolved });
        queue.push(child);
      }
    }
    return reached;
  }

  private reachable(roots: string[]): Set<string> {
    return new Set(this.walk(roots).keys());
  }

  private pathOf(at: Reached, reached: Map<string, Reached>): Pick<TreePlace, 'via' | 'viaElided' | 'viaUnresolved'> {
    const unresolved = at.unresolved ? { viaUnresolved: at.unresolved } : {};
    if (at.depth <= MAX_VIA_NAMES) {
      // Short enough to give whole: walk up to the root.
      const via: string[] = [];
      for (let p = at.parent; p !== null; p = reached.get(p)!.parent) via.push(this.nodes.get(p)!.name);
      return { via: via.reverse(), ...unresolved };
    }
    const tail: string[] = [];
    let p = at.parent;
    for (let n = 0; n < HALF && p !== null; n++, p = reached.get(p)!.parent) tail.push(this.nodes.get(p)!.name);
    return { via: [...at.head, ...tail.reverse()], viaElided: at.depth - MAX_VIA_NAMES, ...unresolved };
  }
}
