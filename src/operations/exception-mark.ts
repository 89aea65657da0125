/**
 * What a result carries once a policy's exception names it (docs/cli.md "The policy file"), in
 * words every report shares: the CLI's table, Markdown and SARIF, and the /check page's SARIF.
 */
import type { ComponentCheck } from './check-components.js';

/** What a result carries once an exception names it: in the JSON report as `exception`, and in words in the others. */
export interface ExceptionMark {
  /** The exception's component, as the policy wrote it. */
  component: string;
  reason: string;
  expires: string;
  /** `excepted`: it no longer fails the gate; `expired`: it fails it, named by its exception. */
  status: 'excepted' | 'expired';
  /** Where the policy says it: `.tended.yml line 9`. */
  policy: string;
}

export type Marked = ComponentCheck & { exception?: ExceptionMark };

export function exceptionOf(r: ComponentCheck): ExceptionMark | undefined {
  return (r as Marked).exception;
}

/** `excepted until 2027-03-31: waiting for v5`, or `exception expired on 2026-10-01: …`. */
export function exceptionInWords(mark: ExceptionMark): string {
  return mark.status === 'excepted'
    ? `excepted until ${mark.expires}: ${mark.reason}`
    : `exception expired on ${mark.expires}: ${mark.reason}`;
}
