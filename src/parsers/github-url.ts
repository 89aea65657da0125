/** A GitHub repository named by a git URL (https, ssh or scp-like), as Cargo.toml and Gemfile sources write them. */
const GITHUB_REPOSITORY_URL = /^(?:https?:\/\/|ssh:\/\/git@|git@)github\.com[/:]([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/i;

/** `owner/repo` for a github.com git URL, or null for any other host. */
export function githubRepositoryPath(url: string): string | null {
  const m = GITHUB_REPOSITORY_URL.exec(url.trim());
  return m ? `${m[1]}/${m[2]}` : null;
}
