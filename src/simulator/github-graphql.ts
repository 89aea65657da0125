/**
 * GitHub's GraphQL endpoint (`POST /github/graphql`), answered from the same world as the REST
 * routes so both say the same about every repository (research registry-feeds §GitHub; GitHub's
 * "Rate limits and query limits for the GraphQL API"):
 * - aliased `repository(owner:, name:, followRenames:)` fields, each projected on the selection
 *   asked, and `rateLimit { cost limit remaining used resetAt nodeCount }`;
 * - a query is validated first (an unknown field is an `undefinedField` error and no data), then
 *   costs max(1, ⌈repositories ÷ 100⌉) points against an hourly budget (the primary limit: over it,
 *   a 200 with a `RATE_LIMITED` error and `x-ratelimit-remaining: 0`) and a per-minute one (the
 *   secondary limit: a 403 with `retry-after`);
 * - a repository it cannot resolve is `data.rX: null` with a `NOT_FOUND` error naming it; a
 *   renamed one resolves to its new name unless `followRenames: false`; one whose REST route
 *   fails (a 5xx, a hang…) is a partial error, so a reader meets that failure on REST as well;
 * - the scenario's `github_graphql.fail` fails whole queries (5xx, hang, reset, a truncated body,
 *   the secondary limit as a 403 or as a 200, bad credentials).
 */
import { commonFailure, isCommonFail, json, type Ctx, type SimAnswer } from './answer.js';
import { headSha, repoDates } from './github.js';
import {
  GraphqlSyntaxError,
  parseQuery,
  type FieldSelection,
  type ParsedQuery,
  type Selection,
} from './graphql-query.js';
import type { GithubGraphqlScenario, GithubPhase } from './scenario-phases.js';
import type { World } from './world.js';

const DOCS = 'https://docs.github.com/graphql';
export const SECONDARY_LIMIT_MESSAGE =
  'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID.';
const SOMETHING_WENT_WRONG =
  'Something went wrong while executing your query. This may be the result of a timeout, or it could be a GitHub bug. Please include `C0DE:5EED:1A2B3C:4D5E6F:00000000` when reporting this issue.';

/** The types a query may ask for, and each field's type (null: a scalar). Enough of GitHub's schema for repository reads. */
const SCHEMA: Record<string, Record<string, string | null>> = {
  Query: { repository: 'Repository', rateLimit: 'RateLimit' },
  RateLimit: { cost: null, limit: null, remaining: null, used: null, resetAt: null, nodeCount: null },
  Repository: {
    id: null,
    databaseId: null,
    name: null,
    nameWithOwner: null,
    url: null,
    owner: 'RepositoryOwner',
    isArchived: null,
    isDisabled: null,
    isFork: null,
    isEmpty: null,
    isPrivate: null,
    createdAt: null,
    updatedAt: null,
    pushedAt: null,
    defaultBranchRef: 'Ref',
  },
  RepositoryOwner: { login: null },
  Ref: { name: null, prefix: null, target: 'GitObject' },
  GitObject: { oid: null },
  Commit: { oid: null, committedDate: null, authoredDate: null, message: null },
};
/** Types an inline fragment or spread may narrow an interface to. */
const IMPLEMENTS: Record<string, string[]> = { GitObject: ['Commit'], RepositoryOwner: ['Organization', 'User'] };

type Node = { __typename: string; [field: string]: unknown };
interface GraphqlError {
  message: string;
  type?: string;
  path?: (string | number)[];
  locations?: { line: number; column: number }[];
  extensions?: Record<string, string>;
}

/** The GraphQL endpoint's state: points spent this hour and this minute, and failures served. */
export class GithubGraphql {
  private hour = -1;
  private usedHour = 0;
  private minute = -1;
  private usedMinute = 0;
  private failed = 0;
  /** Queries answered with data, and points spent: what a test or a benchmark reads back. */
  queries = 0;
  points = 0;

  constructor(private readonly settings: GithubGraphqlScenario = {}) {}

