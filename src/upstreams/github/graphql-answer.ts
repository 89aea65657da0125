/**
 * One GraphQL query for a batch of repositories, and what its answer says of each (DESIGN §8a):
 * per alias, the repository's facts, or why the batch could not resolve it (a `NOT_FOUND`, a
 * partial error, a field left null), plus the query's `rateLimit`. Names travel as variables, never
 * spliced into the query text.
 */
import type { FactsSpec } from '../http/facts-spec.js';
import { instant } from '../reading.js';
import { messageOf } from '../http/response-body.js';

/** GitHub's own cap on `first`/`last`, and the batch size DESIGN §8a names. */
export const MAX_BATCH = 100;

/**
 * What is asked of each repository: REST's metadata and the default branch head's committer date
 * in one node. `followRenames: false` makes an old name a `NOT_FOUND`, so a rename is read where
 * REST's 301 records it, as every rename is today.
 */
export const REPOSITORY_SELECTION =
  'databaseId nameWithOwner isArchived isDisabled isFork isEmpty createdAt pushedAt defaultBranchRef { name target { __typename ... on Commit { oid committedDate } } }';

export function aliasOf(i: number): string {
  return `r${i}`;
}

/** What the evidence names as asked of one repository. */
export function askedOf(name: string): string {
  const [owner = '', repo = ''] = name.split('/');
  return `repository(owner: ${JSON.stringify(owner)}, name: ${JSON.stringify(repo)}, followRenames: false)`;
}

/** The query and its variables for `names` (owner/repo), aliased r0, r1… in order. */
export function batchQuery(names: string[]): { query: string; variables: Record<string, string> } {
  const variables: Record<string, string> = {};
  const defs: string[] = [];
  const fields: string[] = [];
  names.forEach((name, i) => {
    const slash = name.indexOf('/');
    variables[`o${i}`] = name.slice(0, slash);
    variables[`n${i}`] = name.slice(slash + 1);
    defs.push(`$o${i}: String!, $n${i}: String!`);
    fields.push(`  ${aliasOf(i)}: repository(owner: $o${i}, name: $n${i}, followRenames: false) { ...Held }`);
  });
  const query = [
    `query HeldRepositories(${defs.join(', ')}) {`,
    ...fields,
    '  rateLimit { cost remaining resetAt limit }',
    '}',
    `fragment Held on Repository { ${REPOSITORY_SELECTION} }`,
  ].join('\n');
  return { query, variables };
}

/** A repository as the batch read it: REST's repository facts and the head commit in one. */
export type GraphqlRepo = {
  id: number | null;
  full_name: string;
  archived: boolean;
  disabled: boolean;
  fork: boolean;
  empty: boolean;
  created_at: string;
  pushed_at: string | null;
  default_branch: string | null;
  /** Null when the default branch has no head commit the answer gives a date for. */
  head: { sha: string | null; committer_date: string } | null;
};

export type AliasAnswer = { repo: GraphqlRepo } | { unresolved: string };

export type RateLimitFacts = {
  cost: number | null;
  remaining: number | null;
  limit: number | null;
  /** RFC 3339, from `rateLimit.resetAt` (or the `x-ratelimit-reset` header when the answer has no data). */
  reset_at: string | null;
  /**
   * How long until then, by the answer's own Date header: a hold is measured from it, so a local
   * clock that disagrees with GitHub's neither shortens nor stretches the wait.
   */
  reset_in_seconds: number | null;
};

export type BatchFacts = {
  /** By alias: every alias the answer's data or errors name. */
  repositories: Record<string, AliasAnswer>;
  /** Errors that name no alias: the query's own (a parse error, a rate limit). */
  errors: { type: string | null; message: string }[];
  rate_limit: RateLimitFacts | null;
};

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null);

