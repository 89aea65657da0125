/** What the reader keeps from GitHub's 200 answers: the facts a 304 later re-confirms. */
import { z } from 'zod';
import type { FactsSpec } from '../http/facts-spec.js';
import { instant } from '../reading.js';

export type RepoFacts = {
  id: number | null;
  full_name: string;
  archived: boolean;
  disabled: boolean;
  fork: boolean;
  pushed_at: string | null;
  created_at: string | null;
  default_branch: string | null;
};

export type CommitFacts = {
  /** false for an empty list (a repository with no commits on its default branch). */
  present: boolean;
  sha: string | null;
  committer_date: string | null;
  author_date: string | null;
};

const Repo = z.object({
  id: z.number().int().nullish(),
  full_name: z.string().min(3),
  archived: z.boolean().nullish(),
  disabled: z.boolean().nullish(),
  fork: z.boolean().nullish(),
  pushed_at: z.unknown(),
  created_at: z.unknown(),
  default_branch: z.string().nullish(),
});

const Commit = z.object({
  sha: z.string().nullish(),
  commit: z.object({
    author: z.object({ date: z.unknown() }).nullish(),
    committer: z.object({ date: z.unknown() }).nullish(),
  }),
});

export const REPO_FACTS: FactsSpec<RepoFacts> = {
  version: 'github-repo/1',
  from: import.meta.url,
  extract(body) {
    const r = Repo.safeParse(body);
    if (!r.success)
      return `not a GitHub repository object: ${r.error.issues[0]?.path.join('.') ?? ''} ${r.error.issues[0]?.message ?? ''}`.trim();
    const d = r.data;
    return {
      id: d.id != null && Number.isSafeInteger(d.id) ? d.id : null,
      full_name: d.full_name,
      archived: d.archived === true,
      disabled: d.disabled === true,
      fork: d.fork === true,
      pushed_at: instant(d.pushed_at),
      created_at: instant(d.created_at),
      default_branch: d.default_branch ?? null,
    };
  },
};

export const COMMIT_FACTS: FactsSpec<CommitFacts> = {
  version: 'github-commits/1',
  from: import.meta.url,
  extract(body) {
    if (!Array.isArray(body)) return 'the commit list is not a JSON array';
    if (body.length === 0) return { present: false, sha: null, committer_date: null, author_date: null };
    const c = Commit.safeParse(body[0]);
    if (!c.success) return 'the head commit has no commit.committer';
    const committer = instant(c.data.commit.committer?.date);
    if (committer === null) return 'the head commit has no readable commit.committer.date';
    return {
      present: true,
      sha: c.data.sha ?? null,
      committer_date: committer,
      author_date: instant(c.data.commit.author?.date),
    };
  },
};
