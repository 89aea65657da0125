import { describe, expect, it } from 'vitest';
import type { CheckAnswer, CheckPlan, ComponentCheck } from '../operations/check-components.js';
import { parsedAs } from '../../test/support/json.js';
import { checkedResult } from '../operations/entity-answer.js';
import { checkAnswerBody } from './check-answer-body.js';

function plan(count: number, unresolved = 1): CheckPlan {
  const states: CheckPlan['states'] = {};
  return {
    as_of: '2026-11-01',
    format: 'cyclonedx',
    variant: 'json',
    results_count: count,
    unresolved_count: unresolved,
    async *results(size) {
      await Promise.resolve(); // a real plan awaits the store between chunks
      let chunk: ComponentCheck[] = [];
      for (let i = 0; i < count; i++) {
        const ref = { kind: 'npm' as const, id: `p-${i}` };
        const result: ComponentCheck = {
          ...checkedResult(ref, [], '2026-11-01', '2026-11-22'),
          input: { name: ref.id, kind: 'npm', locations: [{ input: `pkg:npm/p-${i}`, location: `components[${i}]` }] },
        };
        states[result.state] = (states[result.state] ?? 0) + 1;
        chunk.push(result);
        if (chunk.length === size) {
          yield chunk;
          chunk = [];
        }
      }
      if (chunk.length > 0) yield chunk;
    },
    unresolved: Array.from({ length: unresolved }, (_, i) => ({
      input: `x${i}`,
      location: `components[${count + i}]`,
      reason: 'names no package URL (purl), so it cannot be looked up',
    })),
    states,
    state_definitions: {
      npm: { not_observed: 'the check met 403, 429, a time-out or a network failure; it is not dead' },
    },
    note: 'n',
    license: 'CC-BY-4.0',
  };
}

describe('checkAnswerBody', () => {
  // Around the chunk size (256) the commas and brackets are where a hand-written writer breaks.
  for (const count of [0, 1, 255, 256, 257, 512, 513, 1000]) {
    it(`writes the same answer as JSON.stringify for ${count} results`, async () => {
      const text = await new Response(checkAnswerBody(plan(count))).text();
      const whole = plan(count);
      const results = [];
      for await (const chunk of whole.results(100)) results.push(...chunk);
      expect(JSON.parse(text)).toEqual({ ...whole, results, states: whole.states, results_count: count });
      expect(parsedAs<CheckAnswer>(text).results).toHaveLength(count);
    });
  }

  it('counts the states of every result it wrote', async () => {
    const answer = parsedAs<CheckAnswer>(await new Response(checkAnswerBody(plan(300, 0))).text());
    expect(answer.states).toEqual({ not_observed: 300 });
    expect(answer.unresolved).toEqual([]);
  });
});
