import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered } from '../helpers/clients';
import { isInternalAddress, OUTBOUND_REFUSED, resolveOutbound, SMTP_PORTS } from '../../src/server/net/outbound-guard';
import { SMTP_TESTS_PER_HOUR } from '../../src/server/auth/rate-limit';

let server: TestServer;
let open: net.Server;
let openPort: number;
let connections = 0;
beforeAll(async () => {
  // What production runs with: no private addresses, mail ports only.
  server = await startTestServer({ env: { OUTBOUND_ALLOW_PRIVATE: 'false' } });
  open = net.createServer((socket) => {
    connections += 1;
    socket.end('220 interne ESMTP\r\n');
  });
  await new Promise<void>((resolve) => open.listen(0, '127.0.0.1', resolve));
  openPort = (open.address() as net.AddressInfo).port;
});
afterAll(async () => {
  open.close();
  await server.close();
});

describe('the outbound guard (issue 20: no SSRF or port scan through the SMTP test)', () => {
  it('open, closed and metadata targets answer the same French sentence, and no connection is made', async () => {
    const { session } = await registered(server.url);
    const closed = await new Promise<number>((resolve) => {
      const probe = net.createServer();
      probe.listen(0, '127.0.0.1', () => {
        const port = (probe.address() as net.AddressInfo).port;
        probe.close(() => resolve(port));
      });
    });
    const answers: string[] = [];
    for (const target of [
      `smtp://127.0.0.1:${openPort}`,
      `smtp://127.0.0.1:${closed}`,
      'smtp://169.254.169.254:25',
      'smtp://[::1]:587',
      'smtp://10.1.2.3:587',
      'smtp://localhost:465',
      'smtp://nexistepas.invalid:587',
    ]) {
      const saved = await session.rest('PUT', '/api/settings/email', { smtp_url: target });
      expect(saved.status).toBe(200);
      const test = await session.rest('POST', '/api/settings/email/test');
      expect(test.status).toBe(502);
      answers.push(test.body.messages);
    }
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).toContain(OUTBOUND_REFUSED);
    expect(connections).toBe(0);
    expect((await fetch(`${server.url}/api/version`)).status).toBe(200);
  });

  it(`limits SMTP tests to ${SMTP_TESTS_PER_HOUR} an hour per organisation`, async () => {
    const { session } = await registered(server.url);
    await session.rest('PUT', '/api/settings/email', { smtp_url: 'smtp://127.0.0.1:25' });
    const statuses: number[] = [];
    for (let i = 0; i <= SMTP_TESTS_PER_HOUR; i++) statuses.push((await session.rest('POST', '/api/settings/email/test')).status);
    expect(statuses.slice(0, SMTP_TESTS_PER_HOUR).every((s) => s === 502)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['10.0.0.1', true],
    ['172.31.255.255', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['fe80::1', true],
    ['fd00:ec2::254', true],
    ['172.32.0.1', false],
    ['93.184.216.34', false],
    ['2a00:1450:4007:80e::2005', false],
  ])('isInternalAddress(%s) = %s', (address, internal) => {
    expect(isInternalAddress(address)).toBe(internal);
  });

  it('refuses a public address on a port that is not a mail port, and allows everything when told to (tests)', async () => {
    const policy = { allowPrivate: false, ports: SMTP_PORTS };
    await expect(resolveOutbound('93.184.216.34', 22, policy)).rejects.toThrow(OUTBOUND_REFUSED);
    await expect(resolveOutbound('93.184.216.34', 587, policy)).resolves.toBe('93.184.216.34');
    await expect(resolveOutbound('127.0.0.1', 2525, { allowPrivate: true, ports: SMTP_PORTS })).resolves.toBe('127.0.0.1');
  });
});
