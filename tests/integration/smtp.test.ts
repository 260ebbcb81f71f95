import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { startTestServer, type TestServer } from '../helpers/server';
import { newUser, Session } from '../helpers/clients';
import { defined } from '../../src/shared/defined';

/** With SMTP_URL set, mail really leaves through SMTP: here to a real SMTP server on loopback. */
describe('mail over SMTP', () => {
  const received: { from: string; to: string[]; data: string }[] = [];
  let smtp: SMTPServer;
  let server: TestServer;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (c: Buffer) => (data += c.toString()));
        stream.on('end', () => {
          received.push({
            from: String(session.envelope.mailFrom ? session.envelope.mailFrom.address : false),
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    server = await startTestServer({
      env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Facturier <factures@exemple.fr>', APP_URL: 'https://factures.exemple.fr' },
    });
  });
  afterAll(async () => {
    await server.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('sends the verification mail at registration and the reset mail on request, with links on APP_URL', async () => {
    const user = newUser();
    const session = new Session(server.url);
    expect((await session.rest('POST', '/api/auth/register', user)).status).toBe(201);
    await session.rest('POST', '/api/auth/password/forgot', { email: user.email });
    const mine = received.filter((m) => m.to.includes(user.email));
    expect(mine).toHaveLength(2);
    expect(defined(mine[0], 'mine[0]').from).toBe('factures@exemple.fr');
    const unfolded = mine.map((m) => m.data.replace(/=\r?\n/g, '').replace(/=3D/g, '='));
    expect(unfolded[0]).toMatch(/https:\/\/factures\.exemple\.fr\/auth\/verify_email\?token=[a-z2-7]{52}/);
    expect(unfolded[1]).toMatch(/https:\/\/factures\.exemple\.fr\/auth\/password\/reset\?token=[a-z2-7]{52}/);
  });
});
