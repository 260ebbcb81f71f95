import type { Db } from '../connection';

export interface SenderAddressRow {
  id: number;
  address: string;
  expires_at: string;
  confirmed_at: string | null;
  created_at: string;
}

const COLUMNS = ['id', 'address', 'expires_at', 'confirmed_at', 'created_at'] as const;

/** The organisation's sender addresses: at most the confirmed one in use and one waiting for its link. */
export async function listSenderAddresses(db: Db, params: { organizationId: number }): Promise<SenderAddressRow[]> {
  return db.selectFrom('sender_addresses').select(COLUMNS).where('organization_id', '=', params.organizationId).orderBy('id').execute();
}

/** Forgets the addresses still waiting for their link (their links die with them), or every address with `all`. */
export async function deleteSenderAddresses(db: Db, params: { organizationId: number; all: boolean }): Promise<void> {
  let query = db.deleteFrom('sender_addresses').where('organization_id', '=', params.organizationId);
  if (!params.all) query = query.where('confirmed_at', 'is', null);
  await query.execute();
}

export async function insertSenderAddress(
  db: Db,
  params: { organizationId: number; address: string; tokenHash: string; expiresAt: string; now: string },
): Promise<void> {
  await db
    .insertInto('sender_addresses')
    .values({
      organization_id: params.organizationId,
      address: params.address,
      token_hash: params.tokenHash,
      expires_at: params.expiresAt,
      confirmed_at: null,
      created_at: params.now,
    })
    .execute();
}

export async function findSenderAddressByToken(db: Db, params: { tokenHash: string }) {
  return db
    .selectFrom('sender_addresses')
    .select([...COLUMNS, 'organization_id'])
    .where('token_hash', '=', params.tokenHash)
    .executeTakeFirst();
}

/** Confirms one address; the organisation's other addresses go (the previous one in use, a stale wait). */
export async function confirmSenderAddress(db: Db, params: { organizationId: number; id: number; now: string }): Promise<void> {
  await db
    .updateTable('sender_addresses')
    .set({ confirmed_at: params.now })
    .where('id', '=', params.id)
    .where('organization_id', '=', params.organizationId)
    .execute();
  await db.deleteFrom('sender_addresses').where('organization_id', '=', params.organizationId).where('id', '!=', params.id).execute();
}