  private get hourLimit(): number {
    return this.settings.points_per_hour ?? 5000;
  }

  answer(ctx: Ctx, world: World, body: string): SimAnswer {
    let request: { query?: unknown; variables?: unknown };
    try {
      request = JSON.parse(body) as { query?: unknown; variables?: unknown };
    } catch {
      return json(400, {
        message: 'Problems parsing JSON',
        documentation_url: `${DOCS}/guides/forming-calls-with-graphql`,
      });
    }
    if (!ctx.authorized)
      return json(401, {
        message: 'This endpoint requires you to be authenticated.',
        documentation_url: `${DOCS}/guides/forming-calls-with-graphql#authenticating-with-graphql`,
      });
    const failure = this.failure(ctx);
    if (failure) return failure;
    if (typeof request?.query !== 'string')
      return this.errors(ctx, [{ message: 'A query attribute must be specified and must be a string.' }]);
    const variables =
      typeof request.variables === 'object' && request.variables !== null
        ? (request.variables as Record<string, unknown>)
        : {};
    let query: ParsedQuery;
    try {
      query = parseQuery(request.query, variables);
    } catch (error) {
      if (!(error instanceof GraphqlSyntaxError)) throw error;
      return this.errors(ctx, [{ message: error.message, locations: [{ line: error.line, column: error.column }] }]);
    }
    const invalid = validate(query, query.selections, 'Query', ['query']);
    if (invalid.length > 0) return this.errors(ctx, invalid);
    const top = query.selections as FieldSelection[];
    const repositories = top.filter((f) => f.name === 'repository').length;
    const cost = Math.max(1, Math.ceil(repositories / 100));
    this.roll(ctx);
    // The secondary limit refuses the query outright; the primary one answers 200 with an error.
    if (this.usedMinute + cost > (this.settings.points_per_minute ?? 2000))
      return json(
        403,
        {
          message: SECONDARY_LIMIT_MESSAGE,
          documentation_url: `${DOCS}/overview/rate-limits-and-query-limits-for-the-graphql-api#secondary-rate-limits`,
        },
        { 'retry-after': '60' },
        false,
      );
    if (this.usedHour + cost > this.hourLimit)
      return this.errors(ctx, [{ type: 'RATE_LIMITED', message: 'API rate limit already exceeded for user ID 1.' }]);
    this.usedHour += cost;
    this.usedMinute += cost;
    this.queries++;
    this.points += cost;

    const data: Record<string, unknown> = {};
    const errors: GraphqlError[] = [];
    for (const field of top) {
      const key = field.alias ?? field.name;
      if (field.name === 'rateLimit') {
        const rate: Node = {
          __typename: 'RateLimit',
          cost,
          limit: this.hourLimit,
          remaining: this.hourLimit - this.usedHour,
          used: this.usedHour,
          resetAt: this.resetAt(),
          nodeCount: repositories,
        };
        data[key] = project(rate, field.selections, query);
        continue;
      }
      const owner = String(field.args['owner'] ?? '');
      const name = String(field.args['name'] ?? '');
      const resolved = repository(owner, name, field.args['followRenames'] !== false, ctx, world);
      const at = { path: [key], locations: [{ line: field.line, column: field.column }] };
      if ('error' in resolved) {
        data[key] = null;
        errors.push({ ...resolved.error, ...at });
      } else data[key] = project(resolved.node, field.selections, query);
    }
    return json(200, errors.length > 0 ? { data, errors } : { data }, this.headers(ctx), false);
  }

  private roll(ctx: Ctx): void {
    const hour = Math.floor(ctx.nowSec / 3600);
    if (hour !== this.hour) [this.hour, this.usedHour] = [hour, 0];
    const minute = Math.floor(ctx.nowSec / 60);
    if (minute !== this.minute) [this.minute, this.usedMinute] = [minute, 0];
  }

