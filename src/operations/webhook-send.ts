import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { EndpointRefusedError, resolveEndpoint } from './webhook-address.js';

/** What a receiver may answer that is read at all: enough for a status line's worth, never stored. */
const RESPONSE_READ_CAP = 4_096;

export interface SendOptions {
  /** TENDED_WEBHOOK_ALLOW_PRIVATE: loopback and private addresses (and plain http) allowed. */
  allowPrivate: boolean;
  /** The whole exchange, connection to the end of the answer's first bytes. */
  timeoutMs: number;
}

export type SendOutcome = { ok: true; status: number } | { ok: false; reason: string };

/**
 * POSTs one delivery. The endpoint's host is resolved and checked here, at each send, and the
 * connection is made to that very address (the request's lookup answers with it), so a name that
 * resolves to a public address when checked and a private one when connecting (DNS rebinding)
 * cannot reach the private one. Redirects are not followed (a 3xx is a failure: the subscriber
 * should name the final URL); the answer's body is read to a small cap and dropped.
 */
export async function postWebhook(
  endpoint: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<SendOutcome> {
  const url = new URL(endpoint);
  if (url.protocol !== 'https:' && !(options.allowPrivate && url.protocol === 'http:'))
    return { ok: false, reason: `refused: ${url.protocol} endpoints are not allowed` };
  let pinned: Awaited<ReturnType<typeof resolveEndpoint>>;
  try {
    pinned = await resolveEndpoint(url, options.allowPrivate);
  } catch (error) {
    if (error instanceof EndpointRefusedError) return { ok: false, reason: `refused: ${error.message}` };
    throw error;
  }
  const lookup: LookupFunction = (_host, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  const payload = Buffer.from(body);
  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const settle = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      url,
      {
        method: 'POST',
        lookup,
        agent: false,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(payload.byteLength),
          'user-agent': 'Tended-Webhooks/1 (+https://www.standardwebhooks.com/)',
        },
      },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.byteLength;
          if (read > RESPONSE_READ_CAP) res.destroy();
        });
        const done = () =>
          settle(status >= 200 && status < 300 ? { ok: true, status } : { ok: false, reason: `HTTP ${status}` });
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      settle({ ok: false, reason: `no answer within ${options.timeoutMs / 1000} s` });
      req.destroy();
    }, options.timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) =>
      settle({ ok: false, reason: `network: ${error.code ?? error.message}`.slice(0, 200) }),
    );
    req.end(payload);
  });
}
