import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { newUser, registered, Session } from '../helpers/clients';
import { clock } from '../../src/server/clock';
import { defined } from '../../src/shared/defined';
import { ROLE_REFUSAL } from '../../src/shared/roles';
import { INVITATION_REFUSAL } from '../../src/shared/schemas/members';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
afterEach(() => {
  clock.now = () => new Date();
});

/** The invitation token of the last mail sent to this address (the file outbox of the test server). */
function invitationTokenFor(email: string): string {
  const dir = path.join(server.dataDir, 'outbox');
  const mails = fs
    .readdirSync(dir)
    .sort()
    .map((f) =>
      fs
        .readFileSync(path.join(dir, f), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '='),
    )
    .filter((m) => m.includes(`To: ${email}`));
  const match = mails.at(-1)?.match(/\/invitation\?token=([a-z2-7]+)/);
  return defined(match?.[1], 'invitation token');
}

async function invited(owner: Session, role: string) {
  const person = newUser({ first_name: 'Louise', last_name: 'Petit' });
  const answer = await owner.rest('POST', '/api/members', { email: person.email, role });
  expect(answer).toMatchObject({ status: 201, body: { messages: `Invitation envoyée à ${person.email}` } });
  return { person, token: invitationTokenFor(person.email) };
}

async function accept(token: string, overrides: Record<string, string> = {}) {
  const session = new Session(server.url);
  const answer = await session.rest('POST', '/api/auth/invitation/accept', {
    token,
    first_name: 'Louise',
    last_name: 'Petit',
    password: 'motdepasse-solide',
    ...overrides,
  });
  return { session, answer };
}

describe('inviting and accepting', () => {
  it('mails a link that registers the invitee into the organisation with the role, once', async () => {
    const { session: owner, profile } = await registered(server.url);
    const { person, token } = await invited(owner, 'member');
    expect((await new Session(server.url).rest('GET', `/api/auth/invitation?token=${token}`)).body).toEqual({
      email: person.email,
      role: 'member',
      organization: 'Durand Conseil SARL',
    });
    const list = await owner.rest('GET', '/api/members');
    expect(list.body.invitations).toMatchObject([{ email: person.email, role: 'member' }]);

    const { session, answer } = await accept(token);
    expect(answer).toMatchObject({ status: 200, body: { email: person.email, role: 'member', organization: profile.organization } });
    expect((await session.rest('GET', '/api/auth')).body.role).toBe('member');
    const team = (await owner.rest('GET', '/api/members')).body;
    expect(team.members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      [profile.email, 'owner'],
      [person.email, 'member'],
    ]);
    expect(team.invitations).toEqual([]);

    const again = await accept(token, { password: 'autre-motdepasse' });
    expect(again.answer).toMatchObject({ status: 400, body: { messages: INVITATION_REFUSAL } });
  });

  it('refuses an expired or revoked invitation', async () => {
    const { session: owner } = await registered(server.url);
    const { token } = await invited(owner, 'accountant');
    const later = Date.now() + 8 * 24 * 3600 * 1000;
    clock.now = () => new Date(later);
    expect((await accept(token)).answer).toMatchObject({ status: 400, body: { messages: INVITATION_REFUSAL } });
    clock.now = () => new Date();

    const second = await invited(owner, 'member');
    const pending = (await owner.rest('GET', '/api/members')).body.invitations;
    const id = pending.find((i: { email: string }) => i.email === second.person.email).id;
    expect(await owner.rest('DELETE', `/api/members/invitations/${id}`)).toMatchObject({
      status: 200,
      body: { messages: 'Invitation révoquée' },
    });
    expect((await accept(second.token)).answer).toMatchObject({ status: 400, body: { messages: INVITATION_REFUSAL } });
  });

  it('refuses inviting a member, an address already invited, and an unknown role', async () => {
    const { session: owner, profile } = await registered(server.url);
    expect(await owner.rest('POST', '/api/members', { email: profile.email, role: 'admin' })).toMatchObject({
      status: 409,
      body: { messages: 'Cette personne fait déjà partie de l’équipe' },
    });
    const { person } = await invited(owner, 'member');
    expect((await owner.rest('POST', '/api/members', { email: person.email, role: 'admin' })).status).toBe(409);
    const bad = await owner.rest('POST', '/api/members', { email: 'x@exemple.fr', role: 'patron' });
    expect(bad.status).toBe(400);
    expect(String(bad.body.messages)).toContain('Rôle inconnu');
    expect((await owner.rest('GET', '/api/members')).body.invitations).toHaveLength(1);
  });

  it('lets a logged-in user join with the link sent to them, then switch between organisations', async () => {
    const { session: owner, profile: ownerProfile } = await registered(server.url, { organization: 'Atelier Martin' });
    const { session: other, profile: otherProfile } = await registered(server.url, { organization: 'Petit Studio' });
    const answer = await owner.rest('POST', '/api/members', { email: otherProfile.email, role: 'admin' });
    expect(answer.status).toBe(201);
    const token = invitationTokenFor(otherProfile.email);
    const stranger = (await registered(server.url)).session;
    expect((await stranger.rest('POST', '/api/members/join', { token })).status).toBe(403);

    const joined = await other.rest('POST', '/api/members/join', { token });
    expect(joined).toMatchObject({ status: 200, body: { role: 'admin', organization: ownerProfile.organization } });
    const organizations = (await other.rest('GET', '/api/organizations')).body.data;
    expect(organizations.map((o: { name: string; current: boolean }) => [o.name, o.current])).toEqual([
      ['Petit Studio', false],
      ['Atelier Martin', true],
    ]);
    const back = await other.rest('POST', `/api/organizations/${otherProfile.organization.id}/switch`);
    expect(back).toMatchObject({ status: 200, body: { role: 'owner', organization: { name: 'Petit Studio' } } });
    expect((await other.rest('GET', '/api/auth')).body.organization.name).toBe('Petit Studio');

    const elsewhere = await stranger.rest('POST', `/api/organizations/${ownerProfile.organization.id}/switch`);
    expect(elsewhere).toMatchObject({ status: 404, body: { messages: 'Entreprise introuvable' } });
  });
});

