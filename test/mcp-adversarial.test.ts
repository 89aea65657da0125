import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckAnswer } from '../src/operations/check-components.js';
import { ADVERSARIAL_INPUTS } from './support/adversarial-inputs.js';
import { mcpCheckRequest, postMcp, toolCall } from './support/adversarial-requests.js';
import { parsedAs } from './support/json.js';
import type { RpcAnswer, ToolCallResult } from './support/mcp-answers.js';
import {
  ANSWER_MS,
  answerBound,
  HEALTH_MS,
  servedForFire,
  whileProbingHealth,
  type ProbedAnswer,
} from './support/probe-health.js';

/**
 * Issue 24's red-team inputs through MCP's check_manifest and check_sbom (raw JSON-RPC over real
 * HTTP: batches are what no SDK client sends). Each is answered 200 with a result or a tool error
 * whose sentence says nothing of Tended's internals, within the answer bound, while /healthz keeps
 * answering; a batch's answers share one bound.
 */
let served: Awaited<ReturnType<typeof servedForFire>>;
let base: string;

beforeAll(async () => {
  served = await servedForFire();
  base = served.base;
});
afterAll(() => served.close());

function send(body: string): Promise<ProbedAnswer> {
  return whileProbingHealth(base, () => postMcp(base, body));
}

/** What a tool error may never show: an engine's or library's own message, or a stack. */
const INTERNALS = /RangeError|Invalid string length|Maximum call stack|TypeError|\bat \S+ \(|\.ts:\d+|node_modules/;

function expectBounded(probe: ProbedAnswer, requestBytes: number): void {
  const slowestHealth = Math.max(...probe.health.map((h) => h.ms));
  expect(probe.status, probe.text.slice(0, 200)).toBe(200);
  expect(probe.text.length).toBeLessThanOrEqual(answerBound(requestBytes));
  expect(probe.ms).toBeLessThan(ANSWER_MS);
  expect(probe.health.every((h) => h.status === 200)).toBe(true);
  expect(slowestHealth).toBeLessThan(HEALTH_MS);
}

describe('hostile submissions through MCP', () => {
  it.each(ADVERSARIAL_INPUTS.map((input) => [input.name, input] as const))(
    '%s',
    { timeout: 60_000 },
    async (name, input) => {
      const request = mcpCheckRequest(input, 4_000_000);
      const probe = await send(request);
      const slowest = Math.max(...probe.health.map((h) => h.ms));
      console.log(
        `MCP ${name}: ${(request.length / 1e6).toFixed(2)} MB → ${probe.status}, ${(probe.text.length / 1e6).toFixed(3)} MB in ${probe.ms.toFixed(0)} ms; /healthz slowest ${slowest.toFixed(0)} ms`,
      );
      expectBounded(probe, Buffer.byteLength(request));
      const answer = parsedAs<RpcAnswer<ToolCallResult<CheckAnswer>>>(probe.text);
      expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
      const result = answer.result!;
      if (result.isError) {
        expect(result.content[0]!.text).not.toMatch(INTERNALS);
        expect(result.content[0]!.text.length).toBeLessThan(4_000);
      } else {
        expect(result.structuredContent.license).toBe('CC-BY-4.0');
      }
    },
  );
});

describe('a hostile MCP batch', () => {
  it(
    '100 check_manifest calls of 1,000 names each share one answer bound, and the calls past it say so',
    {
      timeout: 60_000,
    },
    async () => {
      const names = (i: number) => Array.from({ length: 1_000 }, (_, n) => `p${i}-${n}`).join('\n');
      const batch = Array.from({ length: 100 }, (_, i) =>
        toolCall(i + 1, 'check_manifest', { content: names(i), format: 'requirements' }),
      );
      const request = JSON.stringify(batch);
      const probe = await send(request);
      console.log(
        `MCP batch: ${(request.length / 1e6).toFixed(2)} MB → ${probe.status}, ${(probe.text.length / 1e6).toFixed(3)} MB in ${probe.ms.toFixed(0)} ms`,
      );
      expectBounded(probe, Buffer.byteLength(request));
      const answers = parsedAs<RpcAnswer<ToolCallResult<CheckAnswer>>[]>(probe.text);
      expect(answers).toHaveLength(100);
      const answered = answers.filter((a) => !a.result!.isError);
      const refused = answers.filter((a) => a.result!.isError);
      // The first calls are answered whole; the bound is reached long before the hundredth.
      expect(answered.length).toBeGreaterThan(0);
      expect(answered[0]!.result!.structuredContent.results_count).toBe(1_000);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused[0]!.result!.content[0]!.text).toMatch(
        /reached its size bound .* Send this call in another request/,
      );
    },
  );
});
