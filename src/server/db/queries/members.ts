import type { Db } from '../connection';
import type { MembershipRole } from '../schema';

/** The members of an organisation, oldest first, with who they are. */
export async function listMembers(db: Db, params: { organizationId: number }) {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select([
      'memberships.id',
      'memberships.user_id',
      'memberships.role',
      'memberships.created_at',
      'users.first_name',
      'users.last_name',
      'users.email',
    ])
    .where('memberships.organization_id', '=', params.organizationId)
    .orderBy('memberships.id', 'asc')
    .execute();
}

export async function findMember(db: Db, params: { organizationId: number; id: number }) {
  return db
    .selectFrom('memberships')
    .select(['id', 'user_id', 'role'])
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .executeTakeFirst();
}

export async function findMembership(db: Db, params: { organizationId: number; userId: number }) {
  return db
    .selectFrom('memberships')
    .select(['id', 'role'])
    .where('organization_id', '=', params.organizationId)
    .where('user_id', '=', params.userId)
    .executeTakeFirst();
}

export async function countOwners(db: Db, params: { organizationId: number }): Promise<number> {
  const row = await db
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', params.organizationId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function memberEmailExists(db: Db, params: { organizationId: number; email: string }): Promise<boolean> {
  const row = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select('memberships.id')
    .where('memberships.organization_id', '=', params.organizationId)
    .where((eb) => eb(eb.fn('lower', ['users.email']), '=', params.email.toLowerCase()))
    .executeTakeFirst();
  return row !== undefined;
}

export async function setMemberRole(db: Db, params: { id: number; role: MembershipRole }): Promise<void> {
  await db.updateTable('memberships').set({ role: params.role }).where('id', '=', params.id).execute();
}

export async function deleteMember(db: Db, params: { id: number }): Promise<void> {
  await db.deleteFrom('memberships').where('id', '=', params.id).execute();
}

/** The organisations a user belongs to, with their role in each. */
export async function listUserOrganizations(db: Db, params: { userId: number }) {
  return db
    .selectFrom('memberships')
    .innerJoin('organizations', 'organizations.id', 'memberships.organization_id')
    .select(['organizations.id', 'organizations.name', 'memberships.role'])
    .where('memberships.user_id', '=', params.userId)
    .orderBy('memberships.id', 'asc')
    .execute();
}

export async function insertInvitation(
  db: Db,
  params: {
    organizationId: number;
    email: string;
    role: MembershipRole;
    tokenHash: string;
    invitedBy: number;
    expiresAt: string;
    now: string;
  },
): Promise<number> {
  const row = await db
    .insertInto('invitations')
    .values({
      organization_id: params.organizationId,
      email: params.email,
      role: params.role,
      token_hash: params.tokenHash,
      invited_by: params.invitedBy,
      expires_at: params.expiresAt,
      accepted_at: null,
      revoked_at: null,
      created_at: params.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Invitations neither accepted, revoked nor expired. */
export async function listPendingInvitations(db: Db, params: { organizationId: number; now: string }) {
  return db
    .selectFrom('invitations')
    .select(['id', 'email', 'role', 'expires_at', 'created_at'])
    .where('organization_id', '=', params.organizationId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', params.now)
    .orderBy('id', 'asc')
    .execute();
}

export async function pendingInvitationExists(db: Db, params: { organizationId: number; email: string; now: string }) {
  const row = await db
    .selectFrom('invitations')
    .select('id')
    .where('organization_id', '=', params.organizationId)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', params.email.toLowerCase()))
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', params.now)
    .executeTakeFirst();
  return row !== undefined;
}

export async function findInvitationByToken(db: Db, params: { tokenHash: string }) {
  return db
    .selectFrom('invitations')
    .innerJoin('organizations', 'organizations.id', 'invitations.organization_id')
    .select([
      'invitations.id',
      'invitations.organization_id',
      'invitations.email',
      'invitations.role',
      'invitations.expires_at',
      'invitations.accepted_at',
      'invitations.revoked_at',
      'organizations.name as organization_name',
    ])
    .where('invitations.token_hash', '=', params.tokenHash)
    .executeTakeFirst();
}

/** Spends an invitation once: false when another request spent or revoked it first. */
export async function spendInvitation(db: Db, params: { id: number; now: string }): Promise<boolean> {
  const result = await db
    .updateTable('invitations')
    .set({ accepted_at: params.now })
    .where('id', '=', params.id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function revokeInvitation(db: Db, params: { organizationId: number; id: number; now: string }): Promise<boolean> {
  const result = await db
    .updateTable('invitations')
    .set({ revoked_at: params.now })
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