describe('managing the team', () => {
  it('keeps at least one owner, transfers ownership, and removes a member (who loses access)', async () => {
    const { session: owner } = await registered(server.url);
    const { token } = await invited(owner, 'admin');
    const { session: admin } = await accept(token);
    const team = (await owner.rest('GET', '/api/members')).body.members;
    const [mine, theirs] = team;
    const lastOwner = 'L’entreprise doit garder au moins un propriétaire : nommez-en un autre avant.';
    expect(await owner.rest('PUT', `/api/members/${mine.id}`, { role: 'member' })).toMatchObject({
      status: 409,
      body: { messages: lastOwner },
    });
    expect(await owner.rest('DELETE', `/api/members/${mine.id}`)).toMatchObject({ status: 409, body: { messages: lastOwner } });
    expect(await admin.rest('DELETE', `/api/members/${mine.id}`)).toMatchObject({ status: 403, body: { messages: ROLE_REFUSAL } });
    expect(await admin.rest('POST', '/api/members', { email: 'chef@exemple.fr', role: 'owner' })).toMatchObject({ status: 403 });
    expect(await admin.rest('POST', `/api/members/${mine.id}/owner`)).toMatchObject({ status: 403, body: { messages: ROLE_REFUSAL } });

    expect(await owner.rest('POST', `/api/members/${theirs.id}/owner`)).toMatchObject({ status: 200 });
    expect((await owner.rest('GET', '/api/auth')).body.role).toBe('admin');
    expect((await admin.rest('GET', '/api/auth')).body.role).toBe('owner');

    expect(await admin.rest('DELETE', `/api/members/${mine.id}`)).toMatchObject({
      status: 200,
      body: { messages: 'Membre retiré de l’équipe' },
    });
    expect((await owner.rest('GET', '/api/auth')).status).toBe(401);
  });

  it('keeps members and accountants out of the team settings', async () => {
    const { session: owner } = await registered(server.url);
    const { session: member } = await accept((await invited(owner, 'member')).token);
    expect(await member.rest('POST', '/api/members', { email: 'a@exemple.fr', role: 'member' })).toMatchObject({
      status: 403,
      body: { messages: ROLE_REFUSAL },
    });
    expect((await member.rest('GET', '/api/members')).status).toBe(200);
  });
});
