import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TRPCClientError } from '@trpc/client';
import type { AppRouter } from '../../src/server/routers/_app';
import { withServerDb } from '../helpers/database';
import { startTestServer, type TestServer } from '../helpers/server';
import { newUser, registered, Session } from '../helpers/clients';
import { clock } from '../../src/server/clock';
import { defined } from '../../src/shared/defined';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { LOGIN_MAX_FAILURES: '3', RESET_MAIL_MAX_PER_HOUR: '2' } });
});
afterAll(() => server.close());
afterEach(() => {
  clock.now = () => new Date();
});

const outbox = () => path.join(server.dataDir, 'outbox');
function mailsTo(email: string): string[] {
  if (!fs.existsSync(outbox())) return [];
  return fs
    .readdirSync(outbox())
    .sort()
    .map((f) => unfoldQuotedPrintable(fs.readFileSync(path.join(outbox(), f), 'utf8')))
    .filter((m) => m.includes(`To: ${email}`));
}
/** Quoted-printable folds long lines and escapes '=': undo both so links read as sent. */
function unfoldQuotedPrintable(mail: string): string {
  return mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
}
function tokenIn(mail: string, route: string): string {
  const match = mail.match(new RegExp(`${route}\\?token=([a-z2-7]+)`));
  if (!match) throw new Error(`no ${route} link in mail`);
  return defined(match[1], 'match[1]');
}

describe('register (POST /api/auth/register)', () => {
  it('answers 201 with the user, sets the session cookie, and never shows the password hash', async () => {
    const session = new Session(server.url);
    const user = newUser({ email: 'Jeanne.Martin@Exemple.FR' });
    const answer = await session.rest('POST', '/api/auth/register', user);
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ first_name: 'Camille', last_name: 'Durand', email: 'jeanne.martin@exemple.fr', role: 'owner' });
    expect(answer.body.organization.name).toBe('Durand Conseil SARL');
    expect(JSON.stringify(answer.body)).not.toMatch(/password|argon/);
    const cookie = defined(answer.headers.getSetCookie()[0], 'answer.headers.getSetCookie()[0]');
    expect(cookie).toMatch(/^session=[a-z2-7]{52};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/');
    expect(cookie).not.toContain('Secure');
    expect((await session.rest('GET', '/api/auth')).body.email).toBe('jeanne.martin@exemple.fr');
  });

  it('stores the owner membership, the default settings, an argon2id hash and only a SHA-256 of the token', async () => {
    const { session, user } = await registered(server.url);
    const { row, membership, stored } = await withServerDb(server, async (db) => {
      const row = await db.selectFrom('users').select(['id', 'password_hash']).where('email', '=', user.email).executeTakeFirstOrThrow();
      const membership = await db.selectFrom('memberships').select('role').where('user_id', '=', row.id).executeTakeFirstOrThrow();
      const stored = await db.selectFrom('sessions').select('id').where('user_id', '=', row.id).execute();
      return { row, membership, stored };
    });
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(membership.role).toBe('owner');
    const token = defined(defined(session.cookie, 'session.cookie').split('=')[1]);
    expect(stored).toHaveLength(1);
    expect(defined(stored[0], 'stored[0]').id).toMatch(/^[0-9a-f]{64}$/);
    expect(defined(stored[0], 'stored[0]').id).not.toContain(token);
  });

  it('refuses a second account on the same address, whatever its case, with 409', async () => {
    const { user } = await registered(server.url);
    const again = await new Session(server.url).rest('POST', '/api/auth/register', { ...user, email: user.email.toUpperCase() });
    expect(again.status).toBe(409);
    expect(again.body.messages).toBe('Un compte existe déjà avec cette adresse e-mail');
  });

  it('works through the typed tRPC client too (one procedure, two doors)', async () => {
    const session = new Session(server.url);
    const trpc = session.trpc();
    const user = await trpc.auth.register.mutate(newUser());
    expect(user.role).toBe('owner');
    const me = await trpc.auth.me.query();
    expect(me).toEqual(user);
    expect((await session.rest('GET', '/api/auth')).body).toEqual(user);
  });
});

