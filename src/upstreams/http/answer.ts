/**
 * What a reader asks of the HTTP client (client.ts) and what it gets back: a request's spec, and
 * an answer that is facts, a status for the reader to interpret, or unreachable.
 */
import type { EvidenceValue } from '../../domain/observation.js';
import type { UnreachableReason } from '../../domain/state.js';
import type { FactsSpec } from './facts-spec.js';

/** How the evidence of a request never sent (its upstream held back) begins; see heldBackUntil. */
export const NOT_SENT = 'not sent:';

export interface RequestSpec<F extends EvidenceValue> {
  accept: string;
  headers?: Record<string, string>;
  facts: FactsSpec<F>;
  /**
   * What a 200's body is: JSON (the default), text handed to the extractor as it is, or its bytes
   * (a compressed file: the crates.io dump).
   */
  body?: 'json' | 'text' | 'bytes';
  /** Sent as a POST with this body (PyPI's XML-RPC journal); never conditional, never cached. */
  post?: { contentType: string; body: string };
  /** Never conditional, never cached: an answer whose facts are too many to keep (a listing page of counts). */
  uncached?: boolean;
}

export interface Redirect {
  status: number;
  from: string;
  to: string;
}

export type Answer<F> =
  /** A 200, or a 304 re-confirming the facts of the last 200 for this URL. */
  | { kind: 'facts'; url: string; status: 200 | 304; facts: F; redirects: Redirect[] }
  /** Any other answer the reader must interpret (404, 409, 451, a 403 that is no rate limit…). */
  | {
      kind: 'status';
      url: string;
      status: number;
      body: unknown;
      text: string;
      headers: Headers;
      redirects: Redirect[];
    }
  /** No answer the record can rest on: transport failure, rate limit, 5xx, 401, unreadable body. */
  | {
      kind: 'unreachable';
      url: string;
      reason: UnreachableReason;
      evidence: Record<string, EvidenceValue>;
      redirects: Redirect[];
    };
