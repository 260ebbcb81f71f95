import type { Server, ServerResponse } from 'node:http';
import net, { type Socket } from 'node:net';
import { SERVER_STOPPING_MESSAGE } from '../errors';
import { sendMessage } from './respond';

/** Where a connection notes since when it waits for its next request (Date.now()), or SERVING. */
const IDLE_SINCE = Symbol('idleSince');
const SERVING = Number.POSITIVE_INFINITY;
type TrackedSocket = Socket & { [IDLE_SINCE]?: number };

/**
 * The requests a server is serving, for a graceful stop behind a load balancer. `server.close()` resolves once the
 * sockets are gone, not the handlers: a client that hangs up (autocannon at the end of its run, a proxy's timeout)
 * leaves its handler running, and closing the database under it failed it ("driver has already been destroyed").
 * So the stop waits for `idle()` too. While draining, each answer says `Connection: close`, so that a keep-alive
 * client sends its next request to another process instead of keeping this one busy until the force timer; once
 * the database is closing, a request that still comes in gets a clean 503 instead of a 500.
 */
export class RequestDrain {
  private phase: 'serving' | 'draining' | 'stopped' = 'serving';
  /**
   * The handlers running: counted. A set of their responses, emptied by a `.finally()` on each (two closures and
   * three promises a request), cost about 2 µs of CPU per kept answer, a twentieth of it.
   */
  private running = 0;
  private waiters: Array<() => void> = [];
  /** Once an answer's handler settles: one function for every request, not a closure made per request. */
  private readonly settled = () => {
    this.running--;
    if (this.running === 0 && this.waiters.length > 0) for (const wake of this.waiters.splice(0)) wake();
  };
  /**
   * The open connections, each holding since when it waits for a request (`IDLE_SINCE`, infinite while one is being
   * served). On the socket rather than in a map of sockets: a delete and a set in such a map on every request cost
   * about 2 µs of CPU per kept answer, a twentieth of it (`npm run bench -- scale`); the set changes only as
   * connections open and close.
   */
  private readonly sockets = new Set<TrackedSocket>();
  private watching = false;

  /** Follows `server`'s connections, for `closeServer`; its answers report their end through `answered`. */
  watch(server: Server): void {
    this.watching = true;
    server.on('connection', (socket: TrackedSocket) => {
      socket[IDLE_SINCE] = Date.now();
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  /** The answer of `res` has ended: its connection waits for its next request from now. */
  answered(res: ServerResponse): void {
    const socket: TrackedSocket | undefined = res.req?.socket;
    // A request destroyed before its answer finished (a body over its cap) has no socket any more: nothing to track.
    if (this.watching && socket && !socket.destroyed) socket[IDLE_SINCE] = Date.now();
  }

  /**
   * Stops listening and resolves once every connection is gone, `forceMs` at most. Not `server.close()`: since Node 19
   * it destroys every idle keep-alive socket at once, and a client that had just written its next request on one
   * gets a reset (a POST a load balancer does not retry). Here a socket answered during the drain closes after its
   * answer (Connection: close); one idle for `idleMs` is closed, a client reusing a socket at once is still served.
   */
  closeServer(server: Server, options: { idleMs: number; forceMs: number }): Promise<void> {
    this.drain();
    return new Promise((resolve) => {
      const sweep = setInterval(
        () => {
          const now = Date.now();
          for (const socket of this.sockets) if (now - (socket[IDLE_SINCE] ?? now) >= options.idleMs) socket.destroy();
        },
        Math.max(10, options.idleMs / 4),
      );
      const force = setTimeout(() => {
        for (const socket of this.sockets) if (socket[IDLE_SINCE] !== SERVING) socket.destroy();
        server.closeAllConnections();
      }, options.forceMs);
      net.Server.prototype.close.call(server, () => {
        clearInterval(sweep);
        clearTimeout(force);
        resolve();
      });
    });
  }

  /** Serves the request through `serve`, or refuses it (503) once the stop is past the point of serving. */
  track(res: ServerResponse, serve: () => Promise<void>): Promise<void> {
    const socket: TrackedSocket | undefined = res.req?.socket;
    if (this.watching && socket) socket[IDLE_SINCE] = SERVING;
    if (this.phase === 'stopped') {
      res.setHeader('Connection', 'close');
      res.setHeader('Retry-After', '1');
      sendMessage(res, 503, SERVER_STOPPING_MESSAGE);
      return Promise.resolve();
    }
    this.running++;
    const served = serve();
    served.then(this.settled, this.settled);
    return served;
  }

  /**
   * Whether answers now close their connection: from the drain on, every answer says `Connection: close`, those being
   * prepared too (AppResponse adds it to its status line; Node then ends the socket after the answer, its `_last`), so
   * that a keep-alive client sends its next request to another process.
   */
  get closesConnections(): boolean {
    return this.phase !== 'serving';
  }

  /** From now on every answer closes its connection, those being prepared too (`closesConnections`). */
  drain(): void {
    if (this.phase === 'serving') this.phase = 'draining';
  }

  /** From now on requests are refused: the database is about to close. */
  stop(): void {
    this.phase = 'stopped';
  }

  /** Resolves once no handler runs (at once if none does). */
  idle(): Promise<void> {
    if (this.running === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  get inFlight(): number {
    return this.running;
  }
}