/** A repository node, or why it cannot be trusted (a field GitHub never leaves null came back null). */
function repoOf(node: unknown): AliasAnswer {
  if (!isObj(node)) return { unresolved: 'null in data, with no error naming it' };
  const n = node;
  if (typeof n['nameWithOwner'] !== 'string') return { unresolved: 'nameWithOwner is missing' };
  for (const flag of ['isArchived', 'isDisabled', 'isFork', 'isEmpty'])
    if (typeof n[flag] !== 'boolean') return { unresolved: `${flag} is not a boolean` };
  const created = instant(n['createdAt']);
  if (created === null) return { unresolved: 'createdAt is not an instant' };
  const pushed = instant(n['pushedAt']);
  if (n['pushedAt'] != null && pushed === null) return { unresolved: 'pushedAt is not an instant' };
  const ref = n['defaultBranchRef'];
  if (ref != null && !isObj(ref)) return { unresolved: 'defaultBranchRef is not an object' };
  const target = isObj(ref) ? ref['target'] : null;
  const committed = isObj(target) ? instant(target['committedDate']) : null;
  return {
    repo: {
      id: int(n['databaseId']),
      full_name: n['nameWithOwner'].slice(0, 200),
      archived: n['isArchived'] === true,
      disabled: n['isDisabled'] === true,
      fork: n['isFork'] === true,
      empty: n['isEmpty'] === true,
      created_at: created,
      pushed_at: pushed,
      default_branch: isObj(ref) && typeof ref['name'] === 'string' ? ref['name'].slice(0, 200) : null,
      head:
        committed === null
          ? null
          : {
              sha: isObj(target) && typeof target['oid'] === 'string' ? target['oid'].slice(0, 64) : null,
              committer_date: committed,
            },
    },
  };
}

function errorText(e: Obj): { type: string | null; message: string } {
  return {
    type: typeof e['type'] === 'string' ? e['type'].slice(0, 60) : null,
    message: messageOf(e, '').slice(0, 300),
  };
}

function rateLimitOf(data: unknown, headers: Headers): RateLimitFacts | null {
  const r = isObj(data) ? data['rateLimit'] : null;
  let facts: Omit<RateLimitFacts, 'reset_in_seconds'>;
  if (isObj(r)) {
    facts = {
      cost: int(r['cost']),
      remaining: int(r['remaining']),
      limit: int(r['limit']),
      reset_at: instant(r['resetAt']),
    };
  } else {
    // A query refused for its limit has no data: the headers still say what is left and when it resets.
    const remaining = headers.get('x-ratelimit-remaining')?.trim() ?? '';
    const reset = headers.get('x-ratelimit-reset')?.trim() ?? '';
    if (!/^\d{1,12}$/.test(remaining)) return null;
    facts = {
      cost: null,
      remaining: Number(remaining),
      limit: null,
      reset_at: /^\d{1,12}$/.test(reset)
        ? new Date(Number(reset) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')
        : null,
    };
  }
  const served = Date.parse(headers.get('date') ?? '');
  const resets = Date.parse(facts.reset_at ?? '');
  const resetIn =
    Number.isNaN(served) || Number.isNaN(resets) ? null : Math.max(0, Math.ceil((resets - served) / 1000));
  return { ...facts, reset_in_seconds: resetIn };
}

export const BATCH_FACTS: FactsSpec<BatchFacts> = {
  version: 'github-graphql-batch/1',
  from: import.meta.url,
  extract(body, headers) {
    if (!isObj(body)) return 'not a GraphQL answer (no JSON object)';
    const data = body['data'];
    if (data !== undefined && data !== null && !isObj(data)) return 'data is not an object';
    const rawErrors = body['errors'];
    if (rawErrors !== undefined && !Array.isArray(rawErrors)) return 'errors is not a list';
    const repositories: Record<string, AliasAnswer> = {};
    const errors: BatchFacts['errors'] = [];
    for (const e of (rawErrors ?? []) as unknown[]) {
      if (!isObj(e)) continue;
      const path = Array.isArray(e['path']) ? e['path'] : [];
      const alias = typeof path[0] === 'string' && /^r\d+$/.test(path[0]) ? path[0] : null;
      const text = errorText(e);
      // The first error on an alias says why; a partial error may have nulled any of its fields.
      if (alias) repositories[alias] ??= { unresolved: `${text.type ?? 'ERROR'}: ${text.message}` };
      else errors.push(text);
    }
    if (isObj(data))
      for (const [alias, node] of Object.entries(data)) if (/^r\d+$/.test(alias)) repositories[alias] ??= repoOf(node);
    return { repositories, errors, rate_limit: rateLimitOf(data, headers) };
  },
};
