import type { Context } from '../context';
import type { AcceptInvitationInput } from '../../shared/schemas/auth';
import { INVITATION_REFUSAL, type InviteInput } from '../../shared/schemas/members';
import { ROLE_LABELS, ROLE_REFUSAL, type Role } from '../../shared/roles';
import { fail } from '../errors';
import { isoIn, nowIso } from '../clock';
import { logger } from '../logger';
import { generateToken, hashToken } from '../auth/tokens';
import { hashPassword } from '../auth/password';
import type { Session } from '../auth/sessions';
import { emailExists, getUserContact, getUserProfile, insertUser, markEmailVerified, type UserProfile } from '../db/queries/users';
import { insertMembership } from '../db/queries/organizations';
import { setSessionOrganization } from '../db/queries/sessions';
import {
  countOwners,
  deleteMember,
  findInvitationByToken,
  findMember,
  findMembership,
  insertInvitation,
  listMembers,
  listPendingInvitations,
  listUserOrganizations,
  memberEmailExists,
  pendingInvitationExists,
  revokeInvitation,
  setMemberRole,
  spendInvitation,
} from '../db/queries/members';
import { invitationMail } from '../mail/templates';
import { startSession } from './auth';
import { defined } from '../../shared/defined';
import { settleAfterUsageDrop } from './subscriptions';

const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
const LAST_OWNER = 'L’entreprise doit garder au moins un propriétaire : nommez-en un autre avant.';
const MEMBER_NOT_FOUND = 'Membre introuvable';

/** Who may act on owners: only an owner names, demotes or removes one (an admin manages the rest of the team). */
function requireOwnerFor(session: Session, ...roles: Role[]): void {
  if (roles.includes('owner') && session.role !== 'owner') fail('FORBIDDEN', ROLE_REFUSAL);
}

export async function teamOf(ctx: Context & { session: Session }) {
  const [members, invitations] = await Promise.all([
    listMembers(ctx.db, { organizationId: ctx.session.organizationId }),
    listPendingInvitations(ctx.db, { organizationId: ctx.session.organizationId, now: nowIso() }),
  ]);
  return { members: members.map((m) => ({ ...m, current: m.user_id === ctx.session.userId })), invitations };
}

export async function invite(ctx: Context & { session: Session }, input: InviteInput): Promise<void> {
  const { organizationId, userId } = ctx.session;
  requireOwnerFor(ctx.session, input.role);
  if (await memberEmailExists(ctx.db, { organizationId, email: input.email })) {
    fail('CONFLICT', 'Cette personne fait déjà partie de l’équipe');
  }
  const now = nowIso();
  if (await pendingInvitationExists(ctx.db, { organizationId, email: input.email, now })) {
    fail('CONFLICT', 'Une invitation est déjà en attente pour cette adresse : révoquez-la pour en envoyer une autre');
  }
  const token = generateToken();
  await insertInvitation(ctx.db, {
    organizationId,
    email: input.email,
    role: input.role,
    tokenHash: hashToken(token),
    invitedBy: userId,
    expiresAt: isoIn(INVITATION_LIFETIME_MS),
    now,
  });
  const [inviter, profile] = await Promise.all([getUserContact(ctx.db, { userId }), getUserProfile(ctx.db, { userId, organizationId })]);
  const link = `${ctx.env.appUrl}/invitation?token=${token}`;
  await ctx.mailer
    .send(
      invitationMail({
        to: input.email,
        inviter: inviter ? `${inviter.first_name} ${inviter.last_name}` : 'Un membre',
        organization: profile?.organization.name ?? '',
        role: ROLE_LABELS[input.role],
        link,
      }),
    )
    .catch((e) => logger.error('invitation mail failed', e));
}

export async function changeRole(ctx: Context & { session: Session }, id: number, role: Role): Promise<void> {
  const { organizationId } = ctx.session;
  await ctx.db.transaction().execute(async (trx) => {
    const member = await findMember(trx, { organizationId, id });
    if (!member) fail('NOT_FOUND', MEMBER_NOT_FOUND);
    requireOwnerFor(ctx.session, member.role, role);
    if (member.role === 'owner' && role !== 'owner' && (await countOwners(trx, { organizationId })) <= 1) fail('CONFLICT', LAST_OWNER);
    await setMemberRole(trx, { id, role });
  });
}

/** Removes a member (or the user themself, leaving); their sessions in this organisation close with the membership. */
export async function removeMember(ctx: Context & { session: Session }, id: number): Promise<string | null> {
  const { organizationId } = ctx.session;
  await ctx.db.transaction().execute(async (trx) => {
    const member = await findMember(trx, { organizationId, id });
    if (!member) fail('NOT_FOUND', MEMBER_NOT_FOUND);
    requireOwnerFor(ctx.session, member.role);
    if (member.role === 'owner' && (await countOwners(trx, { organizationId })) <= 1) fail('CONFLICT', LAST_OWNER);
    await deleteMember(trx, { id });
    await trx.deleteFrom('sessions').where('user_id', '=', member.user_id).where('organization_id', '=', organizationId).execute();
  });
  // A seat freed may be what a smaller plan in waiting needed.
  return settleAfterUsageDrop(ctx, organizationId);
}

