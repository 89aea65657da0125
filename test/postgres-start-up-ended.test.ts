import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../src/storage/postgres/open.js';
import { StoreUnavailableError } from '../src/storage/store-errors.js';

/**
 * A PostgreSQL server shutting down can end a connection in the very packet that completes its
 * start-up: ReadyForQuery and a FATAL 57P01 arrive together, before the pool's caller holds the
 * connection. CI saw a worker die of it ("Unhandled 'error' event") when PostgreSQL restarted under
 * load. A real server cannot be made to do it on cue, so this one speaks the protocol's bytes.
 */
function message(type: string, body: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length + 4);
  return Buffer.concat([Buffer.from(type), length, body]);
}

const fields = (pairs: [string, string][]) =>
  Buffer.concat([...pairs.map(([k, v]) => Buffer.from(`${k}${v}\0`)), Buffer.from('\0')]);

const START_UP_THEN_TERMINATED = Buffer.concat([
  message('R', Buffer.from([0, 0, 0, 0])), // AuthenticationOk
  message('Z', Buffer.from('I')), // ReadyForQuery: the start-up is complete
  message(
    'E',
    fields([
      ['S', 'FATAL'],
      ['V', 'FATAL'],
      ['C', '57P01'],
      ['M', 'terminating connection due to administrator command'],
    ]),
  ),
]);

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

describe('a PostgreSQL connection ended as its start-up completes', () => {
  it('is a store that is unavailable, and the process lives on', async () => {
    const sockets: Socket[] = [];
    server = createServer((socket) => {
      sockets.push(socket);
      // The first thing a client sends is its StartupMessage; one packet answers it whole.
      socket.once('data', () => socket.end(START_UP_THEN_TERMINATED));
      socket.on('error', () => {});
    });
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
    const { port } = server.address() as { port: number };
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const opening = openPostgresStore(`postgres://tended@127.0.0.1:${port}/tended`, { max: 1 });
      await expect(opening).rejects.toBeInstanceOf(StoreUnavailableError);
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      process.off('uncaughtException', onUncaught);
      for (const s of sockets) s.destroy();
    }
    expect(uncaught).toEqual([]);
    expect(sockets.length).toBeGreaterThan(0);
  });
});
