/**
 * Every error a person is answered with (HTTP, MCP) carries a code; ERROR_ANSWERS says, for each
 * code, the status, headers and body the HTTP layer gives and how an MCP tool says it. The message
 * is a sentence a person can act on. Errors never answered stay plain `Error`s where they are
 * thrown: the notary's verification errors (read as values by audits and verdict checks),
 * EndpointRefusedError (a webhook's reason), the store's KeySetConflictError and LogInvariantError
 * (faults), ConfigError and the CLI's own (exit statuses), the simulator's and AuditError.
 */
export type ErrorCode =
  | 'validation'
  | 'input'
  | 'too_complex'
  | 'malformed_json'
  | 'not_found'
  | 'tile_request'
  | 'verdict_key_unavailable'
  | 'duplicate_observation'
  | 'dispute_refused'
  | 'subscription_limit'
  | 'body_too_large'
  | 'body_budget'
  | 'body_too_slow'
  | 'unsupported_media_type'
  | 'store_unavailable'
  | 'parse_busy';

export class TendedError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface ErrorAnswer {
  status: 400 | 404 | 408 | 409 | 413 | 415 | 422 | 503;
  /**
   * `detail`: `{"detail": message}`; `issues`: the error's own 422 list; a type: a 422 list of one
   * issue on the body with that type; `outage`: the store-unavailable answer (JSON or a page).
   */
  body: 'detail' | 'issues' | 'value_error.input' | 'value_error.json' | 'outage';
  headers?: Record<string, string>;
  /**
   * How an MCP tool says it: its issues, the message as a `clause` (a period added) or a whole
   * `sentence`, the outage sentence. Absent: a fault of Tended's (logged, a sentence of no internals).
   */
  mcp?: 'issues' | 'clause' | 'sentence' | 'outage';
}

/** The one table from code to answer. */
export const ERROR_ANSWERS: Record<ErrorCode, ErrorAnswer> = {
  validation: { status: 422, body: 'issues', mcp: 'issues' },
  input: { status: 422, body: 'value_error.input', mcp: 'clause' },
  too_complex: { status: 422, body: 'value_error.input', mcp: 'clause' },
  // A body that does not parse is a body Tended cannot read, as a manifest it cannot place is: 422.
  malformed_json: { status: 422, body: 'value_error.json' },
  not_found: { status: 404, body: 'detail', mcp: 'clause' },
  tile_request: { status: 400, body: 'detail' },
  verdict_key_unavailable: { status: 503, body: 'detail' },
  duplicate_observation: { status: 409, body: 'detail' },
  dispute_refused: { status: 409, body: 'detail' },
  subscription_limit: { status: 409, body: 'detail' },
  body_too_large: { status: 413, body: 'detail' },
  body_budget: { status: 503, body: 'detail', headers: { 'Retry-After': '5', Connection: 'close' } },
  // The rest of a body too slow to wait for is not read: the connection closes after the answer.
  body_too_slow: { status: 408, body: 'detail', headers: { Connection: 'close' } },
  unsupported_media_type: { status: 415, body: 'detail' },
  store_unavailable: { status: 503, body: 'outage', mcp: 'outage' },
  parse_busy: { status: 503, body: 'detail', headers: { 'Retry-After': '2' }, mcp: 'sentence' },
};

export class ValidationError extends TendedError {
  constructor(readonly issues: { loc: (string | number)[]; msg: string; type: string }[]) {
    super('validation', issues.map((i) => i.msg).join('; '));
    this.name = 'ValidationError';
  }
}

export type ValidationIssue = ValidationError['issues'][number];

/** A schema library's issues (zod's shape), located under `root`: `body`, `path`, `query`. */
export function issuesUnder(
  root: string,
  issues: readonly { path: readonly PropertyKey[]; message: string; code: string }[],
): ValidationIssue[] {
  return issues.map((i) => ({
    loc: [root, ...i.path.map((p) => (typeof p === 'number' ? p : String(p)))],
    msg: i.message,
    type: i.code,
  }));
}

const MAX_ECHO = 40;

/**
 * Quotes a piece of user input for an error message. Input is cut to 40 characters so a
 * pasted file or a hostile string never fills a message or a log line, and control
 * characters are shown as `?` so the message stays one readable line.
 */
export function quoteInput(raw: string): string {
  const chars = Array.from(raw);
  const shown = chars
    .slice(0, MAX_ECHO)
    .join('')
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '?');
  return `"${shown}${chars.length > MAX_ECHO ? '…' : ''}"`;
}
