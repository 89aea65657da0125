/**
 * A generated package as the scenario phase its registry's existing handler serves (npm.ts,
 * pypi.ts, crates.ts, goproxy.ts, nuget.ts, rubygems.ts, packagist.ts), so the real readers of
 * src/upstreams/ read a followed package from the same seed the feed was drawn from: its latest
 * publication, its deprecation and its deletion agree with what the feed said.
 */
import type { ComponentKind } from '../../domain/component.js';
import type {
  CargoPhase,
  ComposerPhase,
  GemPhase,
  GolangPhase,
  NpmPhase,
  NugetPhase,
  Phase,
  PypiPhase,
} from '../scenario-phases.js';
import { isoAt } from './feed-request.js';
import type { PackageFacts } from './registry.js';

/** Before any simulated date: the generated package's phase holds from the start of time. */
const ALWAYS = '1970-01-01';
export const DEPRECATION_MESSAGE = 'no longer maintained (simulated)';

function versionMap(facts: PackageFacts, prefix = ''): Record<string, string> {
  return Object.fromEntries(facts.versions.map((v) => [`${prefix}${v.version}`, isoAt(v.at)]));
}

function deletedOn(facts: PackageFacts): string {
  return isoAt(facts.deletedAt!).slice(0, 10);
}

/** Whether a retired generated PyPI project yanks every file rather than set its PEP 792 status. */
export function pypiRetiresByYanking(facts: PackageFacts): boolean {
  return facts.index % 2 === 1;
}

/** The one phase a generated package is served from at the moment its facts were read. */
export function generatedPhase(kind: ComponentKind, facts: PackageFacts): Phase | NugetPhase | null {
  const deleted = facts.deletedAt !== null;
  const deprecated = facts.deprecatedAt !== null;
  switch (kind) {
    case 'npm': {
      const p: NpmPhase = { from: ALWAYS, versions: versionMap(facts) };
      // An npm deletion is an unpublish: the registry still answers 200, with time.unpublished.
      if (deleted) return { ...p, from: deletedOn(facts), fail: 'unpublished' };
      return deprecated ? { ...p, deprecated: DEPRECATION_MESSAGE } : p;
    }
    case 'pypi': {
      if (deleted) return { from: deletedOn(facts), fail: 'not_found' } satisfies PypiPhase;
      const p: PypiPhase = { from: ALWAYS, releases: versionMap(facts) };
      if (!deprecated) return p;
      // Half the retired projects say so with PEP 792's status, the other half yank every file: a
      // maintainer's declaration as well, answered 200 (never a 404), which the reader keeps archived.
      return pypiRetiresByYanking(facts) ? { ...p, fail: 'all_yanked' } : { ...p, project_status: 'archived' };
    }
    case 'cargo': {
      if (deleted) return { from: deletedOn(facts), fail: 'not_found' } satisfies CargoPhase;
      const p: CargoPhase = { from: ALWAYS, versions: versionMap(facts) };
      // crates.io has no deprecation: a retired crate yanks every version.
      return deprecated ? { ...p, yanked: facts.versions.map((v) => v.version) } : p;
    }
    case 'golang': {
      // The proxy never forgets a module (DESIGN §3): a Go package is never deleted.
      const p: GolangPhase = { from: ALWAYS, versions: versionMap(facts, 'v') };
      return deprecated ? { ...p, deprecated: DEPRECATION_MESSAGE } : p;
    }
    case 'nuget': {
      if (deleted) return { from: deletedOn(facts), fail: 'not_found' } satisfies NugetPhase;
      const p: NugetPhase = { from: ALWAYS, versions: versionMap(facts) };
      return deprecated ? { ...p, deprecation: ['Legacy'] } : p;
    }
    case 'gem': {
      // A deleted gem is one whose every version was yanked.
      if (deleted)
        return { from: deletedOn(facts), fail: 'all_yanked', versions: versionMap(facts) } satisfies GemPhase;
      return { from: ALWAYS, versions: versionMap(facts) } satisfies GemPhase;
    }
    case 'composer': {
      if (deleted) return { from: deletedOn(facts), fail: 'not_found' } satisfies ComposerPhase;
      const p: ComposerPhase = { from: ALWAYS, versions: versionMap(facts) };
      return deprecated ? { ...p, abandoned: true } : p;
    }
    default:
      return null;
  }
}
