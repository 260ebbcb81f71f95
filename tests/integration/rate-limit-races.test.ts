import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../src/server/app';
import { clock } from '../../src/server/clock';
import { newUser, registered, Session } from '../helpers/clients';
import { draft, line, readyToInvoice } from '../helpers/documents';
import { testDatabaseUrl } from '../helpers/postgres';
import { removeTestEnv, startTestServer, type TestServer, testEnv } from '../helpers/server';

/**
 * The limits hold when the attempts come all at once: each one is counted before the work it limits (a login's
 * password check), atomically against the limit, so parallel requests cannot all read "below the limit" first.
 * The test server's peer is the loopback, a trusted proxy: X-Forwarded-For sets the client address.
 */
const LOCKED = 'Trop de tentatives de connexion. Réessayez dans 15 minutes.';
const WRONG = 'Adresse e-mail ou mot de passe incorrect';

type Answer = { status: number; message: string };

async function login(url: string, email: string, password: string, ip: string): Promise<Answer> {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ email, password }),
  });
  const body = (await response.json()) as { messages?: string };
  return { status: response.status, message: String(body.messages ?? '') };
}

const count = (answers: Answer[], status: number) => answers.filter((a) => a.status === status).length;

afterEach(() => {
  clock.now = () => new Date();
});

describe('login limits under parallel attempts (defaults: 10 per e-mail and IP, 50 per IP)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('30 wrong passwords at once for one e-mail: 3 free tries, then one per waiting delay, 10 in all', async () => {
    const { user } = await registered(server.url);
    const t0 = Date.now();
    const burst = async (at: number) => {
      clock.now = () => new Date(at);
      return Promise.all(Array.from({ length: 30 }, () => login(server.url, user.email, 'mauvais', '203.0.113.30')));
    };
    const first = await burst(t0);
    // The fourth try must wait 1 s after the third: in a burst only the three free ones reach the password check.
    expect([count(first, 401), count(first, 429)]).toEqual([3, 27]);
    expect(first.filter((a) => a.status === 429).map((a) => a.message)).toEqual(
      Array(27).fill('Trop de tentatives de connexion. Réessayez dans 1 s.'),
    );
    // Each later burst comes after the longest delay (a minute): exactly one try of it is let through, up to the limit.
    for (let round = 1; round <= 7; round++) expect(count(await burst(t0 + round * 61_000), 401)).toBe(1);
    const locked = await burst(t0 + 8 * 61_000);
    expect(locked.map((a) => [a.status, a.message])).toEqual(Array(30).fill([429, LOCKED]));
    // Even the right password waits for the window's end.
    expect((await login(server.url, user.email, user.password, '203.0.113.30')).status).toBe(429);
  });

  it('500 wrong logins at once from one IP over 500 e-mails: exactly 50 × 401, then 450 × 429', async () => {
    const answers = await Promise.all(
      Array.from({ length: 500 }, (_, i) => login(server.url, `inconnu${i}@exemple.fr`, 'mauvais', '198.51.100.50')),
    );
    expect(count(answers, 401)).toBe(50);
    expect(answers.filter((a) => a.status !== 401).map((a) => [a.status, a.message])).toEqual(Array(450).fill([429, LOCKED]));
    // Another address is another client.
    expect(await login(server.url, 'inconnu@exemple.fr', 'mauvais', '198.51.100.51')).toEqual({ status: 401, message: WRONG });
  });
});

