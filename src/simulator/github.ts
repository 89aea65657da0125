/** The simulated GitHub REST API: repositories, their head commit, renames and GitHub's failures (research §1). */
import { createHash } from 'node:crypto';
import { commonFailure, isCommonFail, json, notFound, type Ctx, type HttpAnswer, type SimAnswer } from './answer.js';
import type { GithubPhase } from './scenario-phases.js';
import type { World } from './world.js';

const DOCS = 'https://docs.github.com/rest';

function blockBody(reason: 'dmca' | 'tos', createdAt: string): unknown {
  return {
    message: 'Repository access blocked',
    block: {
      reason,
      created_at: createdAt,
      html_url:
        reason === 'dmca'
          ? 'https://github.com/github/dmca/blob/master/2021/04/2021-04-22-example.md'
          : 'https://github.com/tos',
    },
  };
}

/** Failures that answer every GitHub route of the component the same way; null when the phase is healthy. */
function failure(p: GithubPhase, ctx: Ctx): SimAnswer | null {
  const fail = p.fail;
  if (!fail || fail === 'empty_repo') return null;
  if (isCommonFail(fail)) return commonFailure('github', fail, ctx, p.status);
  const at = `${p.from}T00:00:00Z`;
  switch (fail) {
    case 'dmca':
      return json(451, blockBody('dmca', at));
    case 'tos_block':
      return json(403, blockBody('tos', at));
    case 'forbidden':
      // Step 5 of the classifier: a 403 that is neither a rate limit nor a block.
      return json(403, {
        message: 'Due to U.S. trade controls law restrictions, this GitHub account has been restricted.',
        documentation_url: DOCS,
      });
    default:
      return null;
  }
}

/** A repository's creation, last push and head commit dates, as REST and GraphQL both answer them. */
export function repoDates(p: GithubPhase, world: World, key: string) {
  const created = p.created_at ?? `${world.firstDate(key)}T00:00:00Z`;
  // An empty repository's pushed_at is its creation, unless a branch was pushed and deleted since.
  const pushed = p.pushed_at === undefined ? created : p.pushed_at;
  const commit = p.fail === 'empty_repo' ? null : (p.last_commit ?? pushed);
  return { created, pushed, commit };
}

function repoBody(p: GithubPhase, ctx: Ctx, world: World, key: string, fullName: string): HttpAnswer {
  const id = world.githubId(key);
  const { created, pushed } = repoDates(p, world, key);
  const [owner = '', name = ''] = fullName.split('/');
  const updated =
    [created, pushed]
      .filter((d): d is string => typeof d === 'string')
      .sort()
      .at(-1) ?? created;
  const answer = json(200, {
    id,
    node_id: Buffer.from(`010:Repository${id}`).toString('base64'),
    name,
    full_name: fullName,
    owner: { login: owner, id: id % 100_000, type: 'Organization' },
    private: false,
    visibility: 'public',
    html_url: `https://github.com/${fullName}`,
    url: `${ctx.base}/repos/${fullName}`,
    fork: p.fork ?? false,
    archived: p.archived ?? false,
    disabled: p.disabled ?? false,
    default_branch: p.default_branch ?? 'main',
    created_at: created,
    updated_at: updated,
    pushed_at: pushed,
  });
  answer.lastModified = new Date(updated).toUTCString();
  return answer;
}

/** The head commit's id: the same for REST and GraphQL. */
export function headSha(key: string, commit: string): string {
  return createHash('sha1').update(`${key}@${commit}`).digest('hex');
}

function commitsBody(p: GithubPhase, world: World, key: string, base: string): HttpAnswer {
  const { commit } = repoDates(p, world, key);
  if (commit === null) {
    return json(409, {
      message: 'Git Repository is empty.',
      documentation_url: `${DOCS}/commits/commits#list-commits`,
    });
  }
  const sha = headSha(key, commit);
  return json(
    200,
    [
      {
        sha,
        commit: {
          author: { name: 'Mona', email: 'mona@example.com', date: commit },
          committer: { name: 'GitHub', email: 'noreply@github.com', date: commit },
          message: 'Simulated head commit',
        },
        parents: [{ sha: createHash('sha1').update(sha).digest('hex') }],
      },
    ],
    {
      link: `<${base}/repositories/${world.githubId(key)}/commits?per_page=1&page=2>; rel="next", <${base}/repositories/${world.githubId(key)}/commits?per_page=1&page=42>; rel="last"`,
    },
  );
}

/** Answers a component found under `fullName` (its own name, or the name it was renamed to). */
function answerFor(key: string, fullName: string, route: 'repo' | 'commits', ctx: Ctx, world: World): SimAnswer {
  const p = world.github(key, ctx);
  if (!p) return notFound('github', ctx);
  const failed = failure(p, ctx);
  if (failed) return failed;
  return route === 'repo' ? repoBody(p, ctx, world, key, fullName) : commitsBody(p, world, key, ctx.base);
}

