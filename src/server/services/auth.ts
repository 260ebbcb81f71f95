import type { Context } from '../context';
import type { LoginInput, RegisterInput } from '../../shared/schemas/auth';
import { fail } from '../errors';
import { clock, isoIn, nowIso } from '../clock';
import { logger } from '../logger';
import { hashPassword, getDecoyHash, verifyPassword } from '../auth/password';
import { createSession, invalidateSession, invalidateUserSessions } from '../auth/sessions';
import { generateToken, hashToken } from '../auth/tokens';
import { clearedSessionCookie, sessionCookie } from '../auth/cookies';
import { rateLimitKeyOf } from '../net/client-ip';
import { takeEach } from '../auth/rate-limit';
import {
  emailExists,
  findDefaultOrganizationId,
  findUserCredentials,
  getUserContact,
  getUserProfile,
  insertUser,
  markEmailVerified,
  updatePasswordHash,
  type UserProfile,
} from '../db/queries/users';
import { insertMembership, insertOrganization } from '../db/queries/organizations';
import { findUsableEmailToken, insertEmailToken, spendEmailTokens } from '../db/queries/email-tokens';
import { resetPasswordMail, verifyEmailMail } from '../mail/templates';
import { initializeSettings } from './settings';
import { insertDefaultReferenceData } from '../db/queries/reference';
import type { EmailTokenKind } from '../db/schema';

const HOUR = 60 * 60 * 1000;
const TOKEN_LIFETIME: Record<EmailTokenKind, number> = { verify: 48 * HOUR, reset: HOUR };

export async function startSession(ctx: Context, userId: number, organizationId: number): Promise<UserProfile> {
  const profile = await getUserProfile(ctx.db, { userId, organizationId });
  if (!profile) fail('INTERNAL_SERVER_ERROR', 'Erreur interne du serveur');
  const { token, session } = await createSession(ctx.db, {
    userId,
    organizationId,
    role: profile.role,
    userAgent: ctx.userAgent,
    ip: ctx.ip,
  });
  ctx.setCookie(sessionCookie(token, session.expiresAt, ctx.env.sessionSecure));
  return profile;
}

async function issueEmailToken(ctx: Context, userId: number, kind: EmailTokenKind): Promise<string> {
  const token = generateToken();
  await insertEmailToken(ctx.db, { id: hashToken(token), userId, kind, expiresAt: isoIn(TOKEN_LIFETIME[kind]), createdAt: nowIso() });
  return token;
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}

/** Creates the user, their organisation, the owner membership and default settings in one transaction. */
export async function register(ctx: Context, input: RegisterInput): Promise<UserProfile> {
  if (!(await ctx.rateLimits.registrationsByIp.take(rateLimitKeyOf(ctx.ip)))) {
    fail('TOO_MANY_REQUESTS', 'Trop d’inscriptions depuis cette adresse. Réessayez dans une heure.');
  }
  const duplicate = 'Un compte existe déjà avec cette adresse e-mail';
  if (await emailExists(ctx.db, { email: input.email })) fail('CONFLICT', duplicate);

  const password_hash = await hashPassword(input.password);
  let ids: { userId: number; organizationId: number };
  try {
    ids = await ctx.db.transaction().execute(async (trx) => {
      const userId = await insertUser(trx, { first_name: input.first_name, last_name: input.last_name, email: input.email, password_hash });
      const organizationId = await insertOrganization(trx, { name: input.organization });
      await insertMembership(trx, { userId, organizationId, role: 'owner' });
      await initializeSettings(trx, organizationId);
      await insertDefaultReferenceData(trx, { organizationId });
      return { userId, organizationId };
    });
  } catch (error) {
    if (isUniqueViolation(error)) fail('CONFLICT', duplicate); // two registrations raced on one address
    throw error;
  }

  const profile = await startSession(ctx, ids.userId, ids.organizationId);
  const token = await issueEmailToken(ctx, ids.userId, 'verify');
  const link = `${ctx.env.appUrl}/auth/verify_email?token=${token}`;
  // The account exists whether or not the mail leaves: a mail failure is logged, not shown as a failed registration.
  await ctx.mailer
    .send(verifyEmailMail({ to: input.email, firstName: input.first_name, link }))
    .catch((e) => logger.error('verify mail failed', e));
  return profile;
}

const LOCKED = 'Trop de tentatives de connexion. Réessayez dans 15 minutes.';

