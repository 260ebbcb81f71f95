import type { Db } from '../connection';
import type { MembershipRole } from '../schema';
import { nowIso } from '../../clock';
import { precompiled } from '../precompiled';

/** The user as every auth answer shows it: never the password hash. */
export interface UserProfile {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  email_verified_at: string | null;
  created_at: string;
  role: MembershipRole;
  organization: { id: number; name: string };
}

export async function findUserCredentials(db: Db, params: { email: string }) {
  return db.selectFrom('users').select(['id', 'password_hash']).where('email', '=', params.email).executeTakeFirst();
}

export async function emailExists(db: Db, params: { email: string }): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('email', '=', params.email).executeTakeFirst();
  return row !== undefined;
}

export async function insertUser(
  db: Db,
  params: { first_name: string; last_name: string; email: string; password_hash: string },
): Promise<number> {
  const now = nowIso();
  const row = await db
    .insertInto('users')
    .values({ ...params, email_verified_at: null, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

// Runs on every "who am I" (each page load of the SPA): compiled once.
const selectUserProfile = precompiled<
  [userId: number, organizationId: number],
  Omit<UserProfile, 'organization'> & { organization_id: number; organization_name: string }
>(
  (db) =>
    db
      .selectFrom('users')
      .innerJoin('memberships', 'memberships.user_id', 'users.id')
      .innerJoin('organizations', 'organizations.id', 'memberships.organization_id')
      .select([
        'users.id',
        'users.first_name',
        'users.last_name',
        'users.email',
        'users.email_verified_at',
        'users.created_at',
        'memberships.role',
        'organizations.id as organization_id',
        'organizations.name as organization_name',
      ])
      .where('users.id', '=', 0)
      .where('memberships.organization_id', '=', 0),
  2,
);

export async function getUserProfile(db: Db, params: { userId: number; organizationId: number }): Promise<UserProfile | undefined> {
  const [row] = await selectUserProfile(db, params.userId, params.organizationId);
  if (!row) return undefined;
  // Listed rather than spread: built on every page load, and a rest spread showed in the profile (`npm run bench -- scale`).
  return {
    id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    email_verified_at: row.email_verified_at,
    created_at: row.created_at,
    role: row.role,
    organization: { id: row.organization_id, name: row.organization_name },
  };
}

/** The organisation a user lands in at login: the oldest membership (the one created at registration). */
export async function findDefaultOrganizationId(db: Db, params: { userId: number }): Promise<number | undefined> {
  const row = await db
    .selectFrom('memberships')
    .select('organization_id')
    .where('user_id', '=', params.userId)
    .orderBy('id', 'asc')
    .executeTakeFirst();
  return row?.organization_id;
}

export async function updatePasswordHash(db: Db, params: { userId: number; passwordHash: string }): Promise<void> {
  await db.updateTable('users').set({ password_hash: params.passwordHash, updated_at: nowIso() }).where('id', '=', params.userId).execute();
}

export async function markEmailVerified(db: Db, params: { userId: number }): Promise<void> {
  const now = nowIso();
  await db
    .updateTable('users')
    .set({ email_verified_at: now, updated_at: now })
    .where('id', '=', params.userId)
    .where('email_verified_at', 'is', null)
    .execute();
}

export async function getUserContact(db: Db, params: { userId: number }) {
  return db.selectFrom('users').select(['id', 'email', 'first_name', 'last_name']).where('id', '=', params.userId).executeTakeFirst();
}
