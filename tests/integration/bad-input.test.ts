import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withServerDb } from '../helpers/database';
import { startTestServer, type TestServer } from '../helpers/server';
import { newUser, registered, Session } from '../helpers/clients';

let server: TestServer;
let loggedIn: Session;
beforeAll(async () => {
  server = await startTestServer();
  loggedIn = (await registered(server.url)).session;
});
afterAll(() => server.close());

/** The rows of the tables a registration or a feedback writes. */
function counts() {
  return withServerDb(server, async (db) => {
    const count = async (table: 'users' | 'organizations' | 'memberships' | 'settings' | 'feedback') => {
      const { n } = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return n;
    };
    return {
      users: await count('users'),
      organizations: await count('organizations'),
      memberships: await count('memberships'),
      settings: await count('settings'),
      feedback: await count('feedback'),
    };
  });
}

const json = { 'content-type': 'application/json' };
const valid = () => newUser();

/**
 * CONTRACT.md "Errors": every bad input gets `{ messages }` in French with the right status, the process keeps
 * serving, and nothing is half-written.
 */
const cases: Array<{
  name: string;
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  as?: 'anonymous' | 'user';
  status: number;
  message: RegExp;
}> = [
  {
    name: 'malformed JSON',
    method: 'POST',
    path: '/api/auth/register',
    body: '{"first_name": "Ada",',
    headers: json,
    status: 400,
    message: /JSON valide/,
  },
  {
    name: 'a JSON array instead of an object',
    method: 'POST',
    path: '/api/auth/register',
    body: '[1,2]',
    headers: json,
    status: 400,
    message: /objet|attendu/,
  },
  { name: 'a JSON string', method: 'POST', path: '/api/auth/login', body: '"bonjour"', headers: json, status: 400, message: /attendu/ },
  { name: 'an empty body', method: 'POST', path: '/api/auth/register', body: '', headers: json, status: 400, message: /attendu/ },
  {
    name: 'wrong types',
    method: 'POST',
    path: '/api/auth/register',
    body: { ...valid(), first_name: 42, password: ['x'] },
    status: 400,
    message: /prénom.*mot de passe/i,
  },
  { name: 'missing fields', method: 'POST', path: '/api/auth/register', body: { email: 'a@b.fr' }, status: 400, message: /prénom/ },
  {
    name: 'an invalid e-mail',
    method: 'POST',
    path: '/api/auth/register',
    body: { ...valid(), email: 'pas-une-adresse' },
    status: 400,
    message: /Adresse e-mail invalide/,
  },
  {
    name: 'a short password',
    method: 'POST',
    path: '/api/auth/register',
    body: { ...valid(), password: 'court' },
    status: 400,
    message: /au moins 8 caractères/,
  },
  {
    name: 'a 300-character password',
    method: 'POST',
    path: '/api/auth/register',
    body: { ...valid(), password: 'x'.repeat(300) },
    status: 400,
    message: /256/,
  },
  {
    name: 'an unknown field',
    method: 'POST',
    path: '/api/auth/register',
    body: { ...valid(), is_admin: true },
    status: 400,
    message: /is_admin/,
  },
  {
    name: 'a body over 1 MB',
    method: 'POST',
    path: '/api/auth/register',
    body: { ...valid(), first_name: 'x'.repeat(1_100_000) },
    status: 413,
    message: /trop volumineuse/,
  },
  {
    name: 'a huge body on tRPC',
    method: 'POST',
    path: '/api/trpc/auth.login',
    body: { json: { email: 'a@b.fr', password: 'x'.repeat(1_100_000) } },
    status: 413,
    message: /trop volumineuse/,
  },
  {
    name: 'a forged session cookie',
    method: 'GET',
    path: '/api/auth',
    headers: { cookie: 'session=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' },
    status: 401,
    message: /Veuillez vous connecter/,
  },
  {
    name: 'a cookie that is not even a token',
    method: 'GET',
    path: '/api/settings',
    headers: { cookie: "session=' OR 1=1 --" },
    status: 401,
    message: /Veuillez vous connecter/,
  },
  {
    name: 'a foreign Origin on a POST',
    method: 'POST',
    path: '/api/auth/register',
    body: valid(),
    headers: { ...json, origin: 'https://pirate.example' },
    status: 403,
    message: /autre site/,
  },
  {
    name: 'a foreign Origin on tRPC',
    method: 'POST',
    path: '/api/trpc/auth.register',
    body: { json: valid() },
    headers: { ...json, origin: 'null' },
    status: 403,
    message: /autre site/,
  },
  { name: 'an unknown API path', method: 'GET', path: '/api/inconnu', status: 404, message: /introuvable/ },
  { name: 'a wrong method', method: 'DELETE', path: '/api/auth/login', status: 405, message: /Méthode/ },
  {
    name: 'an unknown settings key',
    method: 'GET',
    path: '/api/settings?key=../../etc',
    as: 'user',
    status: 400,
    message: /Clé de paramètres inconnue/,
  },
  { name: 'an unknown tRPC procedure', method: 'GET', path: '/api/trpc/admin.dropTables', status: 404, message: /introuvable/ },
  {
    name: 'malformed tRPC input',
    method: 'GET',
    path: '/api/trpc/settings.get?input=%7Bnope',
    as: 'user',
    status: 400,
    message: /JSON valide/,
  },
];