/** `GET /users/{owner}/repos`: the owner's repositories existing today, most recently pushed first. */
function ownerRepositories(owner: string, ctx: Ctx, world: World): SimAnswer {
  const prefix = `github:${owner.toLowerCase()}/`;
  const repos = Object.keys(world.scenario.components)
    .filter((key) => key.startsWith(prefix))
    .map((key) => ({ key, p: world.github(key, ctx) }))
    .filter(({ p }) => p !== null && p.fail === undefined && p.renamed_to === undefined)
    .map(({ key, p }) => ({
      id: world.githubId(key),
      name: key.slice(prefix.length),
      full_name: key.slice('github:'.length),
      owner: { login: owner },
      fork: p!.fork ?? false,
      archived: p!.archived ?? false,
      pushed_at: p!.pushed_at ?? null,
    }))
    .sort((a, b) => Date.parse(b.pushed_at ?? '') - Date.parse(a.pushed_at ?? ''));
  // An owner with no repository in the scenario does not exist (or is not public).
  if (repos.length === 0) return notFound('github', ctx);
  return json(200, repos.slice(0, Number(ctx.query.get('per_page') ?? 30)));
}

export function answerGithub(ctx: Ctx, world: World): SimAnswer {
  const owner = /^\/users\/([^/]+)\/repos\/?$/.exec(ctx.path);
  if (owner) return ownerRepositories(decodeURIComponent(owner[1]!), ctx, world);
  const byName = /^\/repos\/([^/]+)\/([^/]+)(\/commits)?\/?$/.exec(ctx.path);
  if (byName) {
    const name = `${decodeURIComponent(byName[1]!)}/${decodeURIComponent(byName[2]!)}`;
    const route = byName[3] ? 'commits' : 'repo';
    const key = `github:${name.toLowerCase()}`;
    const p = world.github(key, ctx);
    if (p) {
      if (p.renamed_to && p.renamed_to.toLowerCase() !== name.toLowerCase() && !p.fail) {
        // GitHub's rename redirect points at the id, which then names the new repository.
        const url = `${ctx.base}/repositories/${world.githubId(key)}${route === 'commits' ? `/commits?${ctx.query.toString()}` : ''}`;
        return json(
          301,
          {
            message: 'Moved Permanently',
            url,
            documentation_url: `${DOCS}/guides/best-practices-for-using-the-rest-api#follow-redirects`,
          },
          { location: url },
          false,
        );
      }
      return answerFor(key, p.renamed_to ?? name, route, ctx, world);
    }
    // The new name of a renamed repository answers with the repository it now names.
    const from = world.githubRenamedFrom(name);
    const moved = from ? world.github(from, ctx) : null;
    if (from && moved?.renamed_to?.toLowerCase() === name.toLowerCase())
      return answerFor(from, moved.renamed_to, route, ctx, world);
    return notFound('github', ctx);
  }
  const byId = /^\/repositories\/(\d+)(\/commits)?\/?$/.exec(ctx.path);
  if (byId) {
    const key = world.githubById(Number(byId[1]));
    if (!key) return notFound('github', ctx);
    const p = world.github(key, ctx);
    return answerFor(key, p?.renamed_to ?? key.slice('github:'.length), byId[2] ? 'commits' : 'repo', ctx, world);
  }
  return notFound('github', ctx);
}

/**
 * GitHub's primary rate limit: every answer carries the x-ratelimit-* headers; with a scenario
 * limit, the hour's budget runs out and further requests get the primary-limit 403. A 304
 * counts against it unless the request was authorized (research §1.5).
 */
export class GithubBudget {
  private window = -1;
  private used = 0;

  constructor(private readonly limit: number | undefined) {}

  private roll(ctx: Ctx): void {
    const w = Math.floor(ctx.nowSec / 3600);
    if (w !== this.window) {
      this.window = w;
      this.used = 0;
    }
  }

  exhausted(ctx: Ctx): SimAnswer | null {
    this.roll(ctx);
    if (this.limit === undefined || this.used < this.limit) return null;
    const answer = commonFailure('github', 'rate_limit_403', { ...ctx, short: false });
    if (!('fault' in answer)) {
      answer.headers['x-ratelimit-limit'] = String(this.limit);
      answer.headers['x-ratelimit-used'] = String(this.used);
      answer.headers['x-ratelimit-reset'] = String((this.window + 1) * 3600);
    }
    return answer;
  }

  account(ctx: Ctx, answer: HttpAnswer): void {
    this.roll(ctx);
    if (!(answer.status === 304 && ctx.authorized)) this.used++;
    if (answer.headers['x-ratelimit-remaining'] !== undefined) return;
    const limit = this.limit ?? 5000;
    answer.headers['x-ratelimit-limit'] = String(limit);
    // Without a scenario limit the budget is never spent, so it never says so (a client would wait an hour).
    answer.headers['x-ratelimit-remaining'] = String(Math.max(this.limit === undefined ? 1 : 0, limit - this.used));
    answer.headers['x-ratelimit-used'] = String(this.used);
    answer.headers['x-ratelimit-reset'] = String((this.window + 1) * 3600);
    answer.headers['x-ratelimit-resource'] = 'core';
  }
}
