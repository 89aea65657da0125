/** Builds every reader over one HTTP client per upstream: each upstream has its own limits. */
import { trimTrailing } from '../domain/text.js';
import { createDependentsSource } from './dependents/read.js';
import { createDistroSource } from './distro/read.js';
import { createDockerSource } from './docker/read.js';
import { EndoflifeReader } from './endoflife/read.js';
import { createOwnerRepositories } from './github/owner-repositories.js';
import { createGithubSource } from './github/read.js';
import { HttpClient } from './http/client.js';
import { PACKAGE_REGISTRIES } from './registries.js';
import { SMALL_BODY, type HostedUpstream, type PackageKind } from './registry.js';
import type { Sources, UpstreamOptions, UpstreamSource } from './source.js';

export function createSources(options: UpstreamOptions): Sources {
  const base = (url: string) => trimTrailing(url, '/');
  // One host of an upstream: its client (its own limits and budget) and its base URL.
  const host = (upstream: HostedUpstream, maxBodyBytes: number, minIntervalMs = 0) => {
    const at = base(options.urls[upstream]);
    const client = new HttpClient({
      minIntervalMs,
      upstream,
      base: at,
      userAgent: options.userAgent,
      timeoutMs: options.timeoutMs,
      concurrency: options.concurrency,
      cache: options.cache,
      // GitHub only: no other upstream is ever sent the token.
      bearerToken: upstream === 'github' ? options.githubToken : null,
      maxBodyBytes,
      ...(options.now ? { now: options.now } : {}),
      ...(options.watcher ? { watcher: options.watcher } : {}),
      // Each reader's client spends its host's budget; the names are the budgets' own.
      ...(options.budgets ? { budget: options.budgets.of(upstream) } : {}),
    });
    return { client, base: at };
  };
  const eol = host('endoflife', SMALL_BODY);
  const endoflife = new EndoflifeReader(eol.client, eol.base);
  // One client for GitHub's readers: its limits are per token, and one client keeps one hold.
  const gh = host('github', SMALL_BODY);
  // With a token, repositories are read in GraphQL batches (which answer only with one), REST for the rest.
  const github = createGithubSource(gh.client, gh.base, {
    graphql: Boolean(options.githubToken),
    ...(options.now ? { now: options.now } : {}),
  });
  // Each registry's folder builds its reader (registries.ts); Go's follows modules to GitHub
  // through the same GitHub reader as the repositories', whose limits are per token.
  const packages = Object.fromEntries(
    Object.values(PACKAGE_REGISTRIES).map((r) => {
      const own = (upstream: HostedUpstream, maxBodyBytes: number, minIntervalMs?: number) => {
        if (!r.readerHosts.includes(upstream))
          throw new Error(`${r.kind}'s reader asked for ${upstream}, not among its readerHosts`);
        return host(upstream, maxBodyBytes, minIntervalMs);
      };
      return [r.kind, r.reader({ host: own, github })];
    }),
  ) as Record<PackageKind, UpstreamSource>;
  const hub = host('dockerhub', SMALL_BODY);
  const dependents = host('dependents', SMALL_BODY);
  return {
    ...packages,
    github,
    githubOwners: createOwnerRepositories(gh.client, gh.base),
    docker: createDockerSource(hub.client, hub.base, endoflife),
    // The same listing client as the images': one product answer serves every release of it.
    distro: createDistroSource(endoflife),
    dependents: createDependentsSource(dependents.client, dependents.base, options.urls.dependentsRegistry),
  };
}
