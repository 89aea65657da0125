import type { IncomingMessage } from 'node:http';

/**
 * Throws away what is left of a request body once the answer is made (a 413, 415, 401, 429 or 404
 * given before the body was read), so the client, still sending, gets that answer.
 *
 * Why this is needed: @hono/node-server wraps Node's request in a web stream as soon as the Request
 * exists, and that wrapper pauses the socket whenever its queue is full. Nobody reads the queue once
 * the answer is made, so the server's own clean-up drain stalls and, after 500 ms, closes the socket
 * with the client's bytes unread: the kernel then sends a reset that wipes the answer the client
 * was about to read ("other side closed"). Taking the wrapper's listener off and letting the rest
 * flow to nowhere (what Node itself does for a body nobody touched) lets the body end, and the
 * connection stays usable. Nothing is kept: the bytes are dropped as they arrive.
 */
export function discardUnreadBody(env: unknown): void {
  const incoming = (env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming || incoming.readableEnded || incoming.destroyed) return;
  incoming.removeAllListeners('data');
  incoming.resume();
}
