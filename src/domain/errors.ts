/** Domain errors carry a sentence a person can act on; the HTTP layer maps them to status codes. */
export class ValidationError extends Error {
  constructor(readonly issues: { loc: (string | number)[]; msg: string; type: string }[]) {
    super(issues.map((i) => i.msg).join('; '));
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
