/** Builds every reader over one HTTP client per upstream: each upstream has its own limits. */
import { trimTrailing } from '../domain/text.js';
import { createDependentsSource } from './dependents/read.js';
import { createDistroSource } from './distro/read.js';
import { createDockerSource } from './docker/read.js';
import { EndoflifeReader } from './endoflife/read.js';
import { createOwnerRepositories } from './github/owner-repositories.js';
import { createGithubSource } from './github/read.js';
import { createCargoSource } from './cargo/read.js';
import { createComposerSource } from './composer/read.js';
import { createNugetSource } from './nuget/read.js';
import { createGemSource } from './gem/read.js';
import { createGolangSource } from './golang/read.js';
import { createMavenSource } from './maven/read.js';
import { HttpClient } from './http/client.js';
import { createNpmSource } from './npm/read.js';
import { createPypiSource } from './pypi/read.js';
import type { Sources, UpstreamOptions } from './source.js';

const MiB = 1024 * 1024;
/** Full packuments and PyPI project documents of big projects run to tens of megabytes. */
const LARGE_BODY = 96 * MiB;
const SMALL_BODY = 8 * MiB;
export const CRATES_API_INTERVAL_MS = 1_000;

export function createSources(options: UpstreamOptions): Sources {
  const base = (url: string) => trimTrailing(url, '/');
  const client = (
    upstream: keyof Omit<UpstreamOptions['urls'], 'dependentsRegistry'>,
    maxBodyBytes: number,
    minIntervalMs = 0,
  ) =>
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
  return {
    github,
    githubOwners: createOwnerRepositories(githubClient, base(options.urls.github)),
    npm: createNpmSource(client('npm', LARGE_BODY), base(options.urls.npm)),
    pypi: createPypiSource(client('pypi', LARGE_BODY), base(options.urls.pypi)),
    docker: createDockerSource(client('dockerhub', SMALL_BODY), base(options.urls.dockerhub), endoflife),
    maven: createMavenSource(client('maven', SMALL_BODY), base(options.urls.maven)),
    // One GitHub reader for both: GitHub's limits are per token, and one client keeps one hold.
    golang: createGolangSource(client('goproxy', SMALL_BODY), base(options.urls.goproxy), github),
    gem: createGemSource(client('rubygems', SMALL_BODY), base(options.urls.rubygems)),
    cargo: createCargoSource(
      { client: client('cratesIndex', SMALL_BODY), base: base(options.urls.cratesIndex) },
      // crates.io's data-access policy: at most one API request a second (the index has no limit).
      { client: client('crates', SMALL_BODY, CRATES_API_INTERVAL_MS), base: base(options.urls.crates) },
      { client: client('osv', SMALL_BODY), base: base(options.urls.osv) },
    ),
    nuget: createNugetSource(client('nuget', LARGE_BODY), base(options.urls.nuget)),
    composer: createComposerSource(client('packagist', LARGE_BODY), base(options.urls.packagist)),
    // The same listing client as the images': one product answer serves every release of it.
    distro: createDistroSource(endoflife),
    dependents: createDependentsSource(
      client('dependents', SMALL_BODY),
      base(options.urls.dependents),
      options.urls.dependentsRegistry,
    ),
  };
}
