/**
 * endoflife.date products (v1 API). Not a component kind of its own: the docker reader asks it
 * whether an image's release cycle has reached end-of-life.
 */
import type { EvidenceValue } from '../../domain/observation.js';
import type { Signals } from '../../domain/state.js';
import type { HttpClient } from '../http/client.js';
import { redirectEvidence } from '../reading.js';
import { classifyProductResponse } from './classify-response.js';
import { PRODUCT_FACTS, type ProductFacts } from './facts.js';

export type ProductReading =
  | { kind: 'product'; url: string; status: 200 | 304; product: ProductFacts; evidence: Record<string, EvidenceValue> }
  /** The listing has no such product (404). */
  | { kind: 'unknown'; url: string; evidence: Record<string, EvidenceValue> }
  | { kind: 'unreachable'; url: string; signals: Signals; evidence: Record<string, EvidenceValue> };

/** How long a product answer is reused: thousands of image tags share a handful of products. */
const REUSE_MS = 10 * 60_000;

export class EndoflifeReader {
  private readonly recent = new Map<string, { at: number; reading: Promise<ProductReading> }>();

  constructor(
    private readonly client: HttpClient,
    private readonly base: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** `GET {base}/api/v1/products/{product}/`; aliases (node → nodejs) answer 301, which is followed. */
  product(name: string): Promise<ProductReading> {
    const hit = this.recent.get(name);
    if (hit && this.now() - hit.at < REUSE_MS) return hit.reading;
    const reading = this.fetch(name);
    this.recent.set(name, { at: this.now(), reading });
    // Only a product answer is reused; a failure is asked again by the next image.
    void reading.then((r) => {
      if (r.kind !== 'product') this.recent.delete(name);
    });
    return reading;
  }

  private async fetch(name: string): Promise<ProductReading> {
    const answer = await this.client.get(`${this.base}/api/v1/products/${encodeURIComponent(name)}/`, {
      accept: 'application/json',
      facts: PRODUCT_FACTS,
    });
    if (answer.kind === 'unreachable') {
      return {
        kind: 'unreachable',
        url: answer.url,
        signals: { unreachable: answer.reason },
        evidence: { ...answer.evidence, unreachable: answer.reason, ...redirectEvidence(answer.redirects) },
      };
    }
    if (answer.kind === 'status') {
      const v = classifyProductResponse(answer);
      if (v === null)
        return {
          kind: 'unknown',
          url: answer.url,
          evidence: { http_status: answer.status, ...redirectEvidence(answer.redirects) },
        };
      return {
        kind: 'unreachable',
        url: answer.url,
        signals: v.signals,
        evidence: { ...v.evidence, ...redirectEvidence(answer.redirects) },
      };
    }
    return {
      kind: 'product',
      url: answer.url,
      status: answer.status,
      product: answer.facts,
      evidence: { http_status: answer.status, ...redirectEvidence(answer.redirects) },
    };
  }
}
