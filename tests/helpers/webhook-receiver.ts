import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A real HTTP receiver on 127.0.0.1: records what it gets, answers what `reply` says for each path. */
export class Receiver {
  received: Received[] = [];
  reply: (path: string, count: number) => { status: number; body?: string; headers?: Record<string, string> } = () => ({
    status: 200,
    body: 'ok',
  });
  private server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const path = req.url ?? '';
      this.received.push({ path, headers: req.headers, body });
      const answer = this.reply(path, this.received.filter((r) => r.path === path).length);
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body ?? '');
    });
  });
  url = '';
  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  at(path: string) {
    return this.received.filter((r) => r.path === path);
  }
  close() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
