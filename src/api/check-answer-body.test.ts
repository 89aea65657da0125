import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datedRead } from '../domain/as-of.js';
import { checkComponents, planCheck, type CheckAnswer } from '../operations/check-components.js';
import { submittedComponents } from '../operations/submitted-components.js';
import type { ComponentReference, ParseResult } from '../parsers/reference.js';
import { parsedAs } from '../../test/support/json.js';
import { recordDeps, sqliteTestStore, type TestStore } from '../../test/support/record.js';
import { answerBudget, checkAnswerBody } from './check-answer-body.js';

let t: TestStore;
beforeAll(async () => {
  t = await sqliteTestStore();
});
afterAll(async () => {
  await t.dispose();
});

function parsed(count: number, unresolved = 1, repeats = 1): ParseResult {
  const references: ComponentReference[] = [];
  for (let i = 0; i < count; i++)
    for (let r = 0; r < repeats; r++)
      references.push({
        ref: { kind: 'npm', id: `p-${i}` },
        input: `pkg:npm/p-${i}`,
        location: `components[${i}.${r}]`,
      });
  return {
    format: 'cyclonedx',
    variant: 'json',
    references,
    unresolved: Array.from({ length: unresolved }, (_, i) => ({
      input: `x${i}`,
      location: `components[${count + i}]`,
      reason: 'names no package URL (purl), so it cannot be looked up',
    })),
  };
}

async function written(input: ParseResult, budget?: number): Promise<{ text: string; answer: CheckAnswer }> {
  const deps = recordDeps(t.store);
  const plan = await planCheck(deps, submittedComponents(input), datedRead(undefined, deps.clock.now()));
  const text = await new Response(checkAnswerBody(plan, budget)).text();
  return { text, answer: parsedAs<CheckAnswer>(text) };
}

describe('checkAnswerBody', () => {
  // Around the chunk size (64) the commas and brackets are where a hand-written writer breaks.
  for (const count of [0, 1, 63, 64, 65, 128, 129, 1000]) {
    it(`writes the same answer as the whole-object check for ${count} results`, async () => {
      const { answer } = await written(parsed(count));
      const deps = recordDeps(t.store);
      const whole = await checkComponents(deps, parsed(count), datedRead(undefined, deps.clock.now()));
      expect(answer).toEqual(whole);
      expect(answer.results).toHaveLength(count);
      expect(answer.results_count).toBe(count);
    });
  }

  it('counts the states of every result it wrote', async () => {
    const { answer } = await written(parsed(300, 0));
    expect(answer.states).toEqual({ not_observed: 300 });
    expect(answer.unresolved).toEqual([]);
  });

  it('a component named many times is one result with its first places and a count of the rest', async () => {
    const { answer } = await written(parsed(2, 0, 1_000));
    expect(answer.results).toHaveLength(2);
    expect(answer.results[0]!.input.locations).toHaveLength(20);
    expect(answer.results[0]!.input.locations[0]).toEqual({ input: 'pkg:npm/p-0', location: 'components[0.0]' });
    expect(answer.results[0]!.input.locations_omitted).toBe(980);
  });

  it('stops at its byte budget, counts what it left out and says so', async () => {
    const budget = 200_000;
    const { text, answer } = await written(parsed(3_000), budget);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(budget);
    expect(answer.results_count).toBe(answer.results.length);
    expect(answer.results_count).toBeGreaterThan(100);
    expect(answer.results_count + answer.results_omitted!).toBe(3_000);
    expect(answer.states).toEqual({ not_observed: answer.results_count });
    expect(answer.note).toMatch(/size bound .* the last [\d,]+ results were not written/);
    // The results written are the first ones, in order.
    expect(answer.results.at(-1)!.input.name).toBe(`p-${answer.results_count - 1}`);
  });

  it('a real submission fits its budget untouched: ten times its bytes plus 1 MB', async () => {
    const { answer } = await written(parsed(3_000), answerBudget(3_000 * 60));
    expect(answer.results_count).toBe(3_000);
    expect(answer.results_omitted).toBeUndefined();
  });
});
