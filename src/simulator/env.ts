import type { UpstreamUrls } from '../upstreams/source.js';

/** The configuration variables (DESIGN §7) that point Tended at a set of upstream base URLs. */
export function upstreamEnv(urls: UpstreamUrls & { osvExport?: string }): Record<string, string> {
  return {
    TENDED_GITHUB_API_URL: urls.github,
    TENDED_NPM_REGISTRY_URL: urls.npm,
    TENDED_PYPI_URL: urls.pypi,
    TENDED_EOL_API_URL: urls.endoflife,
    TENDED_DOCKERHUB_API_URL: urls.dockerhub,
    TENDED_DEPENDENTS_URL: urls.dependents,
    TENDED_MAVEN_URL: urls.maven,
    TENDED_GOPROXY_URL: urls.goproxy,
    TENDED_RUBYGEMS_URL: urls.rubygems,
    TENDED_PACKAGIST_URL: urls.packagist,
    TENDED_CRATES_URL: urls.crates,
    TENDED_CRATES_INDEX_URL: urls.cratesIndex,
    TENDED_NUGET_URL: urls.nuget,
    TENDED_OSV_URL: urls.osv,
    // OSV's export, which the crates.io follower reads: a simulator's never leaves it at the real bucket.
    ...(urls.osvExport ? { TENDED_OSV_EXPORT_URL: urls.osvExport } : {}),
  };
}