/** The owner hands the organisation to another member and stays as an administrator. */
export async function transferOwnership(ctx: Context & { session: Session }, id: number): Promise<void> {
  const { organizationId, userId } = ctx.session;
  await ctx.db.transaction().execute(async (trx) => {
    const member = await findMember(trx, { organizationId, id });
    if (!member) fail('NOT_FOUND', MEMBER_NOT_FOUND);
    if (member.user_id === userId) fail('CONFLICT', 'Vous êtes déjà propriétaire : choisissez un autre membre');
    const mine = await findMembership(trx, { organizationId, userId });
    if (!mine) fail('NOT_FOUND', MEMBER_NOT_FOUND);
    await setMemberRole(trx, { id: member.id, role: 'owner' });
    await setMemberRole(trx, { id: mine.id, role: 'admin' });
  });
}

export async function withdrawInvitation(ctx: Context & { session: Session }, id: number): Promise<string | null> {
  const done = await revokeInvitation(ctx.db, { organizationId: ctx.session.organizationId, id, now: nowIso() });
  if (!done) fail('NOT_FOUND', 'Invitation introuvable ou déjà utilisée');
  return settleAfterUsageDrop(ctx, ctx.session.organizationId);
}

/** A usable invitation for this token, else the one French refusal (never saying which of expired/spent/revoked). */
async function usableInvitation(ctx: Context, token: string) {
  const found = await findInvitationByToken(ctx.db, { tokenHash: hashToken(token) });
  if (!found || found.accepted_at || found.revoked_at || found.expires_at <= nowIso()) fail('BAD_REQUEST', INVITATION_REFUSAL);
  return found;
}

export async function previewInvitation(ctx: Context, token: string) {
  const found = await usableInvitation(ctx, token);
  return { email: found.email, role: found.role, organization: found.organization_name };
}

/** A new person registers through the link: their account joins the inviting organisation, none is created. */
export async function acceptInvitation(ctx: Context, input: AcceptInvitationInput): Promise<UserProfile> {
  const invitation = await usableInvitation(ctx, input.token);
  if (await emailExists(ctx.db, { email: invitation.email })) {
    fail('CONFLICT', 'Un compte existe déjà avec cette adresse e-mail : connectez-vous, puis rejoignez l’entreprise depuis le lien');
  }
  const password_hash = await hashPassword(input.password);
  const userId = await ctx.db.transaction().execute(async (trx) => {
    if (!(await spendInvitation(trx, { id: invitation.id, now: nowIso() }))) fail('BAD_REQUEST', INVITATION_REFUSAL);
    const id = await insertUser(trx, { first_name: input.first_name, last_name: input.last_name, email: invitation.email, password_hash });
    await markEmailVerified(trx, { userId: id }); // the link reached that mailbox: the address is proven
    await insertMembership(trx, { userId: id, organizationId: invitation.organization_id, role: invitation.role });
    return id;
  });
  return startSession(ctx, userId, invitation.organization_id);
}

/** A logged-in user joins with the link sent to their address, and lands in that organisation. */
export async function joinWithInvitation(ctx: Context & { session: Session }, token: string): Promise<UserProfile> {
  const invitation = await usableInvitation(ctx, token);
  const me = await getUserContact(ctx.db, { userId: ctx.session.userId });
  if (me?.email.toLowerCase() !== invitation.email.toLowerCase()) {
    fail('FORBIDDEN', `Cette invitation est adressée à ${invitation.email} : connectez-vous avec cette adresse`);
  }
  if (await findMembership(ctx.db, { organizationId: invitation.organization_id, userId: ctx.session.userId })) {
    fail('CONFLICT', 'Vous faites déjà partie de cette entreprise');
  }
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await spendInvitation(trx, { id: invitation.id, now: nowIso() }))) fail('BAD_REQUEST', INVITATION_REFUSAL);
    await insertMembership(trx, { userId: ctx.session.userId, organizationId: invitation.organization_id, role: invitation.role });
    await setSessionOrganization(trx, { id: ctx.session.id, organizationId: invitation.organization_id });
  });
  return defined(await getUserProfile(ctx.db, { userId: ctx.session.userId, organizationId: invitation.organization_id }), 'profile');
}

export async function organizationsOf(ctx: Context & { session: Session }) {
  const rows = await listUserOrganizations(ctx.db, { userId: ctx.session.userId });
  return { data: rows.map((o) => ({ ...o, current: o.id === ctx.session.organizationId })) };
}

/** Moves the session to another organisation of the user; one they do not belong to is not found. */
export async function switchOrganization(ctx: Context & { session: Session }, organizationId: number): Promise<UserProfile> {
  const profile = await getUserProfile(ctx.db, { userId: ctx.session.userId, organizationId });
  if (!profile) fail('NOT_FOUND', 'Entreprise introuvable');
  await setSessionOrganization(ctx.db, { id: ctx.session.id, organizationId });
  return profile;
}
