import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import { sql } from 'kysely';
import { startTestApp, type TestApp } from '../helpers/caller';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered } from '../helpers/clients';
import { createContextInner } from '../../src/server/context';
import type { Session } from '../../src/server/auth/sessions';
import { createCaller, appRouter } from '../../src/server/routers/_app';
import { proceduresOf } from '../../src/server/procedures';
import { PROCEDURE_RULES, type Procedure } from '../../src/client/lib/procedure-rules';
import { ROLE_REFUSAL, ROLES, roleAllows, type Role } from '../../src/shared/roles';

/** The screens' answer (client/lib/use-can.ts) for a path of the router. */
const screensLet = (role: Role, path: string) => roleAllows(role, PROCEDURE_RULES[path as Procedure]);

/** Calls a procedure by its dotted path with no input: the role check runs before the input is read. */
async function refusedForRole(app: TestApp, session: Session, role: Role, path: string): Promise<boolean> {
  // biome-ignore lint/suspicious/noExplicitAny: walking the caller by the router's own paths
  let target: any = createCaller(createContextInner(app.deps, { session: { ...session, role } }));
  for (const part of path.split('.')) target = target[part];
  try {
    await target(undefined);
    return false;
  } catch (error) {
    return error instanceof TRPCError && error.code === 'FORBIDDEN' && error.message === ROLE_REFUSAL;
  }
}

describe('every procedure × every role, through the middleware', () => {
  let app: TestApp;
  let session: Session;
  beforeAll(async () => {
    app = await startTestApp();
    await app.signUp();
    const row = await app.deps.db.selectFrom('sessions').selectAll().executeTakeFirstOrThrow();
    session = { id: row.id, userId: row.user_id, organizationId: row.organization_id, role: 'owner', expiresAt: new Date(row.expires_at) };
  });
  afterAll(() => app.close());

  const protectedPaths = proceduresOf(appRouter)
    .map(({ path }) => path)
    .filter((path) => PROCEDURE_RULES[path as Procedure] !== 'public');

  for (const role of ROLES) {
    it(`refuses exactly what the procedures' rules keep from ${role}`, async () => {
      const expected: string[] = [];
      const refused: string[] = [];
      for (const path of protectedPaths) {
        // The screens hide what their map of rules denies (client/lib/use-can.ts): the real middleware refuses the same.
        if (!screensLet(role, path)) expected.push(path);
        if (await refusedForRole(app, session, role, path)) refused.push(path);
      }
      expect(refused).toEqual(expected);
    });
  }
});

describe('the REST and tRPC doors answer 403 in French to a role that may not', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  async function withRole(role: Role) {
    const account = await registered(server.url);
    await sql`update memberships set role = ${role} where user_id = ${account.profile.id}`.execute(server.app.deps.db);
    return account.session;
  }

  it('accountant: reads and exports, every write refused', async () => {
    const session = await withRole('accountant');
    expect((await session.rest('GET', '/api/customers')).status).toBe(200);
    expect((await session.rest('GET', '/api/customers/export')).status).toBe(200);
    expect((await session.rest('GET', '/api/auth')).body.role).toBe('accountant');
    const created = await session.rest('POST', '/api/customers', { name: 'Dupont SA' });
    expect(created).toMatchObject({ status: 403, body: { messages: ROLE_REFUSAL } });
    expect(await session.rest('PUT', '/api/settings?key=app', {})).toMatchObject({ status: 403, body: { messages: ROLE_REFUSAL } });
    await expect(session.trpc().items.create.mutate({ name: 'Conseil' } as never)).rejects.toThrow(ROLE_REFUSAL);
    const customers = await server.app.deps.db.selectFrom('customers').select('id').execute();
    expect(customers).toEqual([]);
  });

  it('member: creates customers, but neither deletes them nor touches the settings', async () => {
    const session = await withRole('member');
    const created = await session.rest('POST', '/api/customers', { name: 'Martin SARL' });
    expect(created.status).toBe(201);
    expect(await session.rest('DELETE', `/api/customers/${created.body.data.id}`)).toMatchObject({
      status: 403,
      body: { messages: ROLE_REFUSAL },
    });
    expect(await session.rest('PUT', '/api/organization', { name: 'Autre' })).toMatchObject({
      status: 403,
      body: { messages: ROLE_REFUSAL },
    });
  });

  it('admin: manages the settings', async () => {
    const session = await withRole('admin');
    const created = await session.rest('POST', '/api/customers', { name: 'Leroy EURL' });
    expect(created.status).toBe(201);
    expect(await session.rest('DELETE', `/api/customers/${created.body.data.id}`)).toMatchObject({ status: 200 });
  });
});
