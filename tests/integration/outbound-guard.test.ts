import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered } from '../helpers/clients';
import { OUTBOUND_REFUSED, resolveOutbound, SMTP_PORTS } from '../../src/server/net/outbound-guard';
import { isInternalAddress } from '../../src/server/net/internal-address';
import { SMTP_TESTS_PER_HOUR } from '../../src/server/auth/rate-limit';
import { WEBHOOK_TARGET_REFUSED } from '../../src/server/services/webhook-delivery';

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

describe('the outbound guard (no SSRF or port scan through the SMTP test)', () => {
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
      // An address is refused when saved (400), a name when the test connects (502): with the same sentence.
      const saved = await session.rest('PUT', '/api/settings/email', { smtp_url: target });
      if (saved.status === 400) {
        answers.push(saved.body.messages);
        expect(saved.body.fields, target).toHaveProperty('smtp_url');
        continue;
      }
      expect(saved.status, target).toBe(200);
      const test = await session.rest('POST', '/api/settings/email/test');
      expect(test.status, target).toBe(502);
      answers.push(test.body.messages);
    }
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).toContain(OUTBOUND_REFUSED);
    expect(connections).toBe(0);
    expect((await fetch(`${server.url}/api/version`)).status).toBe(200);
  });

  /** 127.0.0.1, a private and a link-local address inside the IPv6 forms that carry an IPv4 address. */
  const EMBEDDED = [
    '[::7f00:1]', // IPv4-compatible
    '[::127.0.0.1]',
    '[::ffff:7f00:1]', // mapped
    '[64:ff9b::7f00:1]', // NAT64
    '[2002:7f00:1::]', // 6to4
    '[64:ff9b::a00:1]', // NAT64 of 10.0.0.1
    '[2002:a9fe:a9fe::]', // 6to4 of 169.254.169.254
    '[2001:0:7f00:1::]', // Teredo whose server is 127.0.0.1
  ];

  it('refuses IPv6 forms carrying an internal IPv4 address: a webhook when saved and when delivered, an SMTP server when saved', async () => {
    const { session, profile } = await registered(server.url);
    for (const host of EMBEDDED) {
      const url = `http://${host}:${openPort}/hook`;
      expect(await session.rest('POST', '/api/webhooks', { url, events: ['expense.created'] }), url).toMatchObject({
        status: 400,
        body: { messages: WEBHOOK_TARGET_REFUSED },
      });
    }
    expect((await session.rest('GET', '/api/webhooks')).body.total).toBe(0);

    // Saved before the guard knew these forms: refused again at delivery, before any connection.
    await server.app.connection.db
      .insertInto('webhook_endpoints')
      .values({
        organization_id: profile.organization.id,
        url: `http://[::127.0.0.1]:${openPort}/hook`,
        events: '["expense.created"]',
        secret: 'whsec_test',
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();
    const [hook] = (await session.rest('GET', '/api/webhooks')).body.data;
    const ping = await session.rest('POST', `/api/webhooks/${hook.id}/test`);
    expect(ping.body).toMatchObject({ messages: `Le test a échoué : ${WEBHOOK_TARGET_REFUSED}`, data: { status: 'failed' } });

    for (const host of EMBEDDED) {
      const saved = await session.rest('PUT', '/api/settings/email', { smtp_url: `smtp://${host}:587` });
      expect({ host, status: saved.status, messages: saved.body.messages }).toEqual({ host, status: 400, messages: OUTBOUND_REFUSED });
    }
    expect((await session.rest('GET', '/api/settings/email')).body.smtp_url).toBe('');
    expect(connections).toBe(0);
  });

  it(`limits SMTP tests to ${SMTP_TESTS_PER_HOUR} an hour per organisation`, async () => {
    const { session } = await registered(server.url);
    expect((await session.rest('PUT', '/api/settings/email', { smtp_url: 'smtp://localhost:25' })).status).toBe(200);
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
