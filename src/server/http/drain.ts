import type { Server, ServerResponse } from 'node:http';
import net, { type Socket } from 'node:net';
import { SERVER_STOPPING_MESSAGE } from '../errors';
import { sendMessage } from './respond';

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
  private serving = new Set<ServerResponse>();
  private waiters: Array<() => void> = [];
  /** Each open connection and since when it waits for a request (absent while one is being served). */
  private idleSince = new Map<Socket, number>();

  /** Follows `server`'s connections, for `closeServer`. */
  watch(server: Server): void {
    server.on('connection', (socket: Socket) => {
      this.idleSince.set(socket, Date.now());
      socket.once('close', () => this.idleSince.delete(socket));
    });
    const idleSince = this.idleSince;
    // One listener for every answer (a response finishes once), not a closure made per request.
    function idleAgain(this: ServerResponse) {
      const socket = this.req?.socket;
      // A request destroyed before its answer finished (a body over its cap) has no socket any more: nothing to track.
      if (socket && !socket.destroyed) idleSince.set(socket, Date.now());
    }
    server.on('request', (req, res: ServerResponse) => {
      idleSince.delete(req.socket);
      res.on('finish', idleAgain);
    });
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
          for (const [socket, since] of this.idleSince) if (now - since >= options.idleMs) socket.destroy();
        },
        Math.max(10, options.idleMs / 4),
      );
      const force = setTimeout(() => {
        for (const socket of this.idleSince.keys()) socket.destroy();
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
    if (this.phase === 'stopped') {
      res.setHeader('Connection', 'close');
      res.setHeader('Retry-After', '1');
      sendMessage(res, 503, SERVER_STOPPING_MESSAGE);
      return Promise.resolve();
    }
    // Node ends the socket after an answer carrying this header (its `_last`): the connection is not reused.
    if (this.phase === 'draining') res.setHeader('Connection', 'close');
    this.serving.add(res);
    return serve().finally(() => {
      this.serving.delete(res);
      if (this.serving.size === 0) for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** From now on every answer closes its connection, those being prepared too. */
  drain(): void {
    if (this.phase !== 'serving') return;
    this.phase = 'draining';
    for (const res of this.serving) if (!res.headersSent) res.setHeader('Connection', 'close');
  }

  /** From now on requests are refused: the database is about to close. */
  stop(): void {
    this.phase = 'stopped';
  }

  /** Resolves once no handler runs (at once if none does). */
  idle(): Promise<void> {
    if (this.serving.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  get inFlight(): number {
    return this.serving.size;
  }
}
