import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketHandler } from '@electric-sql/pglite-socket';

/** Frontend messages of the extended query protocol that come before their `Sync`. */
const EXTENDED = new Set(['P', 'B', 'D', 'E', 'C', 'H'].map((c) => c.charCodeAt(0)));
/** A `Sync` message: ends an extended-protocol exchange cut short by a closed connection. */
const SYNC = new Uint8Array([0x53, 0, 0, 0, 4]);

interface Pending {
  readonly handlerId: number;
  readonly message: Uint8Array;
  readonly onData: (data: Uint8Array) => void;
  readonly resolve: (bytes: number) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The order in which the socket's connections reach PGlite's one session: one message at
 * a time, and a connection keeps the session from its first extended-protocol message
 * (`Parse`, `Bind`, …) to its `Sync`, and for the whole of a transaction. The queue
 * `@electric-sql/pglite-socket` 0.2.17 ships keeps only transactions together: under
 * load, one connection's `Parse` landed between another's `Parse` and `Bind`, whose
 * unnamed statement it replaced (`08P01` in `exec_bind_message`; docs/decisions.md,
 * "Crawl jobs on the embedded database"). Its connection handler is used as it is.
 */
export class SessionQueue {
  readonly #db: PGlite;
  readonly #queue: Pending[] = [];
  #owner: number | null = null;
  #draining = false;

  constructor(db: PGlite) {
    this.#db = db;
  }

  /** Queue one message of connection `handlerId`; resolves once PGlite has answered it. */
  enqueue(
    handlerId: number,
    message: Uint8Array,
    onData: (data: Uint8Array) => void,
  ): Promise<number> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ handlerId, message, onData, resolve, reject });
      void this.#drain();
    });
  }

  /** A connection went away: drop what it still had queued. */
  clearQueueForHandler(handlerId: number): void {
    for (let i = this.#queue.length - 1; i >= 0; i -= 1) {
      const item = this.#queue[i] as Pending;
      if (item.handlerId !== handlerId) continue;
      this.#queue.splice(i, 1);
      item.reject(new Error('The connection closed'));
    }
  }

  /** A connection went away holding the session: end its exchange and transaction, free the session. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.#owner !== handlerId) return;
    await this.#db.runExclusive(() => this.#db.execProtocolRaw(SYNC));
    if (this.#db.isInTransaction()) await this.#db.exec('ROLLBACK');
    this.#owner = null;
    void this.#drain();
  }

  getQueueLength(): number {
    return this.#queue.length;
  }

  async #drain(): Promise<void> {
    if (this.#draining) return;
    this.#draining = true;
    try {
      for (;;) {
        const owner = this.#owner;
        const index = owner === null ? 0 : this.#queue.findIndex((p) => p.handlerId === owner);
        if (index === -1 || this.#queue.length === 0) return;
        const [item] = this.#queue.splice(index, 1) as [Pending];
        let bytes = 0;
        try {
          await this.#db.runExclusive(() =>
            this.#db.execProtocolRawStream(item.message, {
              onRawData: (data) => {
                bytes += data.length;
                item.onData(data);
              },
            }),
          );
          item.resolve(bytes);
        } catch (error) {
          item.reject(error);
        }
        const first = item.message[0] ?? 0;
        this.#owner = EXTENDED.has(first) || this.#db.isInTransaction() ? item.handlerId : null;
      }
    } finally {
      this.#draining = false;
    }
  }
}

/** PGlite served on a loopback port, connections in {@link SessionQueue}'s order. */
export interface EmbeddedSocket {
  /** `127.0.0.1:<port>`. */
  readonly address: string;
  close(): Promise<void>;
}

/** Serve `db` over PostgreSQL's wire protocol on a free loopback port. */
export async function serveSocket(db: PGlite, maxConnections: number): Promise<EmbeddedSocket> {
  const queue = new SessionQueue(db);
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    // The handler types its queue as the package's own class; ours has the same methods.
    const handler = new PGLiteSocketHandler({
      queryQueue: queue as unknown as ConstructorParameters<
        typeof PGLiteSocketHandler
      >[0]['queryQueue'],
      closeOnDetach: true,
    });
    handler.attach(socket).catch(() => socket.destroy());
  });
  server.maxConnections = maxConnections;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    address: `127.0.0.1:${port}`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
