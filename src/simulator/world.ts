/** A scenario indexed for answering requests, with the phase in force on a date. */
import {
  phaseAt,
  type DockerPhase,
  type EolPhase,
  type EolProduct,
  type GithubPhase,
  type CargoPhase,
  type NugetPhase,
  type ComposerPhase,
  type GemPhase,
  type GolangPhase,
  type MavenPhase,
  type NpmPhase,
  type PypiPhase,
  type Scenario,
} from './scenario.js';
import { stableId } from './random.js';

export class World {
  /** Repository id → component key, for /repositories/{id}. */
  private readonly githubIds = new Map<number, string>();
  /** Every name a repository is renamed to in some phase → component key. */
  private readonly githubRenames = new Map<string, string>();
  /** endoflife alias → canonical product name. */
  private readonly eolAliases = new Map<string, string>();

  constructor(readonly scenario: Scenario) {
    for (const [key, phases] of Object.entries(scenario.components)) {
      if (!key.startsWith('github:')) continue;
      this.githubIds.set(this.githubId(key), key);
      for (const p of phases as GithubPhase[])
        if (p.renamed_to) this.githubRenames.set(p.renamed_to.toLowerCase(), key);
    }
    for (const [name, product] of Object.entries(scenario.endoflife ?? {})) {
      for (const alias of product.aliases ?? []) this.eolAliases.set(alias.toLowerCase(), name);
    }
  }

  /** The repository's id: the first phase's `id`, or one derived from its key. */
  githubId(key: string): number {
    const first = (this.scenario.components[key]?.[0] ?? {}) as GithubPhase;
    return first.id ?? stableId(key);
  }

  /** When the component first appears: the default for dates a phase leaves out. */
  firstDate(key: string): string {
    return this.scenario.components[key]?.[0]?.from ?? '2015-01-01';
  }

  github(key: string, today: string): GithubPhase | null {
    return phaseAt((this.scenario.components[key] ?? []) as GithubPhase[], today);
  }

  githubById(id: number): string | null {
    return this.githubIds.get(id) ?? null;
  }

  githubRenamedFrom(fullName: string): string | null {
    return this.githubRenames.get(fullName.toLowerCase()) ?? null;
  }

  npm(name: string, today: string): NpmPhase | null {
    return phaseAt((this.scenario.components[`npm:${name}`] ?? []) as NpmPhase[], today);
  }

  pypi(name: string, today: string): PypiPhase | null {
    return phaseAt((this.scenario.components[`pypi:${name}`] ?? []) as PypiPhase[], today);
  }

  maven(id: string, today: string): MavenPhase | null {
    return phaseAt((this.scenario.components[`maven:${id}`] ?? []) as MavenPhase[], today);
  }

  golang(module: string, today: string): GolangPhase | null {
    return phaseAt((this.scenario.components[`golang:${module}`] ?? []) as GolangPhase[], today);
  }

  nuget(id: string, today: string): NugetPhase | null {
    return phaseAt((this.scenario.components[`nuget:${id}`] ?? []) as NugetPhase[], today);
  }

  cargo(name: string, today: string): CargoPhase | null {
    return phaseAt((this.scenario.components[`cargo:${name}`] ?? []) as CargoPhase[], today);
  }

  composer(name: string, today: string): ComposerPhase | null {
    return phaseAt((this.scenario.components[`composer:${name}`] ?? []) as ComposerPhase[], today);
  }

  gem(name: string, today: string): GemPhase | null {
    return phaseAt((this.scenario.components[`gem:${name}`] ?? []) as GemPhase[], today);
  }

  docker(id: string, today: string): DockerPhase | null {
    return phaseAt((this.scenario.components[`docker:${id}`] ?? []) as DockerPhase[], today);
  }

  /** The canonical product name for a name or alias, or null when the listing has neither. */
  eolName(name: string): string | null {
    const n = name.toLowerCase();
    if (this.scenario.endoflife?.[n]) return n;
    return this.eolAliases.get(n) ?? null;
  }

  eol(name: string, today: string): { product: EolProduct; phase: EolPhase | null } | null {
    const product = this.scenario.endoflife?.[name];
    return product ? { product, phase: phaseAt(product.phases, today) } : null;
  }
}
