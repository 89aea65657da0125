/**
 * The exit codes of `tended`, what a CI step branches on (docs/cli.md "Exit codes", `tended help`,
 * the GitHub Action). A job must tell apart "the components failed the gate" from "I called it
 * wrong" from "the thing it asks was not there": only the last is worth running again unchanged.
 */
export const EXIT = {
  /** Done; for `check`, no component is in a failing state. */
  ok: 0,
  /** The answer is no: `check`'s gate failed, the log does not verify, nothing was imported, a verdict is not valid. */
  failed: 1,
  /** A usage error: an unknown command or option, a bad argument or file, an invalid configuration, a --url that is no Tended service. */
  usage: 2,
  /** What the command needs did not answer (the database, or the service at --url): nothing was checked; run it again once it is up. */
  unavailable: 3,
} as const;
