/**
 * An SBOM's own graph, turned into each reference's place (DESIGN §8d). CycloneDX and SPDX both
 * name packages by an identifier (bom-ref, SPDXID) and say who depends on whom between them;
 * this collects the packages as the parser meets them and the edges as it reads them, and hands
 * the reckoning to DependencyGraph, so both formats answer scope and paths by the same rule.
 */
import { DependencyGraph } from './dependency-graph.js';
import type { ComponentReference, TreePlace } from './reference.js';
import type { Accounting } from './purl-entry.js';

interface Placed {
  reference: ComponentReference;
  key: string | undefined;
  version: string | undefined;
}

/** A version as the SBOM writes it, when it says one (SPDX writes NOASSERTION for none). */
export function sbomVersion(x: unknown): string | undefined {
  if (typeof x !== 'string') return undefined;
  const v = x.trim();
  return v === '' || v === 'NOASSERTION' || v === 'NONE' ? undefined : v.slice(0, 200);
}

/**
 * The version a purl names (`pkg:cargo/x@0.48.0` → `0.48.0`), for an entry that gives no version of
 * its own (cargo-sbom's SPDX writes none but the purl's). In a purl `@` is written encoded
 * everywhere but before the version, so the last one before the qualifiers starts it.
 */
export function purlVersion(purl: string): string | undefined {
  const end = purl.search(/[?#]/);
  const head = end === -1 ? purl : purl.slice(0, end);
  const at = head.lastIndexOf('@');
  if (at === -1 || head.indexOf('/', at) !== -1) return undefined;
  try {
    return sbomVersion(decodeURIComponent(head.slice(at + 1)));
  } catch {
    return undefined;
  }
}

export class SbomTree {
  private readonly graph = new DependencyGraph();
  private readonly placed: Placed[] = [];
  private readonly subjects = new Set<string>();
  private directs = 0;

  /**
   * One package entry, just accounted in `acc` (`before` is the reference count before it): when
   * it became a reference, that reference gets a place. An entry with no usable purl is still a
   * node, so a path through it is kept and says so (viaUnresolved).
   */
  package(acc: Accounting, before: number, key: string | undefined, name: string, version: string | undefined): void {
    const reference = acc.references.length > before ? acc.references[acc.references.length - 1] : undefined;
    if (key !== undefined)
      this.graph.addNode({
        key,
        name,
        ...(version !== undefined ? { version } : {}),
        resolvable: reference !== undefined,
      });
    if (reference) this.placed.push({ reference, key, version: version ?? purlVersion(reference.input) });
  }

  /**
   * What the SBOM describes (the project): its dependencies are the direct ones, and it is not one
   * of its own dependencies, so it gets a version but no scope and stands in no path.
   */
  subject(key: string): void {
    this.subjects.add(key);
  }

  isSubject(key: string): boolean {
    return this.subjects.has(key);
  }

  /** `from` depends on `to`. Edges from or to the subject are the direct set's business, not the graph's. */
  edge(from: string, to: string): void {
    if (this.subjects.has(from) || this.subjects.has(to)) return;
    this.graph.addEdge(from, to);
  }

  direct(key: string, how: { dev?: boolean; optional?: boolean } = {}): void {
    if (this.subjects.has(key)) return;
    this.directs += 1;
    this.graph.addDirect({ key, ...how });
  }

  /**
   * Puts a place on every reference. With `graph` false (the SBOM has no dependency graph at all)
   * only the version is given: nothing says what is direct. A reference with no identifier cannot
   * be in the graph; when the graph names direct dependencies it is `transitive` with no path,
   * like any package the graph lists but no direct dependency reaches (DependencyGraph's rule).
   */
  placeAll(graph: boolean): void {
    const places = graph ? this.graph.places() : new Map<string, TreePlace>();
    const unplaced: TreePlace = graph && this.directs > 0 ? { scope: 'transitive' } : {};
    for (const { reference, key, version } of this.placed) {
      const found = key !== undefined && !this.subjects.has(key) ? places.get(key) : undefined;
      const place: TreePlace = { ...(found ?? (key !== undefined && this.subjects.has(key) ? {} : unplaced)) };
      // A duplicate identifier shares the first entry's node; each reference keeps its own version.
      delete place.resolvedVersion;
      if (version !== undefined) reference.tree = { resolvedVersion: version, ...place };
      else if (Object.keys(place).length > 0) reference.tree = place;
    }
  }
}
