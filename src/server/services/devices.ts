import type { Context } from '../context';
import type { Session } from '../auth/sessions';
import { fail } from '../errors';
import { nowIso } from '../clock';
import { deleteOtherUserSessions, deleteUserSession, listUserSessions } from '../db/queries/sessions';
import { describeUserAgent } from '../../shared/user-agent';

/** 16 hex characters of the stored SHA-256: enough to name a session among a user's, useless to open one. */
const PUBLIC_ID_LENGTH = 16;

export async function devicesOf(ctx: Context & { session: Session }) {
  const rows = await listUserSessions(ctx.db, { userId: ctx.session.userId, now: nowIso() });
  return {
    data: rows.map((row) => ({
      id: row.id.slice(0, PUBLIC_ID_LENGTH),
      ...describeUserAgent(row.user_agent),
      ip: row.ip,
      created_at: row.created_at,
      last_seen_at: row.last_seen_at,
      current: row.id === ctx.session.id,
    })),
  };
}

/** Closes one of the user's sessions; this browser's own is closed by « Se déconnecter », not here. */
export async function revokeDevice(ctx: Context & { session: Session }, id: string): Promise<void> {
  if (ctx.session.id.startsWith(id)) fail('CONFLICT', 'C’est l’appareil que vous utilisez : déconnectez-vous pour le fermer');
  const deleted = await deleteUserSession(ctx.db, { userId: ctx.session.userId, prefix: id });
  if (deleted === 0) fail('NOT_FOUND', 'Appareil introuvable');
}

export async function revokeOtherDevices(ctx: Context & { session: Session }): Promise<number> {
  return deleteOtherUserSessions(ctx.db, { userId: ctx.session.userId, keep: ctx.session.id });
}
