import http from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestServer } from '../helpers/server';
import { registered } from '../helpers/clients';
import { logger } from '../../src/server/logger';
import { RequestDrain } from '../../src/server/http/drain';

// A rolling restart behind a load balancer: SIGTERM → app.close() while requests are being served. Seen on
// the bench: requests whose client had hung up ran on after the database closed ("driver has already been destroyed").

interface Answer {
  status: number;
  connection?: string;
}

/** A failed request, and whether it went on a kept-alive connection (else on a new one). */
class Failed extends Error {
  constructor(
    readonly code: string,
    readonly reusedSocket: boolean,
  ) {
    super(code);
  }
}

function send(agent: http.Agent | undefined, base: string, path: string, init: { method?: string; cookie?: string; body?: string } = {}) {
  const u = new URL(base);
  const headers: http.OutgoingHttpHeaders = {};
  if (init.cookie) headers.cookie = init.cookie;
  if (init.body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(init.body);
  }
  const req = http.request({ host: u.hostname, port: u.port, path, method: init.method ?? 'GET', agent, headers });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => reject(new Failed(error.code ?? error.message, req.reusedSocket)));
  });
  req.end(init.body);
  return { req, answer };
}

/** The lines logged as errors while `run` runs (the logger writes them to stderr, which the test does not read). */
function errorsLogged(): string[] {
  const errors: string[] = [];
  vi.spyOn(logger, 'error').mockImplementation((message, error) => {
    errors.push(`${message}: ${error instanceof Error ? error.message : String(error)}`);
  });
  return errors;
}

describe('stopping under load', () => {
  afterEach(() => vi.restoreAllMocks());

  it('lets the handler of a client that hung up finish before the database closes', async () => {
    const server = await startTestServer();
    const { session } = await registered(server.url);
    // A webhook receiver that holds its answer: the test ping's handler waits on it, then records the delivery.
    let delivered = () => {};
    const held = new Promise<void>((resolve) => (delivered = resolve));
    let reached = () => {};
    const pinged = new Promise<void>((resolve) => (reached = resolve));
    const receiver = http.createServer((req, res) => {
      req.resume();
      reached();
      void held.then(() => res.end('ok'));
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const { port } = receiver.address() as { port: number };
    const hook = await session.rest('POST', '/api/webhooks', { url: `http://127.0.0.1:${port}/hook`, events: ['payment.recorded'] });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const errors = errorsLogged();

    const ping = send(undefined, server.url, `/api/webhooks/${hook.body.data.id}/test`, {
      method: 'POST',
      cookie: session.cookie,
      body: '{}',
    });
    ping.answer.catch(() => {});
    await pinged;
    ping.req.destroy(); // the client hangs up: the server has no connection left to wait for, but a handler running
    await new Promise((r) => setTimeout(r, 50));
    const events: string[] = [];
    const closed = server.app.close().then(() => events.push('closed'));
    await new Promise((r) => setTimeout(r, 200));
    events.push('delivered');
    delivered();
    await closed;
    await new Promise((r) => setTimeout(r, 300)); // before the fix the handler went on after close(): its error came here
    expect(events).toEqual(['delivered', 'closed']);
    // Before the fix: "request failed: driver has already been destroyed", the delivery's record written to no database.
    expect(errors).toEqual([]);
    await new Promise<void>((r) => receiver.close(() => r()));
    await server.close();
  });

  it('answers every request of keep-alive clients during the stop, each closing its connection, without the force timer', async () => {
    const server = await startTestServer();
    const { session } = await registered(server.url);
    const cookie = session.cookie ?? '';
    const errors = errorsLogged();
    const SOCKETS = 16;
    const agent = new http.Agent({ keepAlive: true, maxSockets: SOCKETS });
    let closeStarted = false;
    let stopping = false;
    const statuses: number[] = [];
    const afterClose: Answer[] = [];
    const lost: string[] = [];
    const client = async () => {
      while (!stopping) {
        try {
          const answer = await send(agent, server.url, '/api/customers', { cookie }).answer;
          statuses.push(answer.status);
          if (closeStarted) afterClose.push(answer);
        } catch (error) {
          // On a new connection: refused (no longer listening), or reset by the kernel (it was waiting in the listen
          // backlog when the socket closed); never accepted, a load balancer sends it elsewhere. On a kept-alive
          // connection the server had chosen to keep open: a request it failed.
          if (error instanceof Failed && !error.reusedSocket) continue;
          lost.push(error instanceof Failed ? error.code : String(error));
        }
      }
    };
    const clients = Array.from({ length: SOCKETS }, client);
    while (statuses.length < 2 * SOCKETS) await new Promise((r) => setTimeout(r, 5)); // under load: every socket busy
    const started = performance.now();
    closeStarted = true;
    await server.app.close();
    const stopMs = performance.now() - started;
    stopping = true;
    await Promise.all(clients);
    agent.destroy();

    expect(errors).toEqual([]);
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    // Draining: the answers of the stop tell the client not to reuse the connection (but one whose headers had left).
    expect(afterClose.filter((a) => a.connection === 'close').length).toBeGreaterThan(0);
    expect(lost).toEqual([]);
    expect(stopMs).toBeLessThan(5_000); // not the 10 s force timer
    await server.close();
  });
});

describe('RequestDrain', () => {
  it('refuses with a 503 and Connection: close once stopped', async () => {
    const drain = new RequestDrain();
    const server = http.createServer((_req, res) => drain.track(res, async () => void res.end('servie')));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    const base = `http://127.0.0.1:${port}`;
    const served = await fetch(base);
    expect(served.status).toBe(200);
    drain.stop();
    const refused = await fetch(base);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('connection')).toBe('close');
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toEqual({ messages: 'Serveur en cours d’arrêt : réessayez dans un instant' });
    await new Promise((r) => server.close(r));
  });

  it('waits for the handlers still running', async () => {
    const drain = new RequestDrain();
    let finish = () => {};
    const running = drain.track({ setHeader() {} } as never, () => new Promise<void>((r) => (finish = r)));
    drain.stop();
    let idle = false;
    const waiting = drain.idle().then(() => (idle = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(idle).toBe(false);
    expect(drain.inFlight).toBe(1);
    finish();
    await running;
    await waiting;
    expect(idle).toBe(true);
  });
});
