import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADVERSARIAL_INPUTS, type AdversarialInput } from './support/adversarial-inputs.js';
import { postSubmission, redTeamSize } from './support/adversarial-requests.js';
import { ANSWER_MS, answerBound, HEALTH_MS, servedForFire, whileProbingHealth } from './support/probe-health.js';

/**
 * The red-team inputs of issues 14 and 24 over real HTTP, each at the size that hurt (4 MB unless
 * the table gave another): answered with a 200 or a 4xx, never a 5xx or a cut-off body, the answer
 * no more than ten times the request plus 1 MB, and /healthz answered while the big request is in
 * flight (one slow request must not hold everyone behind it). Each timing is printed.
 */
const ANSWER_SIZE_INPUTS: AdversarialInput[] = [
  {
    name: 'CycloneDX JSON: components [0,0,…]',
    route: 'sbom',
    format: 'application/vnd.cyclonedx+json',
    make: (n) => `{"bomFormat":"CycloneDX","specVersion":"1.5","components":[${'0,'.repeat(n / 2 - 40)}0]}`,
  },
  {
    name: 'CycloneDX JSON: components nested 63 deep, many at the bottom',
    route: 'sbom',
    format: 'application/vnd.cyclonedx+json',
    make: (n) => {
      const depth = 63;
      const open = '{"name":"x","components":['.repeat(depth);
      const close = ']}'.repeat(depth);
      const leaves = '0,'.repeat(Math.floor((n - open.length - close.length - 60) / 2));
      return `{"bomFormat":"CycloneDX","specVersion":"1.5","components":[${open}${leaves}0${close}]}`;
    },
  },
  {
    name: 'CycloneDX JSON: 100,000 distinct purls',
    route: 'sbom',
    format: 'application/vnd.cyclonedx+json',
    make: () =>
      `{"bomFormat":"CycloneDX","specVersion":"1.5","components":[${Array.from({ length: 100_000 }, (_, i) => `{"purl":"pkg:npm/p${i}"}`).join(',')}]}`,
  },
];

let served: Awaited<ReturnType<typeof servedForFire>>;
let base: string;

beforeAll(async () => {
  served = await servedForFire();
  base = served.base;
});
afterAll(() => served.close());

describe('hostile submissions over HTTP', () => {
  it.each([...ADVERSARIAL_INPUTS, ...ANSWER_SIZE_INPUTS].map((input) => [input.name, input] as const))(
    '%s',
    { timeout: 60_000 },
    async (name, input) => {
      const body = input.make(redTeamSize(input));
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(4 * 1024 * 1024);
      const { status, text, ms, health } = await whileProbingHealth(base, () => postSubmission(base, input, body));
      const slowestHealth = Math.max(...health.map((h) => h.ms));
      console.log(
        `${name}: ${(body.length / 1e6).toFixed(2)} MB → ${status}, ${(text.length / 1e6).toFixed(3)} MB answer in ${ms.toFixed(0)} ms; /healthz answered ${health.length}× meanwhile, slowest ${slowestHealth.toFixed(0)} ms`,
      );
      expect(status === 200 || (status >= 400 && status < 500), `status ${status}: ${text.slice(0, 200)}`).toBe(true);
      expect(() => JSON.parse(text) as unknown, 'a whole JSON answer').not.toThrow();
      expect(text.length).toBeLessThanOrEqual(answerBound(Buffer.byteLength(body)));
      // Messages quote at most an excerpt of what was sent.
      if (status >= 400) expect(text.length).toBeLessThan(4_000);
      expect(ms).toBeLessThan(ANSWER_MS);
      expect(health.length).toBeGreaterThan(0);
      expect(health.every((h) => h.status === 200)).toBe(true);
      expect(slowestHealth).toBeLessThan(HEALTH_MS);
    },
  );
});