describe('bad input', () => {
  it.each(cases)('$name → $status with a French message, nothing written', async (c) => {
    const before = await counts();
    const session = c.as === 'user' ? loggedIn : new Session(server.url);
    const answer = await session.rest(c.method, c.path, c.body, c.headers);
    expect(answer.status).toBe(c.status);
    const messages = c.path.startsWith('/api/trpc')
      ? (answer.body?.error?.json?.data?.messages ?? answer.body.messages)
      : answer.body.messages;
    expect(JSON.stringify(messages)).toMatch(c.message);
    expect(JSON.stringify(answer.body)).not.toMatch(/at .*\.ts:\d+|stack/i);
    expect(await counts()).toEqual(before);
    expect((await fetch(`${server.url}/api/version`)).status).toBe(200); // still serving
  });

  it('stores SQL and HTML in strings verbatim, as data', async () => {
    const hostile = { ...valid(), first_name: "Robert'); DROP TABLE users;--", organization: '<script>alert("x")</script> & Cie' };
    const answer = await new Session(server.url).rest('POST', '/api/auth/register', hostile);
    expect(answer.status).toBe(201);
    expect(answer.body.first_name).toBe(hostile.first_name);
    expect(answer.body.organization.name).toBe(hostile.organization);
    expect((await counts()).users).toBeGreaterThan(1);
  });

  it('lists one message per offending field, naming it', async () => {
    const answer = await new Session(server.url).rest('POST', '/api/auth/register', {
      first_name: '',
      last_name: '',
      email: 'x',
      password: '1',
      organization: '',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.messages).toEqual([
      'Le prénom est obligatoire',
      'Le nom est obligatoire',
      'Adresse e-mail invalide',
      'Le mot de passe doit contenir au moins 8 caractères',
      'Le nom de l’entreprise est obligatoire',
    ]);
  });

  it('survives concurrent registrations of one address: one account, one 201, the rest 409', async () => {
    const user = valid();
    const answers = await Promise.all(Array.from({ length: 5 }, () => new Session(server.url).rest('POST', '/api/auth/register', user)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409]);
    const { accounts, orphans } = await withServerDb(server, async (db) => ({
      accounts: await db.selectFrom('users').select('id').where('email', '=', user.email).execute(),
      orphans: await db
        .selectFrom('organizations as o')
        .select('o.id')
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('memberships as m').select('m.id').whereRef('m.organization_id', '=', 'o.id'))),
        )
        .execute(),
    }));
    expect(accounts).toHaveLength(1);
    expect(orphans).toEqual([]);
  });
});