describe('login, current user, logout', () => {
  it('logs in with the right password (any case of the address) and answers the user', async () => {
    const { user } = await registered(server.url);
    const session = new Session(server.url);
    const answer = await session.rest('POST', '/api/auth/login', { email: user.email.toUpperCase(), password: user.password });
    expect(answer.status).toBe(200);
    expect(answer.body.email).toBe(user.email);
    expect((await session.rest('GET', '/api/auth')).status).toBe(200);
  });

  it.each([
    ['a wrong password', (u: { email: string }) => ({ email: u.email, password: 'pas-le-bon' })],
    ['an unknown address', () => ({ email: 'personne@exemple.fr', password: 'motdepasse-solide' })],
  ])('answers 401 with one French message for %s', async (_label, body) => {
    const { user } = await registered(server.url);
    const answer = await new Session(server.url).rest('POST', '/api/auth/login', body(user));
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ messages: 'Adresse e-mail ou mot de passe incorrect' });
  });

  it('GET /api/auth is 401 without a session, through both doors', async () => {
    const session = new Session(server.url);
    const rest = await session.rest('GET', '/api/auth');
    expect(rest.status).toBe(401);
    expect(rest.body).toEqual({ messages: 'Veuillez vous connecter' });
    const error = await session
      .trpc()
      .auth.me.query()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as TRPCClientError<AppRouter>).data).toMatchObject({ httpStatus: 401, messages: 'Veuillez vous connecter' });
  });

  it('logout clears the cookie and revokes the session server-side', async () => {
    const { session } = await registered(server.url);
    const stolen = defined(session.cookie, 'session.cookie');
    const answer = await session.rest('POST', '/api/auth/logout');
    expect(answer.status).toBe(200);
    expect(answer.headers.getSetCookie()[0]).toMatch(/^session=; .*Max-Age=0/);
    const replay = await fetch(`${server.url}/api/auth`, { headers: { cookie: stolen } });
    expect(replay.status).toBe(401);
  });

  it('locks an address after the configured number of failures with 429, even for the right password', async () => {
    const { user } = await registered(server.url);
    const session = new Session(server.url);
    for (let i = 0; i < 3; i++)
      expect((await session.rest('POST', '/api/auth/login', { email: user.email, password: 'mauvais' })).status).toBe(401);
    const locked = await session.rest('POST', '/api/auth/login', { email: user.email, password: user.password });
    expect(locked.status).toBe(429);
    expect(locked.body.messages).toBe('Trop de tentatives de connexion. Réessayez dans 15 minutes.');
    // The window passes: the right password works again.
    clock.now = () => new Date(Date.now() + 16 * 60_000);
    expect((await session.rest('POST', '/api/auth/login', { email: user.email, password: user.password })).status).toBe(200);
  });
});

