/**
 * The generated registries the simulator serves next to its scenario: each registry's feed and
 * listing under its real host's prefix, and each generated package's own document through the
 * scenario's handlers (phases.ts), so what a follower hears and what a reader reads agree.
 */
import type { ComponentKind } from '../../domain/component.js';
import type { FollowedRegistry } from '../../upstreams/following/follower.js';
import type { Ctx, SimAnswer } from '../answer.js';
import type { Moment } from '../seen-at.js';
import { answerCratesStatic } from './crates-feed.js';
import type { FeedFaults } from './faults.js';
import type { FeedRequest } from './feed-request.js';
import { answerGoIndex } from './go-feed.js';
import { answerNpmReplicate } from './npm-feed.js';
import { answerNugetCatalog } from './nuget-feed.js';
import { answerPackagistOrg } from './packagist-feed.js';
import { generatedPhase } from './phases.js';
import { answerPypiFeed } from './pypi-feed.js';
import { GeneratedRegistry } from './registry.js';
import { answerRubygemsVersions } from './rubygems-feed.js';

/**
 * The path prefix each registry's feed is served under, and its handler: a host of its own where
 * the registry has one (replicate.npmjs.com, static.crates.io, index.golang.org, packagist.org),
 * else the prefix its per-package documents already use (pypi.org, api.nuget.org, rubygems.org).
 */
export const FEED_ROUTES: Record<FollowedRegistry, { prefix: string; answer: (f: FeedRequest) => SimAnswer | null }> = {
  npm: { prefix: 'replicate', answer: answerNpmReplicate },
  pypi: { prefix: 'pypi', answer: answerPypiFeed },
  cargo: { prefix: 'cratesstatic', answer: answerCratesStatic },
  golang: { prefix: 'goindex', answer: answerGoIndex },
  nuget: { prefix: 'nuget', answer: answerNugetCatalog },
  gem: { prefix: 'rubygems', answer: answerRubygemsVersions },
  composer: { prefix: 'packagistorg', answer: answerPackagistOrg },
};

/** Prefixes only the feeds use (the others are the scenario's upstreams too). */
export const FEED_ONLY_PREFIXES = ['replicate', 'cratesstatic', 'goindex', 'packagistorg'] as const;

export interface GeneratedRegistriesOptions {
  seed: number;
  /** × the real sizes (sizes.ts), for every registry or per registry. */
  scale: number | Partial<Record<FollowedRegistry, number>>;
  /** The instant the registries stand at their initial size (default 2026-01-01). */
  start?: string;
  /** Which registries to generate (default all seven). */
  registries?: FollowedRegistry[];
  faults?: FeedFaults;
}

export class GeneratedRegistries {
  private readonly byRegistry = new Map<FollowedRegistry, GeneratedRegistry>();
  faults: FeedFaults;

  constructor(options: GeneratedRegistriesOptions) {
    const start = options.start ?? '2026-01-01T00:00:00Z';
    for (const registry of options.registries ?? (Object.keys(FEED_ROUTES) as FollowedRegistry[])) {
      const scale = typeof options.scale === 'number' ? options.scale : options.scale[registry];
      if (scale === undefined) continue;
      this.byRegistry.set(registry, new GeneratedRegistry({ registry, seed: options.seed, scale, start }));
    }
    this.faults = options.faults ?? {};
  }

  get(registry: FollowedRegistry): GeneratedRegistry | undefined {
    return this.byRegistry.get(registry);
  }

  /** A generated package's phase, for World: null when the name is none of a generated registry's. */
  phases(kind: ComponentKind, name: string, at: Moment): { from: string }[] | null {
    const reg = this.byRegistry.get(kind as FollowedRegistry);
    if (!reg) return null;
    const index = reg.indexOf(name);
    const nowMs = at.nowSec * 1000;
    if (index === null || index >= reg.packagesBy(nowMs)) return null;
    const facts = reg.facts(index, nowMs);
    const phase = facts ? generatedPhase(kind, facts) : null;
    return phase ? [phase] : null;
  }

  /** The answer of a feed route under `prefix`, or null when no generated feed serves that path. */
  answer(prefix: string, request: Omit<FeedRequest, 'registry' | 'faults'> & { ctx: Ctx }): SimAnswer | null {
    for (const [registry, route] of Object.entries(FEED_ROUTES) as [
      FollowedRegistry,
      (typeof FEED_ROUTES)[FollowedRegistry],
    ][]) {
      const reg = this.byRegistry.get(registry);
      if (route.prefix !== prefix || !reg) continue;
      const answer = route.answer({ ...request, registry: reg, faults: this.faults });
      if (answer) return answer;
    }
    return null;
  }
}
