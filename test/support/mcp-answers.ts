/**
 * The shapes of /mcp's answers as the tests read them: the JSON-RPC envelope, a tools/call result,
 * and the structured content of the tools whose answer is not a type of its own in src/ (the
 * others answer CheckAnswer, EntityAnswer, OrgAnswer and HeadAnswer).
 */
import type { ComponentRef } from '../../src/domain/component.js';
import type { CheckedResult, DATA_LICENSE } from '../../src/operations/entity-answer.js';
import type { Verdict } from '../../src/notary/verdict.js';
import type { readInclusionProof } from '../../src/operations/read-chain.js';
import type { Json } from './json.js';

/** A JSON-RPC 2.0 answer, its result of the shape `R`; `detail` is the sentence an HTTP refusal carries beside the error. */
export interface RpcAnswer<R = Json> {
  jsonrpc: string;
  id: string | number | null;
  result?: R;
  error?: { code: number; message: string; data?: Json };
  detail?: string;
}

/** A tools/call result, its structured content of the shape `T` (mirrored as JSON in a text block). */
export interface ToolCallResult<T> {
  content: { type: string; text: string }[];
  structuredContent: T;
  isError?: boolean;
}

/** check_component: the checked result with its state's definition, what it named, and the license. */
export type ComponentToolAnswer = CheckedResult & {
  state_definition: string;
  input: { name: string; kind: ComponentRef['kind'] };
  verdict?: Verdict;
  license: typeof DATA_LICENSE;
};

/** prove_inclusion: the inclusion proof, the leaf's exact bytes as text, and the checkpoint it is against. */
export type InclusionToolAnswer = Awaited<ReturnType<typeof readInclusionProof>> & {
  leaf: string;
  checkpoint: string | null;
  verifier_key: string;
};
