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
import type { HostedUpstream, PackageKind } from './registry.js';
import type { Sources, UpstreamOptions, UpstreamSource } from './source.js';

const SMALL_BODY = 8 * 1024 * 1024;

export function createSources(options: UpstreamOptions): Sources {
  const base = (url: string) => trimTrailing(url, '/');
  const client = (upstream: HostedUpstream, maxBodyBytes: number, minIntervalMs = 0) =>
    new HttpClient({
      minIntervalMs,
      upstream,
      base: base(options.urls[upstream]),
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
  const endoflife = new EndoflifeReader(client('endoflife', SMALL_BODY), base(options.urls.endoflife));
  // One client for GitHub's readers: its limits are per token, and one client keeps one hold.
  const githubClient = client('github', SMALL_BODY);
  // With a token, repositories are read in GraphQL batches (which answer only with one), REST for the rest.
  const github = createGithubSource(githubClient, base(options.urls.github), {
    graphql: Boolean(options.githubToken),
    ...(options.now ? { now: options.now } : {}),
  });
  const host = (upstream: HostedUpstream, maxBodyBytes: number, minIntervalMs = 0) => ({
    client: client(upstream, maxBodyBytes, minIntervalMs),
    base: base(options.urls[upstream]),
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
  return {
    ...packages,
    github,
    githubOwners: createOwnerRepositories(githubClient, base(options.urls.github)),
    docker: createDockerSource(client('dockerhub', SMALL_BODY), base(options.urls.dockerhub), endoflife),
    // The same listing client as the images': one product answer serves every release of it.
    distro: createDistroSource(endoflife),
    dependents: createDependentsSource(
      client('dependents', SMALL_BODY),
      base(options.urls.dependents),
      options.urls.dependentsRegistry,
    ),
  };
}
