/** Pieces every reader uses to turn HTTP answers into a Reading the same way. */
import { isRfc3339Instant, utcDateOf } from '../domain/calendar.js';
import type { EvidenceValue } from '../domain/observation.js';
import type { Signals } from '../domain/state.js';
import { NOT_SENT, type Answer } from './http/answer.js';
import { messageOf } from './http/response-body.js';
import type { Reading } from './source.js';

export type Unreachable = Extract<Answer<never>, { kind: 'unreachable' }>;
export type StatusAnswer = Extract<Answer<never>, { kind: 'status' }>;
export type FactsAnswer<F> = Extract<Answer<F>, { kind: 'facts' }>;

/** An answer without facts, already made into the reader's finished Reading. */
export interface Settled {
  kind: 'settled';
  reading: Reading;
}

/** What a reader makes of one answer: the signals and the evidence they rest on. */
export interface Verdict {
  signals: Signals;
  evidence: Record<string, EvidenceValue>;
}

/** A failed read: not_observed, with why and where, and whatever was read before it. */
export function unreachableReading(
  answer: Unreachable,
  method: string,
  before: Record<string, EvidenceValue> = {},
): Reading {
  return {
    signals: { unreachable: answer.reason },
    source: answer.url,
    evidence: { ...before, ...answer.evidence, unreachable: answer.reason, ...redirectEvidence(answer.redirects) },
    method,
  };
}

/**
 * The opening every reader shares for its first request: an unreachable answer is a failed read;
 * any other status is what the reader's own rule makes of it (its classify-response.ts, where a
 * not-found stands only when it is the registry's own, not-found.ts), kept with the redirects
 * that led there; a 200 or 304 is handed back for the reader to read its facts.
 */
export function factsOrReading<F>(
  answer: Answer<F>,
  method: string,
  classify: (answer: StatusAnswer) => Verdict,
): FactsAnswer<F> | Settled {
  if (answer.kind === 'unreachable') return { kind: 'settled', reading: unreachableReading(answer, method) };
  if (answer.kind === 'status') {
    const v = classify(answer);
    return {
      kind: 'settled',
      reading: {
        signals: v.signals,
        source: answer.url,
        evidence: { ...v.evidence, ...redirectEvidence(answer.redirects) },
        method,
      },
    };
  }
  return answer;
}

/**
 * An answer no reader rule covers (a 400, a 410, a 202…). It asserts nothing: only the
 * statuses each upstream documents as "gone" may make a death.
 */
export function unexpectedStatus(answer: StatusAnswer): Verdict {
  const reason = answer.status >= 500 ? 'server_error' : 'unparsable';
  return {
    signals: { unreachable: reason },
    evidence: {
      http_status: answer.status,
      message: messageOf(answer.body, answer.text),
      unreachable: reason,
      error: `HTTP ${answer.status} is not an answer this reader interprets`,
    },
  };
}

export function redirectEvidence(
  redirects: { status: number; from: string; to: string }[],
): Record<string, EvidenceValue> {
  return redirects.length === 0
    ? {}
    : { redirects: redirects.map((r) => ({ status: r.status, from: r.from, to: r.to })) };
}

/** An RFC 3339 instant from an upstream field, or null (a missing or garbled date is no date). */
export function instant(v: unknown): string | null {
  return typeof v === 'string' && isRfc3339Instant(v) ? v : null;
}

/** The latest of some instants (compared as times, not as strings: offsets and fractions differ). */
export function latestInstant(values: Iterable<string | null | undefined>): string | null {
  let best: string | null = null;
  let bestMs = -Infinity;
  for (const v of values) {
    const s = instant(v);
    if (s === null) continue;
    const ms = Date.parse(s);
    if (!Number.isNaN(ms) && ms > bestMs) {
      best = s;
      bestMs = ms;
    }
  }
  return best;
}

/**
 * Activity dates are set by clients and can lie about the future (research §1.2); a date after
 * the observation date counts as activity on that date, and the evidence keeps the raw date.
 */
export function activityAsOf(
  at: string | null,
  today: string,
): { lastActivity: string | null; evidence: Record<string, EvidenceValue> } {
  if (at === null) return { lastActivity: null, evidence: {} };
  if (utcDateOf(at) > today) return { lastActivity: `${today}T00:00:00Z`, evidence: { activity_in_future: true } };
  return { lastActivity: at, evidence: {} };
}

/** A short excerpt of an error body for the record. */
export function excerpt(answer: StatusAnswer): string {
  return messageOf(answer.body, answer.text);
}

/**
 * When a reading failed only because a request was never sent (its upstream asked every reader to
 * wait, DESIGN §3 "Rate limits defer"): the instant the hold ends. Such a reading is no
 * observation: nothing was asked, so nothing was seen. Null for every other reading, the one that
 * met the 403/429 included.
 */
export function heldBackUntil(reading: Reading): string | null {
  if (reading.signals.unreachable !== 'rate_limited') return null;
  const why = reading.evidence['rate_limited'];
  const until = reading.evidence['rate_limited_until'];
  return typeof why === 'string' && why.startsWith(NOT_SENT) && typeof until === 'string' && isRfc3339Instant(until)
    ? until
    : null;
}
