/** A scenario indexed for answering requests, with the phase in force at the moment it is served at (seen-at.ts). */
import { type Scenario } from './scenario.js';
import {
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
  type Phase,
  type PypiPhase,
} from './scenario-phases.js';
import { stableId } from './random.js';
import { eolSeenAt, phaseSeenAt, type Moment } from './seen-at.js';
import type { ComponentKind } from '../domain/component.js';
import type { FollowedRegistry } from '../upstreams/following/follower.js';
import type { GeneratedRegistry } from './registries/registry.js';

/** Phases for a package no scenario names (the generated registries, registries/registries.ts). */
export interface GeneratedPhases {
  phases(kind: ComponentKind, name: string, at: Moment): { from: string }[] | null;
  /** The generated registry of a kind, for answers about many of its packages at once (the dependents listing). */
  get?(registry: FollowedRegistry): GeneratedRegistry | undefined;
}

export class World {
  /** Repository id → component key, for /repositories/{id}. */
  private readonly githubIds = new Map<number, string>();
  /** Every name a repository is renamed to in some phase → component key. */
  private readonly githubRenames = new Map<string, string>();
  /** endoflife alias → canonical product name. */
  private readonly eolAliases = new Map<string, string>();

  constructor(
    readonly scenario: Scenario,
    private readonly generated: GeneratedPhases | null = null,
  ) {
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

  github(key: string, at: Moment): GithubPhase | null {
    return phaseSeenAt((this.scenario.components[key] ?? []) as GithubPhase[], at);
  }

  /** Any component's phase by its `kind:id` key (the dependents source counts every kind). */
  phase<P extends { from: string } = Phase>(key: string, at: Moment): P | null {
    return phaseSeenAt((this.scenario.components[key] ?? []) as unknown as P[], at);
  }

  githubById(id: number): string | null {
    return this.githubIds.get(id) ?? null;
  }

  githubRenamedFrom(fullName: string): string | null {
    return this.githubRenames.get(fullName.toLowerCase()) ?? null;
  }

  npm(name: string, at: Moment): NpmPhase | null {
    return phaseSeenAt(this.phasesOf('npm', name, at) as NpmPhase[], at);
  }

  pypi(name: string, at: Moment): PypiPhase | null {
    return phaseSeenAt(this.phasesOf('pypi', name, at) as PypiPhase[], at);
  }

  maven(id: string, at: Moment): MavenPhase | null {
    return phaseSeenAt((this.scenario.components[`maven:${id}`] ?? []) as MavenPhase[], at);
  }

  golang(module: string, at: Moment): GolangPhase | null {
    return phaseSeenAt(this.phasesOf('golang', module, at) as GolangPhase[], at);
  }

  nuget(id: string, at: Moment): NugetPhase | null {
    return phaseSeenAt(this.phasesOf('nuget', id, at) as NugetPhase[], at);
  }

  cargo(name: string, at: Moment): CargoPhase | null {
    return phaseSeenAt(this.phasesOf('cargo', name, at) as CargoPhase[], at);
  }

  composer(name: string, at: Moment): ComposerPhase | null {
    return phaseSeenAt(this.phasesOf('composer', name, at) as ComposerPhase[], at);
  }

  gem(name: string, at: Moment): GemPhase | null {
    return phaseSeenAt(this.phasesOf('gem', name, at) as GemPhase[], at);
  }

  docker(id: string, at: Moment): DockerPhase | null {
    return phaseSeenAt((this.scenario.components[`docker:${id}`] ?? []) as DockerPhase[], at);
  }

  /** The generated registry of `kind`, or null when none is generated (or the kind is no registry). */
  generatedRegistry(kind: ComponentKind): GeneratedRegistry | null {
    return this.generated?.get?.(kind as FollowedRegistry) ?? null;
  }

  /** The scenario's phases for a package, else a generated registry's. */
  private phasesOf(kind: ComponentKind, name: string, at: Moment): { from: string }[] {
    return this.scenario.components[`${kind}:${name}`] ?? this.generated?.phases(kind, name, at) ?? [];
  }

  /** The canonical product name for a name or alias, or null when the listing has neither. */
  eolName(name: string): string | null {
    const n = name.toLowerCase();
    if (this.scenario.endoflife?.[n]) return n;
    return this.eolAliases.get(n) ?? null;
  }

  eol(name: string, at: Moment): { product: EolProduct; phase: EolPhase | null } | null {
    const product = this.scenario.endoflife?.[name];
    return product ? { product, phase: eolSeenAt(product, at) } : null;
  }
}