  private resetAt(): string {
    return new Date((this.hour + 1) * 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }

  private headers(ctx: Ctx): Record<string, string> {
    this.roll(ctx);
    return {
      'x-ratelimit-limit': String(this.hourLimit),
      'x-ratelimit-remaining': String(Math.max(0, this.hourLimit - this.usedHour)),
      'x-ratelimit-used': String(this.usedHour),
      'x-ratelimit-reset': String((this.hour + 1) * 3600),
      'x-ratelimit-resource': 'graphql',
    };
  }

  /** A query GitHub refuses as a whole: 200, errors and no data. */
  private errors(ctx: Ctx, errors: GraphqlError[]): SimAnswer {
    return json(200, { errors }, this.headers(ctx), false);
  }

  private failure(ctx: Ctx): SimAnswer | null {
    const fail = this.settings.fail;
    if (!fail || (this.settings.fail_count !== undefined && this.failed >= this.settings.fail_count)) return null;
    this.failed++;
    switch (fail) {
      case 'server_error':
        return json(this.settings.status ?? 502, {
          message:
            "We couldn't respond to your request in time. Sorry about that. Please try resubmitting your request and contact us if the problem persists.",
        });
      case 'secondary_rate_limit':
        return commonFailure('github', 'secondary_rate_limit', ctx);
      case 'secondary_rate_limit_200':
        return json(200, { errors: [{ message: SECONDARY_LIMIT_MESSAGE }] }, {}, false);
      default:
        return commonFailure('github', fail, ctx);
    }
  }
}

/** The repository a `repository(owner:, name:)` field names today, as REST would find it, or the error GitHub gives. */
function repository(
  owner: string,
  name: string,
  followRenames: boolean,
  ctx: Ctx,
  world: World,
): { node: Node } | { error: GraphqlError } {
  const asked = `${owner}/${name}`;
  const notFound = {
    error: { type: 'NOT_FOUND', message: `Could not resolve to a Repository with the name '${asked}'.` },
  };
  const key = `github:${asked.toLowerCase()}`;
  const p = world.github(key, ctx);
  if (p) {
    if (p.renamed_to && p.renamed_to.toLowerCase() !== asked.toLowerCase() && !p.fail)
      return followRenames ? nodeOf(key, p.renamed_to, p, world, notFound) : notFound;
    return nodeOf(key, p.renamed_to ?? asked, p, world, notFound);
  }
  // The new name of a renamed repository names the repository it was renamed from.
  const from = world.githubRenamedFrom(asked);
  const moved = from ? world.github(from, ctx) : null;
  if (from && moved?.renamed_to?.toLowerCase() === asked.toLowerCase())
    return nodeOf(from, moved.renamed_to, moved, world, notFound);
  return notFound;
}

function nodeOf(
  key: string,
  fullName: string,
  p: GithubPhase,
  world: World,
  notFound: { error: GraphqlError },
): { node: Node } | { error: GraphqlError } {
  const fail = p.fail;
  if (fail === 'not_found') return notFound;
  if (fail === 'dmca' || fail === 'tos_block')
    return { error: { type: 'FORBIDDEN', message: 'Repository access blocked' } };
  if (fail === 'forbidden')
    return {
      error: {
        type: 'FORBIDDEN',
        message: 'Due to U.S. trade controls law restrictions, this GitHub account has been restricted.',
      },
    };
  // A repository REST fails for (a limit, a 5xx, a hang…): GraphQL cannot say more about it than REST.
  if (fail && fail !== 'empty_repo' && isCommonFail(fail)) return { error: { message: SOMETHING_WENT_WRONG } };
  const id = world.githubId(key);
  const { created, pushed, commit } = repoDates(p, world, key);
  const [login = '', repo = ''] = fullName.split('/');
  return {
    node: {
      __typename: 'Repository',
      id: Buffer.from(`010:Repository${id}`).toString('base64'),
      databaseId: id,
      name: repo,
      nameWithOwner: fullName,
      url: `https://github.com/${fullName}`,
      owner: { __typename: 'Organization', login },
      isArchived: p.archived ?? false,
      isDisabled: p.disabled ?? false,
      isFork: p.fork ?? false,
      isEmpty: commit === null,
      isPrivate: false,
      createdAt: created,
      updatedAt:
        [created, pushed]
          .filter((d): d is string => typeof d === 'string')
          .sort()
          .at(-1) ?? created,
      pushedAt: pushed,
      // An empty repository has no default branch to point at.
      defaultBranchRef:
        commit === null
          ? null
          : {
              __typename: 'Ref',
              name: p.default_branch ?? 'main',
              prefix: 'refs/heads/',
              target: {
                __typename: 'Commit',
                oid: headSha(key, commit),
                committedDate: commit,
                authoredDate: commit,
                message: 'Simulated head commit',
              },
            },
    },
  };
}

/** The selections' fields on `type`, with the fragments they name: what GitHub's validation rejects. */
function validate(query: ParsedQuery, selections: Selection[], type: string, path: string[]): GraphqlError[] {
  const errors: GraphqlError[] = [];
  const fields = SCHEMA[type] ?? {};
  for (const s of selections) {
    if (s.kind === 'spread') {
      const fragment = query.fragments.get(s.name);
      if (!fragment) errors.push({ message: `Fragment ${s.name} was used, but not defined` });
      else errors.push(...validate(query, fragment.selections, fragment.on, [...path, `... ${s.name}`]));
      continue;
    }
    if (s.kind === 'inline') {
      const on = s.on ?? type;
      if (on !== type && !(IMPLEMENTS[type] ?? []).includes(on))
        errors.push({ message: `Fragment on ${on} can't be spread inside ${type}` });
      else errors.push(...validate(query, s.selections, on, [...path, `... on ${on}`]));
      continue;
    }
    const at = [...path, s.alias ?? s.name];
    if (s.name === '__typename') continue;
    if (!(s.name in fields)) {
      errors.push({
        path: at,
        extensions: { code: 'undefinedField', typeName: type, fieldName: s.name },
        locations: [{ line: s.line, column: s.column }],
        message: `Field '${s.name}' doesn't exist on type '${type}'`,
      });
      continue;
    }
    const sub = fields[s.name] ?? null;
    if (sub !== null && !s.selections)
      errors.push({
        path: at,
        message: `Field must have selections (field '${s.name}' returns ${sub} but has no selections.`,
      });
    else if (sub === null && s.selections)
      errors.push({ path: at, message: `Selections can't be made on scalars (field '${s.name}')` });
    else if (sub !== null && s.selections) errors.push(...validate(query, s.selections, sub, at));
    if (
      type === 'Query' &&
      s.name === 'repository' &&
      (typeof s.args['owner'] !== 'string' || typeof s.args['name'] !== 'string')
    )
      errors.push({ path: at, message: "Field 'repository' is missing required arguments: owner, name" });
  }
  return errors;
}

/** A value cut to the selection asked, as GraphQL answers: only what was asked, under its alias. */
function project(value: unknown, selections: Selection[] | null, query: ParsedQuery): unknown {
  if (value === null || value === undefined || !selections) return value ?? null;
  const node = value as Node;
  const out: Record<string, unknown> = {};
  const apply = (list: Selection[]) => {
    for (const s of list) {
      if (s.kind === 'field')
        out[s.alias ?? s.name] = s.name === '__typename' ? node.__typename : project(node[s.name], s.selections, query);
      else if (s.kind === 'inline') {
        if (s.on === null || s.on === node.__typename || s.on === typeOfField(node)) apply(s.selections);
      } else {
        const fragment = query.fragments.get(s.name);
        if (fragment && (fragment.on === node.__typename || fragment.on === typeOfField(node)))
          apply(fragment.selections);
      }
    }
  };
  apply(selections);
  return out;
}

/** The interface a node is also reachable as (a Commit is a GitObject). */
function typeOfField(node: Node): string | null {
  return Object.entries(IMPLEMENTS).find(([, types]) => types.includes(node.__typename))?.[0] ?? null;
}