describe('login limits behind the proxy', () => {
  const from = (ip: string) => ({ 'x-forwarded-for': ip });

  it('a stranger failing on an owner’s address never locks the owner out (failures count per e-mail and IP)', async () => {
    const { user } = await registered(server.url);
    const stranger = new Session(server.url);
    for (let i = 0; i < 5; i++) {
      const answer = await stranger.rest('POST', '/api/auth/login', { email: user.email, password: 'mauvais' }, from('203.0.113.9'));
      expect(answer.status).toBe(i < 3 ? 401 : 429);
    }
    const owner = new Session(server.url);
    const login = await owner.rest('POST', '/api/auth/login', { email: user.email, password: user.password }, from('198.51.100.7'));
    expect(login.status).toBe(200);
  });

  it('a forged first X-Forwarded-For entry does not dodge the per-IP limit: the rightmost untrusted hop is the client', async () => {
    const limited = await startTestServer({ env: { LOGIN_MAX_FAILURES_PER_IP: '5' } });
    try {
      const session = new Session(limited.url);
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) {
        // What nginx's $proxy_add_x_forwarded_for sends: the client's own header, then the address nginx saw.
        const headers = { 'x-forwarded-for': `10.${i}.0.1, 203.0.113.50` };
        statuses.push((await session.rest('POST', '/api/auth/login', { email: `x${i}@exemple.fr`, password: 'mauvais' }, headers)).status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    } finally {
      await limited.close();
    }
  });

  it('slows guessing down progressively: after 3 failures each try waits 1 s, then 2 s, 4 s…', async () => {
    const lenient = await startTestServer({ env: { LOGIN_MAX_FAILURES: '10' } });
    try {
      const { user } = await registered(lenient.url);
      const session = new Session(lenient.url);
      const t0 = Date.now();
      clock.now = () => new Date(t0);
      const attempt = () => session.rest('POST', '/api/auth/login', { email: user.email, password: 'mauvais' }, from('203.0.113.77'));
      for (let i = 0; i < 3; i++) expect((await attempt()).status).toBe(401);
      const early = await attempt();
      expect(early.status).toBe(429);
      expect(early.body.messages).toBe('Trop de tentatives de connexion. Réessayez dans 1 s.');
      clock.now = () => new Date(t0 + 1000);
      expect((await attempt()).status).toBe(401);
      expect((await attempt()).body.messages).toBe('Trop de tentatives de connexion. Réessayez dans 2 s.');
      clock.now = () => new Date(t0 + 3000);
      const right = await session.rest('POST', '/api/auth/login', { email: user.email, password: user.password }, from('203.0.113.77'));
      expect(right.status).toBe(200);
    } finally {
      await lenient.close();
    }
  });
});

describe('sessions slide and expire', () => {
  it('renews the cookie once half the 30 days are spent, and refuses it after expiry', async () => {
    const { session } = await registered(server.url);
    const t0 = Date.now();
    clock.now = () => new Date(t0 + 10 * 86_400_000);
    let answer = await session.rest('GET', '/api/auth');
    expect(answer.status).toBe(200);
    expect(answer.headers.getSetCookie()).toHaveLength(0); // 20 days left: no renewal yet
    clock.now = () => new Date(t0 + 20 * 86_400_000);
    answer = await session.rest('GET', '/api/auth');
    expect(answer.headers.getSetCookie()[0]).toContain(new Date(t0 + 50 * 86_400_000).toUTCString().slice(0, 16));
    clock.now = () => new Date(t0 + 49 * 86_400_000);
    expect((await session.rest('GET', '/api/auth')).status).toBe(200);
    clock.now = () => new Date(t0 + 100 * 86_400_000);
    expect((await session.rest('GET', '/api/auth')).status).toBe(401);
  });
});

describe('password reset and e-mail verification', () => {
  it('always answers 200 on forgot, mails a link only for a real account, at most N per hour', async () => {
    const { user } = await registered(server.url);
    const anonymous = new Session(server.url);
    const unknown = await anonymous.rest('POST', '/api/auth/password/forgot', { email: 'inconnu@exemple.fr' });
    const known = await anonymous.rest('POST', '/api/auth/password/forgot', { email: user.email });
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    expect(mailsTo('inconnu@exemple.fr')).toHaveLength(0);
    await anonymous.rest('POST', '/api/auth/password/forgot', { email: user.email });
    await anonymous.rest('POST', '/api/auth/password/forgot', { email: user.email });
    const resetMails = mailsTo(user.email).filter((m) => m.includes('/auth/password/reset?token'));
    expect(resetMails).toHaveLength(2); // RESET_MAIL_MAX_PER_HOUR=2 in this server
  });

  it('resets the password with the mailed token, revokes every other session, and spends the token', async () => {
    const { session: oldDevice, user } = await registered(server.url);
    const browser = new Session(server.url);
    await browser.rest('POST', '/api/auth/password/forgot', { email: user.email });
    const token = tokenIn(defined(mailsTo(user.email).find((m) => m.includes('reset'))), '/auth/password/reset');

    const reset = await browser.rest('POST', '/api/auth/password/reset', { token, password: 'nouveau-secret-2026' });
    expect(reset.status).toBe(200);
    expect(reset.body.messages).toBe('Votre mot de passe a été modifié');
    expect((await oldDevice.rest('GET', '/api/auth')).status).toBe(401);
    expect((await browser.rest('GET', '/api/auth')).status).toBe(200);

    const again = await browser.rest('POST', '/api/auth/password/reset', { token, password: 'encore-un-autre' });
    expect(again.status).toBe(400);
    expect(again.body.messages).toMatch(/invalide ou a expiré/);
    expect((await new Session(server.url).rest('POST', '/api/auth/login', { email: user.email, password: user.password })).status).toBe(
      401,
    );
    expect(
      (await new Session(server.url).rest('POST', '/api/auth/login', { email: user.email, password: 'nouveau-secret-2026' })).status,
    ).toBe(200);
  });

  it('refuses an expired reset token', async () => {
    const { user } = await registered(server.url);
    const browser = new Session(server.url);
    await browser.rest('POST', '/api/auth/password/forgot', { email: user.email });
    const token = tokenIn(defined(mailsTo(user.email).find((m) => m.includes('reset'))), '/auth/password/reset');
    clock.now = () => new Date(Date.now() + 2 * 3_600_000);
    expect((await browser.rest('POST', '/api/auth/password/reset', { token, password: 'nouveau-secret-2026' })).status).toBe(400);
  });

  it('verifies the address with the link mailed at registration', async () => {
    const { session, user } = await registered(server.url);
    expect((await session.rest('GET', '/api/auth')).body.email_verified_at).toBeNull();
    const token = tokenIn(defined(mailsTo(user.email).find((m) => m.includes('verify_email'))), '/auth/verify_email');
    const answer = await new Session(server.url).rest('POST', '/api/auth/verify_email', { token });
    expect(answer).toMatchObject({ status: 200, body: { messages: 'Votre compte est activé' } });
    expect((await session.rest('GET', '/api/auth')).body.email_verified_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await new Session(server.url).rest('POST', '/api/auth/verify_email', { token })).status).toBe(400);
  });
});
