import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { newUser, Session } from '../helpers/clients';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1';

async function loginFrom(email: string, password: string, userAgent: string) {
  const session = new Session(server.url);
  const answer = await session.rest('POST', '/api/auth/login', { email, password }, { 'user-agent': userAgent });
  expect(answer.status).toBe(200);
  return session;
}

describe('Appareils (GET/DELETE /api/devices)', () => {
  it('lists the user’s sessions with browser and system, revokes one, then all others', async () => {
    const user = newUser();
    expect((await new Session(server.url).rest('POST', '/api/auth/register', user)).status).toBe(201);
    const laptop = await loginFrom(user.email, user.password, FIREFOX);
    const phone = await loginFrom(user.email, user.password, IPHONE);

    const list = (await laptop.rest('GET', '/api/devices')).body.data;
    expect(list).toHaveLength(3);
    const mine = list.find((d: { current: boolean }) => d.current);
    expect(mine).toMatchObject({ browser: 'Firefox 133', os: 'Linux', ip: '127.0.0.1' });
    expect(mine.id).toMatch(/^[0-9a-f]{16}$/);
    const iphone = list.find((d: { os: string }) => d.os === 'iOS');
    expect(iphone).toMatchObject({ browser: 'Safari 17', current: false });

    expect(await laptop.rest('DELETE', `/api/devices/${mine.id}`)).toMatchObject({
      status: 409,
      body: { messages: 'C’est l’appareil que vous utilisez : déconnectez-vous pour le fermer' },
    });
    expect(await laptop.rest('DELETE', '/api/devices/0123456789abcdef')).toMatchObject({
      status: 404,
      body: { messages: 'Appareil introuvable' },
    });
    expect(await laptop.rest('DELETE', '/api/devices/pas-un-id')).toMatchObject({ status: 400 });

    expect(await laptop.rest('DELETE', `/api/devices/${iphone.id}`)).toMatchObject({
      status: 200,
      body: { messages: 'Appareil déconnecté' },
    });
    expect((await phone.rest('GET', '/api/auth')).status).toBe(401);

    expect(await laptop.rest('DELETE', '/api/devices')).toMatchObject({ status: 200, body: { messages: '1 appareil déconnecté' } });
    expect((await laptop.rest('GET', '/api/devices')).body.data).toHaveLength(1);
    expect((await laptop.rest('GET', '/api/auth')).status).toBe(200);
  });

  it('never shows nor revokes another user’s sessions', async () => {
    const a = newUser();
    const b = newUser();
    const sa = new Session(server.url);
    const sb = new Session(server.url);
    await sa.rest('POST', '/api/auth/register', a);
    await sb.rest('POST', '/api/auth/register', b);
    const theirs = (await sb.rest('GET', '/api/devices')).body.data[0];
    expect((await sa.rest('GET', '/api/devices')).body.data.map((d: { id: string }) => d.id)).not.toContain(theirs.id);
    expect((await sa.rest('DELETE', `/api/devices/${theirs.id}`)).status).toBe(404);
    expect((await sb.rest('GET', '/api/auth')).status).toBe(200);
  });
});