export async function login(ctx: Context, input: LoginInput): Promise<UserProfile> {
  const { loginFailuresByEmailAndIp: byPair, loginFailuresByIp: byIp } = ctx.rateLimits;
  const client = rateLimitKeyOf(ctx.ip);
  const pair = `${input.email.toLowerCase()}|${client}`;
  // The try is counted as a failure before the password check, atomically against both limits: parallel tries cannot
  // all read "below the limit" first. The address first: a try refused for the e-mail gives the address's count back.
  const refusedBy = await takeEach([
    [byIp, client],
    [byPair, pair],
  ]);
  if (refusedBy === byIp) fail('TOO_MANY_REQUESTS', LOCKED);
  if (refusedBy === byPair) {
    const window = await byPair.window(pair);
    const waitMs = byPair.limitedBy(window) ? 0 : byPair.waitOf(window);
    fail('TOO_MANY_REQUESTS', waitMs > 0 ? `Trop de tentatives de connexion. Réessayez dans ${Math.ceil(waitMs / 1000)} s.` : LOCKED);
  }
  const credentials = await findUserCredentials(ctx.db, { email: input.email });
  const ok = await verifyPassword(credentials?.password_hash ?? (await getDecoyHash()), input.password);
  const organizationId = credentials && ok ? await findDefaultOrganizationId(ctx.db, { userId: credentials.id }) : undefined;
  if (!credentials || !ok || organizationId === undefined) fail('UNAUTHORIZED', 'Adresse e-mail ou mot de passe incorrect');
  // A success is no failure: the e-mail's failures from this address are forgiven, the address's reservation given back.
  await Promise.all([byPair.reset(pair), byIp.release(client)]);
  return startSession(ctx, credentials.id, organizationId);
}

export async function logout(ctx: Context): Promise<void> {
  if (ctx.session) await invalidateSession(ctx.db, ctx.session.id);
  ctx.setCookie(clearedSessionCookie(ctx.env.sessionSecure));
}

export async function currentUser(ctx: Context): Promise<UserProfile> {
  const profile = ctx.session
    ? await getUserProfile(ctx.db, { userId: ctx.session.userId, organizationId: ctx.session.organizationId })
    : undefined;
  if (!profile) fail('UNAUTHORIZED', 'Veuillez vous connecter');
  return profile;
}

/** Always the same answer, whether the address has an account or not (no account enumeration). */
export async function requestPasswordReset(ctx: Context, email: string): Promise<void> {
  if (!(await ctx.rateLimits.resetMailsByEmail.take(email))) return;
  const user = await findUserCredentials(ctx.db, { email });
  if (!user) return;
  const contact = await getUserContact(ctx.db, { userId: user.id });
  const token = await issueEmailToken(ctx, user.id, 'reset');
  const link = `${ctx.env.appUrl}/auth/password/reset?token=${token}`;
  await ctx.mailer
    .send(resetPasswordMail({ to: email, firstName: contact?.first_name ?? '', link }))
    .catch((e) => logger.error('reset mail failed', e));
}

/** Sets the new password, spends the link, revokes every session of the user, then opens one for this browser. */
export async function resetPassword(ctx: Context, input: { token: string; password: string }): Promise<void> {
  const now = nowIso();
  const found = await findUsableEmailToken(ctx.db, { id: hashToken(input.token), kind: 'reset', now });
  if (!found) fail('BAD_REQUEST', 'Ce lien de réinitialisation est invalide ou a expiré. Demandez-en un nouveau.');
  const passwordHash = await hashPassword(input.password);
  const userId = found.user_id;
  await ctx.db.transaction().execute(async (trx) => {
    await updatePasswordHash(trx, { userId, passwordHash });
    await spendEmailTokens(trx, { userId, kind: 'reset', now });
    await markEmailVerified(trx, { userId }); // the link reached the mailbox: the address is proven
    await invalidateUserSessions(trx, userId);
  });
  const organizationId = await findDefaultOrganizationId(ctx.db, { userId });
  if (organizationId !== undefined) await startSession(ctx, userId, organizationId);
}

export async function verifyEmail(ctx: Context, token: string): Promise<void> {
  const now = clock.now().toISOString();
  const found = await findUsableEmailToken(ctx.db, { id: hashToken(token), kind: 'verify', now });
  if (!found) fail('BAD_REQUEST', 'Ce lien d’activation est invalide ou a expiré.');
  await ctx.db.transaction().execute(async (trx) => {
    await markEmailVerified(trx, { userId: found.user_id });
    await spendEmailTokens(trx, { userId: found.user_id, kind: 'verify', now });
  });
}