describe('login limits by client address', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { LOGIN_MAX_FAILURES_PER_IP: '5' } });
  });
  afterAll(() => server.close());

  it('addresses rotating inside one IPv6 /64 are one client; the next /64 is another', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      // The same /64 written every way: leading zeros, upper case, compressed or not.
      const ip = i % 2 === 0 ? `2001:db8:7:0:${i.toString(16)}:${(i * 4099).toString(16)}::${i + 1}` : `2001:0DB8:0007:0000::${i}`;
      statuses.push((await login(server.url, `rotation${i}@exemple.fr`, 'mauvais', ip)).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    expect((await login(server.url, 'rotation@exemple.fr', 'mauvais', '2001:db8:7:1::1')).status).toBe(401);
  });

  it('rotating inside the /64 does not reset the waiting delays of one e-mail either', async () => {
    const { user } = await registered(server.url);
    const t0 = Date.now();
    clock.now = () => new Date(t0);
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i++) statuses.push((await login(server.url, user.email, 'mauvais', `2001:db8:8:0:${i}::${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });

  it('IPv4 addresses stay one client each, written plain or mapped into IPv6', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const ip = i % 2 === 0 ? '192.0.2.10' : '::ffff:192.0.2.10';
      statuses.push((await login(server.url, `v4-${i}@exemple.fr`, 'mauvais', ip)).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await login(server.url, 'v4@exemple.fr', 'mauvais', '192.0.2.11')).status).toBe(401);
  });

  it('the right password after a few failures logs in, clears them and gives its reservation back', async () => {
    const { user } = await registered(server.url);
    const ip = '192.0.2.20';
    for (let i = 0; i < 2; i++) expect((await login(server.url, user.email, 'mauvais', ip)).status).toBe(401);
    // Logging in counts as an attempt while the password is checked, never once it succeeded: ten of them leave room.
    for (let i = 0; i < 10; i++) expect((await login(server.url, user.email, user.password, ip)).status).toBe(200);
    // The two failures still count against the address (5): three more, then locked.
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await login(server.url, `autre${i}@exemple.fr`, 'mauvais', ip)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});

describe('registrations under parallel requests', () => {
  it('10 at once from addresses rotating inside one IPv6 /64: exactly REGISTER_MAX_PER_HOUR accounts', async () => {
    const server = await startTestServer({ env: { REGISTER_MAX_PER_HOUR: '3' } });
    try {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          new Session(server.url).rest('POST', '/api/auth/register', newUser(), { 'x-forwarded-for': `2001:db8:9:9:${i}::1` }),
        ),
      );
      expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
      expect(answers.filter((a) => a.status === 429).map((a) => a.body.messages)).toEqual(
        Array(7).fill('Trop d’inscriptions depuis cette adresse. Réessayez dans une heure.'),
      );
    } finally {
      await server.close();
    }
  });
});

describe('heavy writes under parallel requests', () => {
  it('40 copies at once from one session: exactly 30 done, the others refused', async () => {
    const server = await startTestServer();
    try {
      const { session } = await registered(server.url);
      const { customerId } = await readyToInvoice(session);
      const original = await draft(session, { customer_id: customerId, items: [line('Conseil', 1, 100)] });
      const answers = await Promise.all(Array.from({ length: 40 }, () => session.rest('POST', `/api/documents/${original.id}/duplicate`)));
      expect(answers.filter((a) => a.status === 201)).toHaveLength(30);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(10);
    } finally {
      await server.close();
    }
  });
});

describe.skipIf(!testDatabaseUrl())('two app instances on one PostgreSQL database', () => {
  let apps: App[] = [];
  let urls: string[] = [];
  let cleanup = () => {};
  beforeAll(async () => {
    const { env, dataDir } = testEnv({ LOGIN_MAX_FAILURES_PER_IP: '20' });
    cleanup = () => removeTestEnv(env, dataDir);
    // One after the other: the first migrates, the second finds it done.
    for (let i = 0; i < 2; i++) apps.push(await createApp(env, { archiveOnIssue: false }));
    urls = await Promise.all(apps.map((app) => app.listen()));
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    apps = [];
    cleanup();
  });

  it('share the counts: bursts spread over both are limited as on one', async () => {
    const { user } = await registered(urls[0] as string);
    const on = (i: number) => urls[i % 2] as string;
    const pair = await Promise.all(Array.from({ length: 30 }, (_, i) => login(on(i), user.email, 'mauvais', '203.0.113.60')));
    expect([count(pair, 401), count(pair, 429)]).toEqual([3, 27]);
    // Per IP: 17 of the 20 remain after the 3 failures above.
    const ip = await Promise.all(Array.from({ length: 60 }, (_, i) => login(on(i), `x${i}@exemple.fr`, 'mauvais', '203.0.113.60')));
    expect([count(ip, 401), count(ip, 429)]).toEqual([17, 43]);
    // The right password still works from another address.
    const session = new Session(on(1));
    expect((await session.rest('POST', '/api/auth/login', { email: user.email, password: user.password })).status).toBe(200);
  });
});
