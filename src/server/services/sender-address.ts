import type { Db } from '../db/connection';
import { generateToken, hashToken } from '../auth/tokens';
import { isoIn, nowIso } from '../clock';
import {
  confirmSenderAddress,
  deleteSenderAddresses,
  findSenderAddressByToken,
  insertSenderAddress,
  listSenderAddresses,
} from '../db/queries/sender-addresses';
import { findOrganizationName } from '../db/queries/organizations';
import type { SenderState } from '../../shared/schemas/email-settings';
import { fail } from '../errors';
import { deName } from '../../shared/french';

/** How long a mailed confirmation link stays good. */
export const SENDER_LINK_HOURS = 48;

/** Addresses compare without case: the domain has none, and no mailbox provider tells `Jean@` from `jean@`. */
const normalized = (address: string) => address.trim().toLowerCase();

/** The link mailed to a sender address: a page of its own, outside the app, as whoever opens it may have no account. */
export const senderConfirmationLink = (appUrl: string, token: string) => `${appUrl}/sender/confirm/${token}`;

/** The confirmed sender address mail goes out from, or null (then the server's). */
export async function confirmedSenderAddress(db: Db, organizationId: number): Promise<string | null> {
  const rows = await listSenderAddresses(db, { organizationId });
  return rows.find((r) => r.confirmed_at !== null)?.address ?? null;
}

/**
 * Follows a change of the sender address typed in the settings, in the caller's transaction: cleared, every address
 * goes and mail returns to the server's From; back to the confirmed address in use, the waiting one goes; any other
 * address waits for a new link (the token answered, to be mailed once committed) while mail keeps the previous From.
 */
export async function applySenderAddress(
  db: Db,
  params: { organizationId: number; previous: string; next: string },
): Promise<{ address: string; token: string } | null> {
  const { organizationId } = params;
  const next = normalized(params.next);
  if (next === normalized(params.previous)) return null;
  if (next === '') {
    await deleteSenderAddresses(db, { organizationId, all: true });
    return null;
  }
  await deleteSenderAddresses(db, { organizationId, all: false });
  if (next === (await confirmedSenderAddress(db, organizationId))) return null;
  return newSenderToken(db, organizationId, next);
}

/** A fresh link for the address waiting (the older link dies). */
export async function newSenderToken(db: Db, organizationId: number, address: string): Promise<{ address: string; token: string }> {
  const token = generateToken();
  await deleteSenderAddresses(db, { organizationId, all: false });
  await insertSenderAddress(db, {
    organizationId,
    address: normalized(address),
    tokenHash: hashToken(token),
    expiresAt: isoIn(SENDER_LINK_HOURS * 3_600_000),
    now: nowIso(),
  });
  return { address: normalized(address), token };
}

/** Where the typed address stands, and the From address in use now. */
export async function senderState(db: Db, params: { organizationId: number; wanted: string; serverAddress: string }): Promise<SenderState> {
  const rows = await listSenderAddresses(db, { organizationId: params.organizationId });
  const confirmed = rows.find((r) => r.confirmed_at !== null);
  const in_use = confirmed?.address ?? params.serverAddress;
  const wanted = normalized(params.wanted);
  if (wanted === '') return { address: '', status: 'none', expires_at: null, expired: false, in_use };
  if (confirmed?.address === wanted) return { address: wanted, status: 'confirmed', expires_at: null, expired: false, in_use };
  const pending = rows.find((r) => r.confirmed_at === null && r.address === wanted);
  const expires_at = pending?.expires_at ?? null;
  return { address: wanted, status: 'pending', expires_at, expired: expires_at === null || expires_at <= nowIso(), in_use };
}

export type SenderConfirmation =
  | { outcome: 'confirmed' | 'already'; address: string; organization: string }
  | { outcome: 'expired'; address: string; organization: string }
  | { outcome: 'invalid' };

/**
 * The mailed link opened: the address becomes the From of the organisation's mail. A link opened twice says it is
 * done; an expired one, or one replaced by a newer link or another address, confirms nothing.
 */
export async function confirmSenderToken(db: Db, token: string): Promise<SenderConfirmation> {
  if (!/^[a-z2-7]{20,100}$/.test(token)) return { outcome: 'invalid' };
  return db.transaction().execute(async (trx) => {
    const row = await findSenderAddressByToken(trx, { tokenHash: hashToken(token) });
    if (!row) return { outcome: 'invalid' } as const;
    const organization = (await findOrganizationName(trx, { organizationId: row.organization_id })) ?? '';
    const found = { address: row.address, organization };
    if (row.confirmed_at !== null) return { outcome: 'already', ...found } as const;
    if (row.expires_at <= nowIso()) return { outcome: 'expired', ...found } as const;
    await confirmSenderAddress(trx, { organizationId: row.organization_id, id: row.id, now: nowIso() });
    return { outcome: 'confirmed', ...found } as const;
  });
}

export const SENDER_LINK_INVALID =
  'Ce lien de confirmation n’est pas valable : il a été remplacé par un lien plus récent ou l’adresse a changé depuis. Ouvrez le dernier lien reçu, ou renvoyez-en un depuis Paramètres → Envoi d’emails.';
export const senderLinkExpired = (address: string) =>
  `Ce lien de confirmation a expiré (il était valable ${SENDER_LINK_HOURS} heures) : l’adresse ${address} n’est pas confirmée. Renvoyez le lien depuis Paramètres → Envoi d’emails.`;
export const senderConfirmed = (c: { address: string; organization: string }) =>
  `L’adresse ${c.address} est confirmée : les e-mails ${c.organization ? `${deName(c.organization)} ` : ''}partent désormais de cette adresse.`;

/** The same confirmation for an API client: the sentence of the page, an error when nothing was confirmed. */
export async function confirmSenderByApi(db: Db, token: string): Promise<{ messages: string; address: string }> {
  const result = await confirmSenderToken(db, token);
  if (result.outcome === 'invalid') return fail('NOT_FOUND', SENDER_LINK_INVALID);
  if (result.outcome === 'expired') return fail('BAD_REQUEST', senderLinkExpired(result.address));
  return { messages: senderConfirmed(result), address: result.address };
}
