/** The TENDED_BUDGET_* variables: each budgeted upstream's requests a second and a day. */
import { z } from 'zod';
import {
  BUDGETED_UPSTREAMS,
  budgetVariable,
  type BudgetedUpstream,
  type BudgetLimit,
} from '../upstreams/http/budget-limits.js';

/** `5/300000`: requests a second (a fraction allowed), then requests a UTC day. */
function budgetValue(variable: string) {
  return z
    .string()
    .trim()
    .regex(
      /^\d{1,9}(?:\.\d{1,6})?\/\d{1,12}$/,
      `${variable} is requests a second and requests a day, e.g. 5/300000 (0.5/20000 is one request every two seconds)`,
    )
    .transform((v): BudgetLimit => {
      const [second, day] = v.split('/');
      return { perSecond: Number(second), perDay: Number(day) };
    })
    .refine(
      (b) => b.perSecond > 0 && b.perSecond <= 1000,
      `${variable}: requests a second must be more than 0 and at most 1000`,
    )
    .refine((b) => b.perDay >= 1, `${variable}: requests a day must be at least 1`);
}

const Budgets = z.object(
  Object.fromEntries(BUDGETED_UPSTREAMS.map((u) => [budgetVariable(u), budgetValue(budgetVariable(u)).optional()])),
);
const BUDGET_VARIABLES = new Set(BUDGETED_UPSTREAMS.map(budgetVariable));

/** Every TENDED_BUDGET_* set: the overrides by upstream, or a sentence per bad one. */
export function budgetOverrides(env: Record<string, string>): {
  overrides: Partial<Record<BudgetedUpstream, BudgetLimit>>;
  lines: string[];
} {
  const lines = Object.keys(env)
    .filter((name) => name.startsWith('TENDED_BUDGET_') && !BUDGET_VARIABLES.has(name))
    .map((name) => `${name}: names no upstream; the budgets are ${[...BUDGET_VARIABLES].join(', ')}`);
  const parsed = Budgets.safeParse(env);
  if (!parsed.success) {
    lines.push(...parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
    return { overrides: {}, lines };
  }
  const overrides: Partial<Record<BudgetedUpstream, BudgetLimit>> = {};
  for (const u of BUDGETED_UPSTREAMS) {
    const b = parsed.data[budgetVariable(u)];
    if (b) overrides[u] = b;
  }
  return { overrides, lines };
}
