/**
 * What unfinished request bodies may hold together (issue 34, item 4): 200 uploads of 4 MB
 * stalled before their last bytes once held 796 MB. A body's declared length (the limit, when it
 * is chunked) is reserved before a byte of it is read and given back when the body is read or its
 * connection ends; a body that would pass the total, or its client's share of it, is answered
 * 503 at once with Retry-After, and its bytes are dropped as they arrive. Small bodies (a pasted
 * check of a few lines) may use a reserve the large ones may not, so a few clients holding the
 * budget with large stalled uploads do not turn away everyone's small checks. And a body that
 * trickles in below a minimum rate is cut off with a 408.
 */
import { TendedError } from '../domain/errors.js';

export interface BodyBudgetOptions {
  /** Bytes all unfinished bodies may hold together. */
  totalBytes: number;
  /** The part of the total one client may hold (0–1). */
  clientShare: number;
  /** Bytes a second a body must keep arriving at, measured over `windowMs`, after the first window. */
  minBytesPerSecond: number;
  windowMs: number;
}

export const DEFAULT_BODY_BUDGET: BodyBudgetOptions = {
  totalBytes: 64 * 1024 * 1024,
  clientShare: 0.25,
  minBytesPerSecond: 16 * 1024,
  windowMs: 5_000,
};

/** A body this size or less is small: it may use the reserve kept from large bodies. */
export const SMALL_BODY_BYTES = 64 * 1024;
/** The part of the total kept for small bodies. */
const SMALL_RESERVE = 1 / 8;

/** The budget of unfinished bodies is spent (by all, or by this client): answered 503 with Retry-After. */
export class BodyBudgetError extends TendedError {
  constructor() {
    super(
      'body_budget',
      'Tended is receiving as many files as it can hold right now; nothing was read or kept. Send the file again in a few seconds.',
    );
    this.name = 'BodyBudgetError';
  }
}

/** A body that arrived slower than the minimum rate: answered 408 and the connection closed. */
export class BodyTooSlowError extends TendedError {
  constructor(minBytesPerSecond: number, windowMs: number) {
    super(
      'body_too_slow',
      `The body arrived slower than ${Math.round(minBytesPerSecond / 1024)} KB/s over ${windowMs / 1000} s, the least Tended waits for; nothing was kept. Send it again over a faster connection.`,
    );
    this.name = 'BodyTooSlowError';
  }
}

export class BodyBudget {
  private held = 0;
  private readonly byClient = new Map<string, number>();

  constructor(public options: BodyBudgetOptions = DEFAULT_BODY_BUDGET) {}

  /** Bytes held now by unfinished bodies. */
  get heldBytes(): number {
    return this.held;
  }

  /**
   * Reserves `bytes` for a body of `client` (null: no client known, no share applies); returns
   * the function that gives them back (once, however often it is called), or throws
   * BodyBudgetError.
   */
  reserve(client: string | null, bytes: number): () => void {
    const { totalBytes, clientShare } = this.options;
    const ceiling = bytes <= SMALL_BODY_BYTES ? totalBytes : totalBytes * (1 - SMALL_RESERVE);
    if (this.held + bytes > ceiling) throw new BodyBudgetError();
    const mine = client === null ? 0 : (this.byClient.get(client) ?? 0);
    if (client !== null && bytes > SMALL_BODY_BYTES && mine + bytes > totalBytes * clientShare)
      throw new BodyBudgetError();
    this.held += bytes;
    if (client !== null) this.byClient.set(client, mine + bytes);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held -= bytes;
      if (client === null) return;
      const left = (this.byClient.get(client) ?? bytes) - bytes;
      if (left <= 0) this.byClient.delete(client);
      else this.byClient.set(client, left);
    };
  }
}

/** The process's budget: serve sets its options from the configuration (TENDED_BODY_*). */
export const requestBodies = new BodyBudget();
