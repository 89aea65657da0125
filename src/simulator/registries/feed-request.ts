/** What a generated feed's handler is given: the request, the registry and the moment it is served at. */
import type { Ctx } from '../answer.js';
import type { FeedFaults } from './faults.js';
import type { GeneratedRegistry } from './registry.js';

export interface FeedRequest {
  ctx: Ctx;
  method: string;
  /** The request body (XML-RPC); empty for a GET. */
  body: string;
  /** The simulated moment in epoch milliseconds. */
  nowMs: number;
  registry: GeneratedRegistry;
  faults: FeedFaults;
}

/** An instant with millisecond precision, as most feeds write it. */
export function isoAt(ms: number): string {
  return new Date(Math.floor(ms)).toISOString();
}
